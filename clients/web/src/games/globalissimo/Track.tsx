// The score track: a winding path of squares from the start, pawns in the players' colours,
// barrier squares in orange (capital question) and violet (map question).
import { seatColor } from "../../ui/common";
import { Barrier, type Player, type TrackSquareView, type View } from "./model";
import { useLastMove } from "../../ui/LastMove";

const COLS = 12;
const CELL = 46;
const GAP = 8;

function cellXY(i: number): [number, number] {
  const row = Math.floor(i / COLS);
  const col = i % COLS;
  const x = row % 2 === 0 ? col : COLS - 1 - col;
  return [x * (CELL + GAP) + GAP, row * (CELL + GAP) + GAP];
}

export function Track({ track, players, names }: { track: TrackSquareView[]; players: Player[]; names: string[] }) {
  const mark = useLastMove<View>();
  const n = track.length;
  const rows = Math.max(1, Math.ceil(n / COLS));
  const w = COLS * (CELL + GAP) + GAP;
  const h = rows * (CELL + GAP) + GAP;
  const centers = track.map((_, i) => {
    const [x, y] = cellXY(i);
    return [x + CELL / 2, y + CELL / 2];
  });
  const line = centers.map(([x, y], i) => `${i ? "L" : "M"}${x},${y}`).join(" ");
  const byCell = new Map<number, Player[]>();
  for (const p of players) {
    const list = byCell.get(p.square) ?? [];
    list.push(p);
    byCell.set(p.square, list);
  }
  return (
    <svg class="gl-track" viewBox={`0 0 ${w} ${h}`} data-testid="score-track" role="img" aria-label="Score track">
      <path d={line} class="gl-track-line" />
      {track.map((sq, i) => {
        const [x, y] = cellXY(i);
        const barrier: number = sq.barrier;
        const cls = barrier === Barrier.ORANGE ? "orange" : barrier === Barrier.VIOLET ? "violet" : "score";
        const taken = barrier !== Barrier.NONE && !sq.barrier_present;
        return (
          <g key={i} class={`gl-sq ${cls} ${taken ? "taken" : ""} ${i === 0 ? "start" : ""}`}>
            <rect x={x} y={y} width={CELL} height={CELL} rx={8} />
            {i === 0 ? (
              <text x={x + CELL / 2} y={y + CELL / 2 + 4} class="gl-sq-label">START</text>
            ) : barrier === Barrier.NONE ? (
              <text x={x + CELL / 2} y={y + 13} class="gl-sq-num">{sq.distance}</text>
            ) : (
              <text x={x + CELL / 2} y={y + 14} class="gl-sq-num">{taken ? "" : barrier === Barrier.ORANGE ? "🏛" : "📍"}</text>
            )}
          </g>
        );
      })}
      {[...byCell.entries()].map(([cell, ps]) => {
        const [x, y] = cellXY(cell);
        return ps.map((p, k) => {
          const cols = Math.min(ps.length, 3);
          const px = x + CELL / 2 + (k % cols - (cols - 1) / 2) * 12;
          const py = y + CELL / 2 + 8 + (Math.floor(k / 3) - (Math.ceil(ps.length / 3) - 1) / 2) * 12;
          const m = mark((v) => v.players.find((q) => q.seat === p.seat)?.square);
          return (
            <g key={`p${p.seat}`} class={`gl-pawn${m.cls}`} data-seat={p.seat} {...m.attrs}>
              <title>{`${names[p.seat] ?? "Seat " + (p.seat + 1)}: ${p.distance} points${m.text ? ` — ${m.text}` : ""}`}</title>
              <circle cx={px} cy={py} r={8} fill={seatColor(p.seat)} />
              <circle cx={px} cy={py - 3} r={3} fill="rgba(255,255,255,.55)" />
            </g>
          );
        });
      })}
    </svg>
  );
}
