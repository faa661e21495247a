import { describe, expect, it } from "vitest";
import { describeError } from "../src/errors";
import { addPage, applyChange, type RoomListing } from "../src/roomlist";
import { RoomStatus, type RoomInfo } from "../src/store";

function room(id: string, over: Partial<RoomInfo> = {}): RoomInfo {
  return {
    room_id: id, game: "globalissimo", is_private: false, join_code: "", watch_code: "", status: RoomStatus.WAITING,
    host_player_id: "p1", max_seats: 2, seats: [], spectators: [], options: new Uint8Array(),
    title: `table ${id}`, your_seat: -1, game_id: "", timer: null, offline_grace_seconds: 60, undo: true, rematch: null, ...over,
  };
}
const ids = (l: RoomListing) => l.rooms.map((r) => r.room_id);
const complete = (...rs: RoomInfo[]): RoomListing => addPage(null, { rooms: rs, next_after_room_id: "" });

describe("room list pages", () => {
  it("keeps the first page in room id order", () => {
    const l = addPage(null, { rooms: [room("r3"), room("r1"), room("r2")], next_after_room_id: "r3" });
    expect(ids(l)).toEqual(["r1", "r2", "r3"]);
    expect(l.next).toBe("r3");
  });

  it("appends the next page, the newer word on a room winning", () => {
    const first = addPage(null, { rooms: [room("r1"), room("r2")], next_after_room_id: "r2" });
    const second = addPage(first, { rooms: [room("r2", { title: "renamed" }), room("r4")], next_after_room_id: "" });
    expect(ids(second)).toEqual(["r1", "r2", "r4"]);
    expect(second.rooms[1].title).toBe("renamed");
    expect(second.next).toBe("");
    expect(ids(first)).toEqual(["r1", "r2"]);
  });

  it("drops private and finished rooms a page might carry", () => {
    const l = complete(room("r1", { is_private: true }), room("r2", { status: RoomStatus.FINISHED }), room("r3"));
    expect(ids(l)).toEqual(["r3"]);
  });
});

describe("room list changes", () => {
  it("inserts new rooms in order and replaces changed ones in place", () => {
    const before = complete(room("r2"), room("r5"));
    const after = applyChange(before, {
      changed: [room("r5", { status: RoomStatus.PLAYING }), room("r1"), room("r3")],
      removed_room_ids: [],
    });
    expect(ids(after)).toEqual(["r1", "r2", "r3", "r5"]);
    expect(after.rooms[3].status).toBe(RoomStatus.PLAYING);
    expect(ids(before)).toEqual(["r2", "r5"]);
    expect(before.rooms[1].status).toBe(RoomStatus.WAITING);
  });

  it("removes the rooms gone, and ignores ids it never showed", () => {
    const after = applyChange(complete(room("r1"), room("r2"), room("r3")), { changed: [], removed_room_ids: ["r2", "r9"] });
    expect(ids(after)).toEqual(["r1", "r3"]);
  });

  it("takes a room out when it turns up finished or private", () => {
    const after = applyChange(complete(room("r1"), room("r2")), {
      changed: [room("r1", { status: RoomStatus.FINISHED }), room("r2", { is_private: true })],
      removed_room_ids: [],
    });
    expect(ids(after)).toEqual([]);
  });

  it("leaves rooms past the loaded pages to the page that holds them", () => {
    const l = addPage(null, { rooms: [room("r2"), room("r4")], next_after_room_id: "r4" });
    const after = applyChange(l, { changed: [room("r1"), room("r4", { title: "t" }), room("r7")], removed_room_ids: ["r2"] });
    expect(ids(after)).toEqual(["r1", "r4"]);
    expect(after.rooms[1].title).toBe("t");
    expect(after.next).toBe("r4");
    // Once the rest is loaded, the same push is taken whole.
    const all = addPage(l, { rooms: [room("r7")], next_after_room_id: "" });
    expect(ids(applyChange(all, { changed: [room("r9")], removed_room_ids: [] }))).toEqual(["r2", "r4", "r7", "r9"]);
  });

  it("tolerates a push with absent lists", () => {
    const l = complete(room("r1"));
    expect(ids(applyChange(l, {} as any))).toEqual(["r1"]);
  });
});

describe("refusals in words", () => {
  it("has its own words for pace and restarts", () => {
    for (const code of ["rate_limited", "chat_rate_limited", "shutting_down", "room_moved"]) {
      const text = describeError(code, "");
      expect(text).not.toContain(code);
      expect(text.length).toBeGreaterThan(20);
    }
    expect(describeError("shutting_down", "x")).toMatch(/reconnect/i);
    expect(describeError("room_moved", "x")).toMatch(/reconnect/i);
  });

  it("keeps the server's wait and count where they are the point", () => {
    expect(describeError("code_lockout", "Too many wrong room codes; try again in 42 s.")).toContain("42 s");
    expect(describeError("too_many_rooms", "You already have 10 open rooms; leave or finish one first.")).toContain("10 open rooms");
    expect(describeError("code_lockout", "")).toMatch(/wrong room codes/);
    expect(describeError("too_many_rooms", "")).toMatch(/another room/);
  });

  it("passes other reasons through, the code when there is none", () => {
    expect(describeError("room_full", "Every seat is taken.")).toBe("Every seat is taken.");
    expect(describeError("room_full", "")).toBe("room_full");
  });
});
