// The WebSocket address names the room of the page it opens on (a placement hint for the server).
import { describe, expect, it } from "vitest";
import { wsUrl } from "../src/client";

const at = (hash: string, protocol = "http:") => wsUrl({ protocol, host: "example.org:8080", hash });

describe("wsUrl", () => {
  it("is plain /ws away from a room", () => {
    expect(at("")).toBe("ws://example.org:8080/ws");
    expect(at("#/replays")).toBe("ws://example.org:8080/ws");
    expect(at("#/join/ABCD", "https:")).toBe("wss://example.org:8080/ws");
  });
  it("names the room of a room page, an invitation and a watch link", () => {
    expect(at("#/room/r12")).toBe("ws://example.org:8080/ws?room=r12");
    expect(at("#/join/r12/CODE")).toBe("ws://example.org:8080/ws?room=r12");
    expect(at("#/watch/r12/W1")).toBe("ws://example.org:8080/ws?room=r12");
    expect(at("#/watch/room/r 1&x")).toBe("ws://example.org:8080/ws?room=r%201%26x");
  });
  it("opens without a hint on a malformed link", () => {
    expect(at("#/room/%E0%A4%A")).toBe("ws://example.org:8080/ws");
  });
});
