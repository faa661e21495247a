// The kit's score track: a winding path of squares (left to right, then back) with the players'
// pawns in their colours on the squares they reached, several on one square side by side. The
// board says how each square looks (its class and label) and what a pawn's title and marks are.
import type { ComponentChildren } from "preact";
import { seatColor } from "../common";

/** How one square is drawn. */
export interface TrackSquare {
  /** Classes of the square (the game's kinds of square). */
  cls?: string;
  /** Drawn in the square, near its top. */
  label?: ComponentChildren;
}

export interface TrackPawn {
  seat: number;
  /** The square's index. */
  at: number;
  title?: string;
  /** Extra classes and attributes (a last-move mark). */
  cls?: string;
  attrs?: Record<string, string>;
}

export interface TrackProps {
  squares: readonly TrackSquare[];
  pawns: readonly TrackPawn[];
  /** Squares per row. */
  cols?: number;
  class?: string;
  testid?: string;
  ariaLabel?: string;
}

const CELL = 46;
const GAP = 8;

/** The top-left corner of square `i` on a winding track of `cols` squares a row. */
export function squareXY(i: number, cols: number): [number, number] {
  const row = Math.floor(i / cols);
  const col = i % cols;
  const x = row % 2 === 0 ? col : cols - 1 - col;
  return [x * (CELL + GAP) + GAP, row * (CELL + GAP) + GAP];
}

/** Where each pawn of a square stands, around its centre: up to three a row. */
export function pawnOffsets(n: number): [number, number][] {
  const cols = Math.min(n, 3);
  const rows = Math.ceil(n / 3);
  return Array.from({ length: n }, (_, k) => [(k % cols - (cols - 1) / 2) * 12, (Math.floor(k / 3) - (rows - 1) / 2) * 12]);
}

export function Track({ squares, pawns, cols = 12, class: cls = "", testid = "score-track", ariaLabel = "Score track" }: TrackProps) {
  const rows = Math.max(1, Math.ceil(squares.length / cols));
  const w = cols * (CELL + GAP) + GAP;
  const h = rows * (CELL + GAP) + GAP;
  const line = squares.map((_, i) => {
    const [x, y] = squareXY(i, cols);
    return `${i ? "L" : "M"}${x + CELL / 2},${y + CELL / 2}`;
  }).join(" ");
  const bySquare = new Map<number, TrackPawn[]>();
  for (const p of pawns) bySquare.set(p.at, [...(bySquare.get(p.at) ?? []), p]);
  return (
    <svg class={`kit-track ${cls}`} viewBox={`0 0 ${w} ${h}`} data-testid={testid} role="img" aria-label={ariaLabel}>
      <path d={line} class="kit-track-line" />
      {squares.map((sq, i) => {
        const [x, y] = squareXY(i, cols);
        return (
          <g key={i} class={`kit-sq ${sq.cls ?? ""}`} data-square={i}>
            <rect x={x} y={y} width={CELL} height={CELL} rx={8} />
            {sq.label != null && <text x={x + CELL / 2} y={y + 14} class="kit-sq-label">{sq.label}</text>}
          </g>
        );
      })}
      {[...bySquare.entries()].map(([at, ps]) => {
        const [x, y] = squareXY(at, cols);
        const offsets = pawnOffsets(ps.length);
        return ps.map((p, k) => {
          const px = x + CELL / 2 + offsets[k][0];
          const py = y + CELL / 2 + 8 + offsets[k][1];
          return (
            <g key={`p${p.seat}`} class={`kit-pawn ${p.cls ?? ""}`} data-testid="pawn" data-seat={p.seat} data-square={at} {...p.attrs}>
              {p.title && <title>{p.title}</title>}
              <circle cx={px} cy={py} r={8} fill={seatColor(p.seat)} />
              <circle cx={px} cy={py - 3} r={3} fill="rgba(255,255,255,.55)" />
            </g>
          );
        });
      })}
    </svg>
  );
}
