// The score track on the kit's track: start, score squares and the barrier squares in orange
// (capital question) and violet (map question), faded once crossed; pawns marked when another
// seat's move moved them.
import { Track as KitTrack, type TrackSquare } from "../../ui/kit/Track";
import { Barrier, type Player, type TrackSquareView, type View } from "./model";
import { useLastMove } from "../../ui/LastMove";

/** How the board draws square `i` of the track. */
export function squareLook(sq: TrackSquareView, i: number): TrackSquare {
  const barrier: number = sq.barrier;
  const kind = barrier === Barrier.ORANGE ? "orange" : barrier === Barrier.VIOLET ? "violet" : "score";
  const taken = barrier !== Barrier.NONE && !sq.barrier_present;
  const label = i === 0 ? "START" : barrier === Barrier.NONE ? String(sq.distance)
    : taken ? "" : barrier === Barrier.ORANGE ? "🏛" : "📍";
  return { cls: `gl-sq ${kind}${taken ? " taken" : ""}${i === 0 ? " start" : ""}`, label };
}

export function Track({ track, players, names }: { track: TrackSquareView[]; players: Player[]; names: string[] }) {
  const mark = useLastMove<View>();
  return (
    <KitTrack class="gl-track" squares={track.map(squareLook)}
      pawns={players.map((p) => {
        const m = mark((v) => v.players.find((q) => q.seat === p.seat)?.square);
        return {
          seat: p.seat, at: p.square, cls: `gl-pawn${m.cls}`, attrs: m.attrs,
          title: `${names[p.seat] ?? "Seat " + (p.seat + 1)}: ${p.distance} points${m.text ? ` — ${m.text}` : ""}`,
        };
      })} />
  );
}
