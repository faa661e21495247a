import { describe, expect, it } from "vitest";
import { href, inviteRoute, namingRoom, parseRoute, watchRoute } from "../src/router";

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

describe("invite and watch routes", () => {
  it("carry the room id with the code, and back", () => {
    const join = href({ page: "join", roomId: "r00ff", code: "ABC234" });
    expect(join).toBe("#/join/r00ff/ABC234");
    expect(parseRoute(join)).toEqual({ page: "join", roomId: "r00ff", code: "ABC234" });
    const watch = href({ page: "watch", roomId: "r00ff", watchCode: "WXYZ23456789" });
    expect(watch).toBe("#/watch/r00ff/WXYZ23456789");
    expect(parseRoute(watch)).toEqual({ page: "watch", roomId: "r00ff", watchCode: "WXYZ23456789" });
  });

  it("keep the older code-only links and a public room's watch link", () => {
    expect(parseRoute("#/join/ABC234")).toEqual({ page: "join", code: "ABC234" });
    expect(parseRoute("#/watch/ABC234")).toEqual({ page: "watch", code: "ABC234" });
    expect(parseRoute("#/watch/room/r00ff")).toEqual({ page: "watch", roomId: "r00ff" });
    expect(href({ page: "watch", roomId: "r00ff" })).toBe("#/watch/room/r00ff");
  });

  it("hand a private room's watch code, never its join code, to watchers", () => {
    const priv = { room_id: "r1", is_private: true, join_code: "ABC234", watch_code: "WXYZ23456789" };
    expect(href(watchRoute(priv))).toBe("#/watch/r1/WXYZ23456789");
    expect(href(inviteRoute(priv))).toBe("#/join/r1/ABC234");
    const pub = { ...priv, is_private: false };
    expect(href(watchRoute(pub))).toBe("#/watch/room/r1");
    expect(href(inviteRoute(pub))).toBe("#/room/r1");
  });
});

describe("a code typed alone, once the server names its room", () => {
  it("becomes an invitation naming the room, and nothing else changes", () => {
    expect(namingRoom({ page: "join", code: "K7Q2" }, "r0123")).toEqual({ page: "join", code: "K7Q2", roomId: "r0123" });
    expect(href(namingRoom(parseRoute("#/join/K7Q2"), "r0123")!)).toBe("#/join/r0123/K7Q2");
    expect(namingRoom({ page: "join", code: "K7Q2", roomId: "r9" }, "r0123")).toBeNull();
    expect(namingRoom({ page: "room", roomId: "r9" }, "r0123")).toBeNull();
    expect(namingRoom({ page: "join", code: "K7Q2" }, "")).toBeNull();
  });
});
