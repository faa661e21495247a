import { describe, expect, it } from "vitest";
import { BASE_TITLE, titleFor, waitsOnMe } from "../src/attention";
import type { RoomState, SeatInfo } from "../src/store";

function room(id: string, title: string, game: Partial<NonNullable<RoomState["game"]>> | null, seats: SeatInfo[] = []): RoomState {
  return {
    id, chat: [], results: null, gameId: "", replayToken: "", lastError: "", role: "player",
    info: { title, seats } as unknown as RoomState["info"], infoAt: 0,
    game: game ? { version: 1, seat: 0, viewType: "", view: {}, acting: [], gameOver: false, canUndo: false, ...game } : null,
  };
}

describe("your turn outside the board", () => {
  it("waits on me only while my seat acts in a running game", () => {
    expect(waitsOnMe(room("a", "A", { seat: 1, acting: [1] }))).toBe(true);
    expect(waitsOnMe(room("a", "A", { seat: 1, acting: [0, 2] }))).toBe(false);
    expect(waitsOnMe(room("a", "A", { seat: 1, acting: [1], gameOver: true }))).toBe(false);
    expect(waitsOnMe(room("a", "A", { seat: -1, acting: [0] }))).toBe(false);  // watching
    expect(waitsOnMe(room("a", "A", null))).toBe(false);  // not started
  });

  it("does not wait on me while a bot plays my seat", () => {
    const seat = { seat: 1, player_id: "p1", name: "Me", ready: true, connected: true, bot: 0, rematch: false, presence: 0, offline_ms: 0, stand_in: 0, clock: null };
    expect(waitsOnMe(room("a", "A", { seat: 1, acting: [1] }, [{ ...seat, stand_in: 1 }]))).toBe(false);
    expect(waitsOnMe(room("a", "A", { seat: 1, acting: [1] }, [{ ...seat, stand_in: 0 }]))).toBe(true);
  });

  it("says so in the title, naming the table or counting them", () => {
    const a = room("a", "Ada's table", { seat: 0, acting: [0] });
    const b = room("b", "Friday game", { seat: 2, acting: [2] });
    const c = room("c", "Quiet table", { seat: 0, acting: [1] });
    expect(titleFor([])).toBe(BASE_TITLE);
    expect(titleFor([], c)).toBe("Quiet table · Plateau");
    expect(titleFor([a])).toBe("● Your turn — Ada's table · Plateau");
    expect(titleFor([a, b])).toBe("● Your turn (2) · Plateau");
    expect(titleFor([a, b], b)).toBe("● Your turn (2) — Friday game · Plateau");
    expect(titleFor([a], c)).toBe("● Your turn — Ada's table · Plateau");
  });
});
