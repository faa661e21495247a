// What changed on a seat's board since a reference point, and whose moves changed it: the views
// received since then and who made each, from which any board asks whether one of its elements
// changed (a selector over the view) without knowing the rules, and the log entries since then.
//
// A seated player's reference is his own last move: what the others did since stays marked until
// he moves again. A spectator's is the view before the latest move that changed what he sees.
// Who made a move is the server's word (Diff.mover_seat), not a guess from the game or the
// acting seats. A move the server does not name to this viewer (a choice in a simultaneous step
// by a seat still acting after it, named to that seat only) is "another player's" (-1).
import { tableOf, toNumber, type LogEntry } from "./table";

/** One diff since the reference: the view before and after it, and who made it (-1: unknown). */
export interface MoveStep {
  before: unknown;
  after: unknown;
  mover: number;
}

export interface MoveTrack {
  /** The seat the views are for, -1 for a spectator. */
  seat: number;
  /** The view the marks compare against. */
  ref: unknown;
  /** The diffs since `ref`, oldest first; the last one's `after` is the view shown. */
  steps: MoveStep[];
}

// Enough for a round of any table; past it the oldest steps are folded into one whose mover is
// unknown, so memory stays bounded and a change is still marked, only less precisely attributed.
const MAX_STEPS = 64;

/** A track starting at `view` (a Snapshot: nothing is marked until a move arrives). */
export function startTrack(view: unknown, seat: number): MoveTrack {
  return { seat, ref: view, steps: [] };
}

/** Who made the move a Diff stands for: its `mover_seat` when the server named one, else -1. */
export function moverOf(diff: { mover_seat?: number | null }): number {
  return typeof diff.mover_seat === "number" ? diff.mover_seat : -1;
}

/** The track after a diff took the view from `before` to `after`, made by `mover`. */
export function followMove(track: MoveTrack, before: unknown, after: unknown, mover: number): MoveTrack {
  if (track.seat >= 0) {
    // The player's own move: what he has seen so far is his new reference.
    if (mover === track.seat) return { seat: track.seat, ref: after, steps: [] };
    const steps = [...track.steps, { before, after, mover }];
    if (steps.length > MAX_STEPS) {
      const [a, b] = steps.splice(0, 2);
      steps.unshift({ before: a.before, after: b.after, mover: a.mover === b.mover ? a.mover : -1 });
    }
    return { seat: track.seat, ref: track.ref, steps };
  }
  // A spectator sees the latest move that changed his view; one that changed nothing he can see
  // leaves the marks of the one before.
  if (after === before) return track;
  return { seat: -1, ref: before, steps: [{ before, after, mover }] };
}

/** The view the track ends at. */
export function currentView(track: MoveTrack): unknown {
  return track.steps.length ? track.steps[track.steps.length - 1].after : track.ref;
}

/** Reads one element of a view; `V`: the game's View, which every view of one track is. */
type Select<V> = (view: V) => unknown;

function pick<V>(select: Select<V>, view: unknown): unknown {
  try {
    return select(view as V);
  } catch {
    return undefined;  // the element did not exist in that view
  }
}

/**
 * Whether the element `select` reads changed since the reference, and if so the seats whose moves
 * changed it, latest last (-1 for a move of unknown seat); null when it did not change.
 */
export function changedBy<V>(track: MoveTrack | null | undefined, select: Select<V>): number[] | null {
  if (!track || track.steps.length === 0) return null;
  if (sameValue(pick(select, track.ref), pick(select, currentView(track)))) return null;
  const movers: number[] = [];
  for (const s of track.steps) {
    if (sameValue(pick(select, s.before), pick(select, s.after))) continue;
    const i = movers.indexOf(s.mover);
    if (i >= 0) movers.splice(i, 1);
    movers.push(s.mover);
  }
  return movers;
}

function logSeqMax(view: unknown): number {
  const log = tableOf(view).log;
  return log.length ? toNumber(log[log.length - 1].seq) : -1;
}

/** A log entry and the seat whose move wrote it (-1: unknown). */
export interface MoveEntry {
  entry: LogEntry;
  mover: number;
}

/**
 * The log entries the other seats' moves wrote since the player's last move, oldest first, as the
 * engine wrote them for this viewer.
 */
export function sinceLastMove(track: MoveTrack | null | undefined): MoveEntry[] {
  if (!track || track.seat < 0) return [];
  const out: MoveEntry[] = [];
  // The player's own moves are never among the steps: each starts the track again.
  for (const s of track.steps) {
    const from = logSeqMax(s.before);
    for (const e of tableOf(s.after).log) {
      if (toNumber(e.seq) > from) out.push({ entry: e, mover: s.mover });
    }
  }
  return out;
}

/**
 * The summary's lines: the latest `max` entries, and how many earlier ones it leaves to the log
 * (a round of bots can write dozens).
 */
export function summaryLines(entries: readonly MoveEntry[], max: number): { earlier: number; shown: MoveEntry[] } {
  const earlier = Math.max(0, entries.length - max);
  return { earlier, shown: entries.slice(earlier) };
}

function isLong(x: object): x is { equals(o: unknown): boolean; toString(): string } {
  return typeof (x as { toNumber?: unknown }).toNumber === "function" && "low" in x && "high" in x;
}

/**
 * Structural equality of decoded messages: identity first (views are copy-on-write, so an
 * untouched part is the same object), then field by field. A field a message does not own reads
 * its default through the prototype, so absent and default compare equal, as on the wire.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a == null || b == null) {
    return (a == null || isDefault(a)) && (b == null || isDefault(b));
  }
  if (typeof a !== "object" || typeof b !== "object") {
    if (typeof a === "object" && isLong(a)) return a.toString() === String(b);
    if (typeof b === "object" && isLong(b)) return b.toString() === String(a);
    return false;
  }
  if (isLong(a) || isLong(b)) return String(a) === String(b);
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length) return false;
    return a.every((x, i) => x === b[i]);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!(Array.isArray(a) && Array.isArray(b)) || a.length !== b.length) return false;
    return a.every((x, i) => sameValue(x, b[i]));
  }
  const ra = a as Record<string, unknown>, rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const k of keys) if (!sameValue(ra[k], rb[k])) return false;
  return true;
}

function isDefault(x: unknown): boolean {
  if (x === 0 || x === "" || x === false) return true;
  if (Array.isArray(x)) return x.length === 0;
  return false;
}

function nameOf(seat: number, names: readonly string[]): string {
  return seat >= 0 ? names[seat] || `Seat ${seat + 1}` : "another player";
}

/** The words a mark carries: "Changed by Ann's last move", "… by the moves of Ann and Bob". */
export function markText(movers: readonly number[], names: readonly string[]): string {
  const who = movers.map((s) => nameOf(s, names));
  if (who.length <= 1) return `Changed by ${who[0] ?? "another player"}'s last move`;
  return `Changed by the moves of ${who.slice(0, -1).join(", ")} and ${who[who.length - 1]}`;
}
