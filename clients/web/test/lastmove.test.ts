// The last move shown: which parts of a view changed since the reference point and by whose
// moves, the words of a mark, and the log entries since the player's last move.
import { describe, expect, it } from "vitest";
import { applyDiff } from "../src/diff";
import {
  changedBy, followMove, markText, moverOf, sameValue, sinceLastMove, startTrack, summaryLines, type MoveTrack,
} from "../src/lastmove";
import { Long, protobuf, ServerMessage, ViewDiffType } from "../src/proto";

// A board of slots (a tile on each, or none), players with scores, and the core's log.
const SCHEMA = `
syntax = "proto3";
package lm;
message Slot { int32 tile_seat = 1; int64 value = 2; bytes secret = 3; }
message Player { int32 seat = 1; int32 score = 2; repeated int32 cards = 3; }
message Words { string key = 1; }
message Entry { uint64 seq = 1; Words text = 2; }
message Table { repeated Entry log = 2; }
message View { repeated Slot slots = 1; repeated Player players = 2; Table table = 3; int32 round = 4; }`;
const root = new protobuf.Root();
protobuf.parse(SCHEMA, root, { keepCase: true });
root.resolveAll();
const View = root.lookupType("lm.View");

function decode(o: Record<string, unknown>): any {
  return View.decode(View.encode(View.fromObject(o)).finish());
}

/** The view after `ops`, as the client applies a Diff (copy-on-write). */
function apply(view: any, ops: Record<string, unknown>[]): any {
  const bytes = ViewDiffType.encode(ViewDiffType.fromObject({ from_version: 1, to_version: 2, ops })).finish();
  return applyDiff(View, view, (ViewDiffType.decode(bytes) as any).ops);
}

const setTile = (slot: number, seat: number) => ({ path: [1, slot, 1], set_scalar: { int_value: seat } });
const setScore = (player: number, score: number) => ({ path: [2, player, 2], set_scalar: { int_value: score } });
const log = (seq: number, key: string) => ({
  path: [3, 2], append_message: View.lookupType("lm.Entry").encode({ seq, text: { key } }).finish(),
});

const START = {
  slots: [{ tile_seat: -1 }, { tile_seat: -1 }, { tile_seat: -1 }, { tile_seat: -1 }],
  players: [{ seat: 0 }, { seat: 1 }, { seat: 2 }],
  table: { log: [{ seq: 0, text: { key: "setup" } }] },
};
const NAMES = ["Ann", "Bob", "Cid"];
const slot = (i: number) => (v: any) => v.slots[i];
const player = (seat: number) => (v: any) => v.players.find((p: any) => p.seat === seat);

/** Follows the moves in order from `start`: each [mover, ops]. Returns the track and the view. */
function play(seat: number, start: any, moves: [number, Record<string, unknown>[]][]): { track: MoveTrack; view: any } {
  let track = startTrack(start, seat);
  let view = start;
  for (const [mover, ops] of moves) {
    const next = apply(view, ops);
    track = followMove(track, view, next, mover);
    view = next;
  }
  return { track, view };
}

describe("who made a move", () => {
  // As the client reads a Diff: decoded from the wire, then toObject with defaults.
  const TO_OBJECT = { longs: Number, enums: Number, defaults: true, oneofs: true } as const;
  function received(diff: Record<string, unknown>): any {
    const bytes = ServerMessage.encode(ServerMessage.fromObject({ diff: { room_id: "r", ...diff } })).finish();
    return (ServerMessage.toObject(ServerMessage.decode(bytes), TO_OBJECT) as any).diff;
  }
  it("is the seat the server names, seat 0 included", () => {
    expect(moverOf(received({ mover_seat: 2, acting_seats: [0, 1, 2] }))).toBe(2);
    expect(moverOf(received({ mover_seat: 0, acting_seats: [1] }))).toBe(0);
    expect(moverOf(received({ mover_seat: 1, mover_origin: 1 }))).toBe(1);  // its clock ran out
  });
  it("is unknown when the server names nobody, whatever the acting seats", () => {
    // Before, the seat that left the acting seats was taken for the mover.
    expect(moverOf(received({ acting_seats: [0, 2] }))).toBe(-1);
    expect(moverOf(received({ acting_seats: [] }))).toBe(-1);
  });
});

