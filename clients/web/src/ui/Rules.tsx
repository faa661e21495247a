// How to play a game: its player-facing rules page (#/rules/<game>), reachable from the lobby and
// from its tables.
import { gameUI } from "../games/registry";
import { gameInfo, useStore } from "../store";
import { Panel, Spinner } from "./common";

export function RulesPage({ game }: { game: string }) {
  const s = useStore();
  const ui = gameUI(game);
  const info = gameInfo(game);
  if (!ui?.howToPlay) {
    if (s.games.length === 0) return <Spinner label="Loading games…" />;
    return (
      <Panel title="How to play" class="narrow">
        <p class="form-error" data-testid="rules-missing">This client has no rules page for “{game}”.</p>
        <a class="btn ghost" href="#/">Back to the lobby</a>
      </Panel>
    );
  }
  const h = ui.howToPlay;
  return (
    <article class="rules-page" data-testid="rules-page" data-game={game}>
      <header class="rules-head">
        <span class="emblem" aria-hidden="true">{ui.emblem}</span>
        <div>
          <h1>How to play {info?.title ?? game}</h1>
          <p class="lede">{h.summary}</p>
        </div>
      </header>
      {h.sections.map((sec) => (
        <section key={sec.heading} class="rules-section">
          <h2>{sec.heading}</h2>
          {sec.paragraphs.map((p, i) => <p key={i}>{p}</p>)}
          {sec.list && <ul>{sec.list.map((li, i) => <li key={i}>{li}</li>)}</ul>}
        </section>
      ))}
      <p class="row-actions"><a class="btn ghost" href="#/">Back to the lobby</a></p>
    </article>
  );
}
