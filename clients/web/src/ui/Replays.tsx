import { useEffect, useState } from "preact/hooks";
import { member, request } from "../client";
import type * as wire from "../gen/plateau/v1/protocol";
import type { Plain } from "../proto";
import { gameUI } from "../games/registry";
import { href } from "../router";
import { gameInfo, useStore } from "../store";
import { Dot, Panel, Spinner, timeAgo } from "./common";

/** A private game is listed only to its players; `replay_token` is the key their links carry. */
export type ReplaySummary = Plain<wire.ReplaySummary>;

export function ReplayList() {
  const s = useStore();
  const [list, setList] = useState<ReplaySummary[] | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    request({ list_replays: { game: "", limit: 50 } })
      .then((r) => setList(member(r, "replay_list").replays))
      .catch((e) => setError((e as Error).message));
  }, [s.connection]);
  return (
    <div class="replays">
      <h1>Replays</h1>
      <p class="lede">Every finished public game, and the private ones you played, move by move, from any player's point of view.</p>
      {error && <p class="form-error">{error}</p>}
      {!list && !error && <Spinner label="Loading replays…" />}
      {list && list.length === 0 && <Panel><p class="muted">No finished games yet. Play one!</p></Panel>}
      {list && list.length > 0 && (
        <ul class="replay-list" data-testid="replay-list">
          {list.map((r) => {
            const winners = r.results.filter((x) => x.rank === 1);
            return (
              <li key={r.game_id} class="replay-item">
                <span class="emblem small">{gameUI(r.game)?.emblem ?? "🎲"}</span>
                <div class="replay-item-main">
                  <strong>{gameInfo(r.game)?.title ?? r.game}</strong>
                  {r.is_private && <span class="chip small" data-testid="replay-private" title="Only its players and whoever has its link can watch it"> 🔒 private</span>}
                  <span class="muted small"> · {timeAgo(r.finished_unix_ms)} · {r.steps} moves</span>
                  <div class="replay-players">
                    {[...r.results].sort((a, b) => a.rank - b.rank).map((p) => (
                      <span key={p.seat} class="chip"><Dot seat={p.seat} size={9} /> {p.name} <b>{p.score}</b></span>
                    ))}
                  </div>
                  {winners.length > 0 && <span class="small">🏆 {winners.map((w) => w.name).join(" & ")}</span>}
                </div>
                <a class="btn small primary" href={href({ page: "replay", gameId: r.game_id, step: 0, seat: -1, token: r.replay_token || undefined })}
                  data-testid="replay-open">Watch</a>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