describe("what changed since the player's last move", () => {
  const start = decode(START);

  it("marks what another seat's move changed, and nothing else", () => {
    const { track } = play(0, start, [[1, [setTile(2, 1), log(1, "placed")]]]);
    expect(changedBy(track, slot(2))).toEqual([1]);
    expect(changedBy(track, slot(0))).toBeNull();
    expect(changedBy(track, player(1))).toBeNull();
  });

  it("names every seat whose move changed an element, the latest last", () => {
    const { track } = play(0, start, [
      [1, [setTile(2, 1), setScore(1, 3)]],
      [2, [setTile(3, 2), setScore(1, 5)]],
      [1, [setScore(2, 1)]],
    ]);
    expect(changedBy(track, slot(2))).toEqual([1]);
    expect(changedBy(track, slot(3))).toEqual([2]);
    expect(changedBy(track, player(1))).toEqual([1, 2]);
    expect(changedBy(track, player(2))).toEqual([1]);
    expect(markText([1], NAMES)).toBe("Changed by Bob's last move");
    expect(markText([1, 2], NAMES)).toBe("Changed by the moves of Bob and Cid");
    expect(markText([-1], NAMES)).toBe("Changed by another player's last move");
  });

  it("keeps the marks through the others' moves and drops them at the player's own", () => {
    const { track } = play(0, start, [[1, [setTile(2, 1)]], [2, [setScore(2, 4)]]]);
    expect(changedBy(track, slot(2))).toEqual([1]);
    const after = followMove(track, track.steps[1].after, apply(track.steps[1].after, [setTile(0, 0)]), 0);
    expect(changedBy(after, slot(2))).toBeNull();
    expect(changedBy(after, slot(0))).toBeNull();  // his own move is not marked
    expect(after.steps).toEqual([]);
  });

  it("does not mark an element changed and changed back", () => {
    const { track } = play(0, start, [[1, [setScore(1, 2)]], [2, [setScore(1, 0)]]]);
    expect(changedBy(track, player(1))).toBeNull();
  });

  it("marks an element that appeared and one that is gone, and survives a selector that throws", () => {
    const { track } = play(0, start, [[1, [{ path: [2, 1, 3], append_scalar: { int_value: 7 } }]]]);
    expect(changedBy(track, (v: { players: { cards: unknown[] }[] }) => v.players[1].cards[0])).toEqual([1]);
    expect(changedBy(track, (v: { missing: { deep: unknown } }) => v.missing.deep)).toBeNull();
  });

  it("tells value from identity: an equal view decoded afresh is no change", () => {
    const copy = decode(START);
    expect(copy).not.toBe(start);
    const track = followMove(startTrack(start, 0), start, copy, 1);
    expect(changedBy(track, slot(1))).toBeNull();
    expect(changedBy(track, (v) => v)).toBeNull();
  });
});

describe("a spectator's marks", () => {
  const start = decode(START);

  it("show the latest move that changed his view only", () => {
    const one = play(-1, start, [[1, [setTile(1, 1)]]]);
    expect(changedBy(one.track, slot(1))).toEqual([1]);
    const two = play(-1, start, [[1, [setTile(1, 1)]], [2, [setTile(3, 2)]]]);
    expect(changedBy(two.track, slot(1))).toBeNull();
    expect(changedBy(two.track, slot(3))).toEqual([2]);
  });

  it("stay when a move changes nothing he can see", () => {
    const { track, view } = play(-1, start, [[1, [setTile(1, 1)]]]);
    const same = followMove(track, view, view, 2);
    expect(changedBy(same, slot(1))).toEqual([1]);
  });

  it("get no summary", () => {
    const { track } = play(-1, start, [[1, [setTile(1, 1), log(1, "placed")]]]);
    expect(sinceLastMove(track)).toEqual([]);
  });
});

describe("since your last move", () => {
  const start = decode(START);
  const keys = (t: MoveTrack) => sinceLastMove(t).map((e) => [e.mover, e.entry.text?.key]);

  it("lists the others' log entries since the player's move, in order, by mover", () => {
    const { track } = play(0, start, [
      [0, [setTile(0, 0), log(1, "ann placed")]],
      [1, [setTile(1, 1), log(2, "bob placed"), log(3, "bob scored")]],
      [2, [setTile(2, 2), log(4, "cid placed")]],
    ]);
    expect(keys(track)).toEqual([[1, "bob placed"], [1, "bob scored"], [2, "cid placed"]]);
  });

  it("is empty once the player moves again, and counts nothing his own move wrote", () => {
    const { track } = play(0, start, [
      [1, [log(1, "bob placed")]],
      [0, [log(2, "ann placed")]],
    ]);
    expect(keys(track)).toEqual([]);
    const next = play(0, start, [[1, [log(1, "bob placed")]], [0, [log(2, "ann placed")]], [2, [log(3, "cid placed")]]]);
    expect(keys(next.track)).toEqual([[2, "cid placed"]]);
  });

  it("shows the latest entries and counts the earlier ones", () => {
    const moves: [number, Record<string, unknown>[]][] = [];
    for (let i = 1; i <= 13; i++) moves.push([1 + (i % 2), [log(i, `move ${i}`)]]);
    const all = sinceLastMove(play(0, start, moves).track);
    expect(all).toHaveLength(13);
    const { earlier, shown } = summaryLines(all, 10);
    expect(earlier).toBe(3);
    expect(shown.map((e) => e.entry.text?.key)).toEqual(Array.from({ length: 10 }, (_, k) => `move ${k + 4}`));
    expect(summaryLines(all.slice(0, 4), 10)).toEqual({ earlier: 0, shown: all.slice(0, 4) });
  });

  it("is empty before anyone moved", () => {
    expect(sinceLastMove(startTrack(start, 0))).toEqual([]);
    expect(sinceLastMove(null)).toEqual([]);
  });
});

describe("equality of decoded values", () => {
  it("compares 64-bit integers, bytes, arrays and defaults by value", () => {
    expect(sameValue(Long.fromNumber(5), Long.fromNumber(5))).toBe(true);
    expect(sameValue(Long.fromNumber(5), Long.fromNumber(6))).toBe(false);
    expect(sameValue(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(sameValue(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(sameValue([1, 2], [1, 2])).toBe(true);
    expect(sameValue([1, 2], [1])).toBe(false);
    expect(sameValue(undefined, 0)).toBe(true);
    expect(sameValue(undefined, [])).toBe(true);
    expect(sameValue(null, { a: 1 })).toBe(false);
  });

  it("reads a field a message does not own as its default", () => {
    const a = decode({ round: 0, slots: [{ tile_seat: 0, value: 0 }] });
    const b = decode({ slots: [{}] });
    expect(sameValue(a, b)).toBe(true);
    expect(sameValue(a, decode({ slots: [{ value: 9 }] }))).toBe(false);
  });
});
