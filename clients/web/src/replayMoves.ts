// The replay viewer's list of moves (Replay.moves, asked with GetReplay.with_moves): one row per
// move in words, found by step. Pure, so the rules of the list are tested without a page.
import { ActionOrigin } from "./store";
import type * as wire from "./gen/plateau/v1/protocol";
import type { Msg } from "./proto";
import type { Text } from "./table";
import type { TextPart } from "./ui/TextRender";

/** A move of the list: `step` is the step it leads to (0: the set-up, whose `seat` is -1). */
export type ReplayMove = Msg<wire.ReplayMove>;

export interface MoveRow {
  step: number;
  seat: number;
  origin: number;
  /** A short tag for a move its seat's player did not make, "" for one they did. */
  tag: string;
  /** The move's phrases in runs, one space between phrases. */
  parts: TextPart[];
  /** The same words as one string. */
  text: string;
}

/** A few words for who made a move when it was not the seat's player ("" when it was). */
export function originTag(origin: number | null | undefined): string {
  switch (origin) {
    case ActionOrigin.CLOCK: return "timed out";
    case ActionOrigin.STAND_IN: return "bot stand-in";
    case ActionOrigin.CLAIM: return "claimed";
    case ActionOrigin.EXPIRED: return "expired";
    default: return "";
  }
}

/**
 * The rows of the list, by step. The server sends them in order; they are sorted anyway because
 * finding a step's row relies on it, and a row is kept once per step so that a list from a
 * misbehaving server still has one row to mark as the current one.
 */
export function moveRows(moves: readonly ReplayMove[] | null | undefined, render: (t: Text) => TextPart[]): MoveRow[] {
  const rows: MoveRow[] = [];
  const seen = new Set<number>();
  const sorted = [...(moves ?? [])].sort((a, b) => (a.step ?? 0) - (b.step ?? 0));
  for (const m of sorted) {
    const step = m.step ?? 0;
    if (seen.has(step)) continue;
    seen.add(step);
    const parts: TextPart[] = [];
    for (const w of m.words ?? []) {
      const phrase = render(w).filter((p) => p.text !== "");
      if (phrase.length === 0) continue;
      if (parts.length > 0) parts.push({ text: " " });
      parts.push(...phrase);
    }
    rows.push({
      step, seat: m.seat ?? -1, origin: m.origin ?? ActionOrigin.PLAYER, tag: originTag(m.origin), parts,
      text: parts.map((p) => p.text).join(""),
    });
  }
  return rows;
}

/** The index of the row of `step` in rows from moveRows, -1 when it has none. */
export function rowIndexForStep(rows: readonly MoveRow[], step: number): number {
  let lo = 0, hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = rows[mid].step;
    if (s === step) return mid;
    if (s < step) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Where a scrolled box must be scrolled to for a row (`top`, `height` inside its content) to be
 * seen whole: unchanged when it already is, else the least move that shows it. The box is
 * scrolled by hand because scrollIntoView would scroll the page as well.
 */
export function scrollToShow(top: number, height: number, scrollTop: number, boxHeight: number): number {
  if (top < scrollTop) return top;
  // A row taller than the box shows from its top.
  if (top + height > scrollTop + boxHeight) return height > boxHeight ? top : top + height - boxHeight;
  return scrollTop;
}
