import { describe, expect, it } from "vitest";
import { href, parseRoute } from "../src/router";

describe("replay routes", () => {
  it("keep a private game's token through href and back", () => {
    const link = href({ page: "replay", gameId: "g0123", step: 4, seat: 1, token: "00ff".repeat(8) });
    expect(link).toBe(`#/replay/g0123?step=4&seat=1&t=${"00ff".repeat(8)}`);
    expect(parseRoute(link)).toEqual({ page: "replay", gameId: "g0123", step: 4, seat: 1, token: "00ff".repeat(8) });
  });

  it("leave a public game's link without a token", () => {
    expect(href({ page: "replay", gameId: "g0123", step: 0, seat: -1 })).toBe("#/replay/g0123?step=0");
    const route = parseRoute("#/replay/g0123?step=0");
    expect(route.page === "replay" && route.token).toBeFalsy();
  });
});
