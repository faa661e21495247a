// Rooms held but not yet entered again after a reconnect: moves for them wait (src/away.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AwayRooms } from "../src/away";

describe("AwayRooms", () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it("lets a move for a room that never went through at once", async () => {
    const away = new AwayRooms();
    await expect(away.whenBack("r1", 1000)).resolves.toBe(true);
  });

  it("holds a move until its room is back, and only that room's", async () => {
    const changes = vi.fn();
    const away = new AwayRooms(changes);
    away.left(["r1", "r2"]);
    expect(changes).toHaveBeenCalledTimes(1);
    expect(away.has("r1") && away.has("r2")).toBe(true);
    let r1 = false, r2 = false;
    void away.whenBack("r1", 20_000).then((ok) => { r1 = ok; });
    void away.whenBack("r2", 20_000).then((ok) => { r2 = ok; });
    await vi.advanceTimersByTimeAsync(5_000);
    expect([r1, r2]).toEqual([false, false]);
    away.back("r1");
    await vi.advanceTimersByTimeAsync(0);
    expect([r1, r2]).toEqual([true, false]);
    expect(away.has("r1")).toBe(false);
    expect(changes).toHaveBeenCalledTimes(2);
  });

  it("stays away over a second lost connection, and gives up after the wait", async () => {
    const away = new AwayRooms();
    away.left(["r1"]);
    const waited = away.whenBack("r1", 20_000);
    away.left(["r1"]);  // the next connection went too, before the room was entered
    await vi.advanceTimersByTimeAsync(20_000);
    await expect(waited).resolves.toBe(false);
    expect(away.has("r1")).toBe(true);
    away.back("r1");
    await expect(away.whenBack("r1", 10)).resolves.toBe(true);
  });

  it("says nothing changed for a room back twice or never away", () => {
    const changes = vi.fn();
    const away = new AwayRooms(changes);
    away.back("r9");
    away.left([]);
    expect(changes).not.toHaveBeenCalled();
  });
});
