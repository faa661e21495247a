// The final score sheet, one column per nation, one line per scoring category.
import { Dot } from "../../ui/common";
import { SCORE_ROWS, playerName, scoreRanks, scoreValue, signed } from "./model";
import type { BoardView } from "./model";

export function ScoreSheet({ view, names, seat }: { view: BoardView; names: string[]; seat: number }) {
  const lines = [...(view.scores ?? [])].sort((a, b) => a.seat - b.seat);
  if (!lines.length) return null;
  const ranks = scoreRanks(lines);
  return (
    <section class="lm-scores" data-testid="score-sheet">
      <h3>📜 Score sheet</h3>
      <div class="lm-score-scroll">
        <table>
          <thead>
            <tr>
              <th />
              {lines.map((l, i) => (
                <th key={l.seat} class={`${l.seat === seat ? "you" : ""} ${ranks[i] === 1 ? "best" : ""}`} data-testid="score-nation" data-seat={l.seat}>
                  <Dot seat={l.seat} size={12} /> {playerName(names, l.seat)}{ranks[i] === 1 && lines.length > 1 ? " 🏆" : ""}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {SCORE_ROWS.map((r) => (
              <tr key={r.key} class={r.key === "total" ? "total" : ""} data-testid={`score-row-${r.key}`}>
                <th scope="row">{r.label}{r.hint && <small>{r.hint}</small>}</th>
                {lines.map((l) => {
                  const v = scoreValue(l, r.key);
                  return (
                    <td key={l.seat} data-seat={l.seat} data-value={v}>
                      <b>{r.key === "impact" ? signed(v) : v}</b>
                      {r.key === "gross_happiness" && <small>({l.living_sum} × {l.demographic_index})</small>}
                      {r.key === "financial" && <small>{l.money_value > 0 ? `${l.money_value} per 10 $` : "money is worthless"}</small>}
                      {r.key === "impact" && <small>{signed(l.pollution_penalty)} P · {signed(l.destabilisation_penalty)} D</small>}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {view.solo && (
        <p class={`lm-solo-verdict ${view.solo_won ? "won" : "lost"}`} data-testid="solo-verdict" data-won={view.solo_won ? "true" : "false"}>
          {view.solo_won ? `⭐ ${lines[0].total} VP, over the ${view.solo_target} VP mark: your nation beats the star nation.`
            : `★ The star nation wins: ${lines[0].total} VP, and it takes over ${view.solo_target} VP to beat it — try again?`}
        </p>
      )}
    </section>
  );
}
