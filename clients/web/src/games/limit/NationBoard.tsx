// One nation's board: population and production tracks, standards of living, the disorder track,
// stocks and tokens, and the cards it has in play.
import { useState } from "preact/hooks";
import { seatColor } from "../../ui/common";
import { PlayerBadge } from "../../ui/PlayerBadge";
import { CardFace } from "./Cards";
import { useLastMove, withMark, type Mark } from "../../ui/LastMove";
import {
  CLASS_LETTERS, DISORDER_POSITIONS, Factory, Phase, SOCIAL_STEP_NAME, SocialStep, demographicIndex, disorderZone,
  playerName, populationValues, printedTrack,
} from "./model";
import type { BoardView, Nation, Stocks as StocksT } from "./model";

function TrackRow({ label, icon, values, rank, output, testid, extra, mark, top }: {
  label: string; icon: string; values: number[]; rank: number; output: number; testid: string;
  extra?: (i: number) => string; mark: Mark;
  /** The highest rank open (the engine's; the ranks above are covered), if the track has one. */
  top?: number;
}) {
  return (
    <div class={`lm-track${mark.cls}`} data-testid={testid} data-rank={rank} title={mark.text} {...mark.attrs}>
      <span class="lm-track-label"><span class="lm-ico">{icon}</span>{label}</span>
      <div class="lm-track-cells">
        {values.map((v, i) => {
          const r = i + 1;
          const tip = extra?.(i) ?? "";
          const covered = top != null && top > 0 && r > top;
          return (
            <span key={i} class={`lm-cell ${r === rank ? "on" : ""} ${r < rank ? "past" : ""} ${tip ? "fossil" : ""} ${covered ? "covered" : ""}`}
              data-covered={covered ? "" : undefined}
              title={`Rank ${r}: ${v}${tip ? ` — ${tip}` : ""}${covered ? " — covered: needs more territories" : ""}`}>
              {v}
            </span>
          );
        })}
      </div>
      <span class="lm-track-out" title="Current value">{output}</span>
    </div>
  );
}

export function ClassGrid({ classes, tiles, column }: { classes: number[]; tiles: boolean[]; column?: number }) {
  return (
    <div class="lm-classes" data-testid="classes">
      <div class="lm-classes-head"><span />{[1, 2, 3, 4].map((l) => <span key={l} class={column === l ? "col" : ""}>{l}</span>)}</div>
      {classes.map((lv, k) => (
        <div key={k} class="lm-class-row" data-testid={`class-${CLASS_LETTERS[k]}`} data-level={lv}>
          <span class="lm-class-letter">{CLASS_LETTERS[k]}</span>
          {[1, 2, 3, 4].map((l) => (
            <span key={l} class={`lm-class-cell ${l <= lv ? "filled" : ""} ${l === lv ? "marker" : ""}`}>
              {l === 3 && tiles[k] && l > lv && <span class="lm-tile" title="Demographic transition tile" />}
            </span>
          ))}
        </div>
      ))}
    </div>
  );
}

export function DisorderTrack({ value }: { value: number }) {
  return (
    <div class="lm-disorder" data-testid="disorder" data-value={value} data-zone={disorderZone(value)}>
      {Array.from({ length: DISORDER_POSITIONS }, (_, i) => (
        <span key={i} class={`lm-dis-cell ${disorderZone(i)} ${i === value ? "on" : ""}`} title={`${i}: ${disorderZone(i)}`}>{i}</span>
      ))}
      <div class="lm-dis-legend"><span class="boom">Boom</span><span class="progress">Progress</span><span class="revolt">Revolt</span></div>
    </div>
  );
}

function Stock({ icon, label, value, tone, testid, mark }: {
  icon: string; label: string; value: number | string; tone?: string; testid?: string; mark: Mark;
}) {
  return (
    <span class={`lm-stock ${tone ?? ""}${mark.cls}`} title={withMark(label, mark)} data-testid={testid} {...mark.attrs}>
      <span class="lm-ico">{icon}</span><b>{value}</b><small>{label}</small>
    </span>
  );
}

export function Stocks({ n }: { n: Nation }) {
  const s: Partial<StocksT> = n.stocks ?? {};
  const own = useNationMark(n.seat);
  return (
    <div class="lm-stocks" data-testid="stocks">
      <Stock icon="🌾" label="renewable" value={s.renewable ?? 0} tone="r" testid="stock-renewable" mark={own((q) => q.stocks?.renewable)} />
      <Stock icon="⚙️" label="industrial" value={s.industrial ?? 0} tone="i" testid="stock-industrial" mark={own((q) => q.stocks?.industrial)} />
      <Stock icon="🎖" label="military" value={s.military ?? 0} tone="m" testid="stock-military" mark={own((q) => q.stocks?.military)} />
      <Stock icon="🛢" label="fossil" value={s.fossil ?? 0} tone="f" testid="stock-fossil" mark={own((q) => q.stocks?.fossil)} />
      <Stock icon="💰" label="money $" value={n.money} tone="money" testid="money" mark={own((q) => q.money)} />
      <Stock icon="🏞" label="territories" value={n.territories} tone="t" testid="territories" mark={own((q) => q.territories)} />
      <Stock icon="☁️" label="pollution" value={n.pollution} tone="p" testid="pollution" mark={own((q) => q.pollution)} />
      <Stock icon="🔥" label="destabilisation" value={n.destabilisation} tone="d" testid="destabilisation" mark={own((q) => q.destabilisation)} />
    </div>
  );
}

/** The marker of one nation's parts: `own(read)` marks what `read` takes from that nation. */
function useNationMark(seat: number): (read: (n: Partial<Nation>) => unknown) => Mark {
  const mark = useLastMove<BoardView>();
  return (read) => mark((v) => read((v.nations ?? []).find((q) => q.seat === seat) ?? {}));
}

function AllianceTokens({ n }: { n: Nation }) {
  const tokens = [
    { kind: "military", icon: "⚔", group: n.military_alliance_group, accord: n.military_accord },
    { kind: "economic", icon: "💰", group: n.economic_alliance_group, accord: n.economic_accord },
  ].filter((t) => t.group > 0);
  if (!tokens.length) return null;
  return (
    <span class="lm-alliances">
      {tokens.map((t) => (
        <span key={t.kind} class={`lm-chip alliance ${t.accord ? "accord" : ""}`} data-testid={`alliance-${t.kind}`}
          title={t.accord ? "Accord side: this alliance changed this generation" : "Alliance token"}>
          🤝{t.icon} {t.kind} alliance #{t.group}{t.accord ? " · accord" : ""}
        </span>
      ))}
    </span>
  );
}

function NationHead({ n, view, names, you, acting, online }: {
  n: Nation; view: BoardView; names: string[]; you: boolean; acting: boolean; online?: boolean;
}) {
  return (
    <header class="lm-nation-head">
      <h3><PlayerBadge seat={n.seat} name={playerName(names, n.seat)} you={you} online={online} turn={acting} turnLabel="deciding…" size={16} /></h3>
      {view.leader === n.seat && <span class="lm-chip lead" title="Leadership tile: plays first">🎖 Leader</span>}
      {n.passed && view.phase === Phase.POLITICAL_DECISIONS && <span class="lm-chip">passed</span>}
      <AllianceTokens n={n} />
      <span class="lm-head-stats">
        <span title="Population">👥 {n.population}</span>
        <span title="Money">💰 {n.money} $</span>
        <span title="Cards in hand / hand limit">🂠 {n.hand_size}/{n.hand_limit}</span>
      </span>
    </header>
  );
}

function CardsInPlay({ n }: { n: Nation }) {
  const own = useNationMark(n.seat);
  const card = (list: "permanents" | "set_aside" | "played_this_generation", id: unknown) =>
    own((q) => (q[list] ?? []).find((c) => c.id === id));
  const perm = n.permanents ?? [];
  const played = n.played_this_generation ?? [];
  const aside = n.set_aside ?? [];
  return (
    <div class="lm-inplay">
      <div data-testid="permanents">
        <h5>Permanent cards in play</h5>
        {perm.length ? <div class="lm-card-row">{perm.map((c) => <CardFace key={c.id} card={c} compact testid="permanent-card" mark={card("permanents", c.id)} />)}</div>
          : <p class="muted small">None yet.</p>}
      </div>
      {played.length > 0 && (
        <div data-testid="played-cards">
          <h5>Played this generation</h5>
          <div class="lm-card-row">{played.map((c) => <CardFace key={c.id} card={c} compact testid="played-card" mark={card("played_this_generation", c.id)} />)}</div>
        </div>
      )}
      {aside.length > 0 && (
        <div data-testid="set-aside">
          <h5>Technologies not yet gained <small class="muted">(when class A reaches the level shown)</small></h5>
          <div class="lm-chips">{aside.map((c) => (
            <span key={c.id} class="lm-chip tech" title={c.effect_text} data-testid="tech-chip">
              🔬 {c.name_en || c.name}{c.tech_level ? ` · A ${c.tech_level}` : ""}
            </span>
          ))}</div>
        </div>
      )}
    </div>
  );
}

/** The full board of a nation. */
export function NationBoard({ n, view, names, you, acting, online }: {
  n: Nation; view: BoardView; names: string[]; you: boolean; acting: boolean; online?: boolean;
}) {
  const renewable = printedTrack(view, Factory.RENEWABLE);
  const industrial = printedTrack(view, Factory.INDUSTRIAL);
  const military = printedTrack(view, Factory.MILITARY);
  const demographic = demographicIndex(view);
  const fossilTip = (t: { fossil: number[]; pollution: number[] }) => (i: number) =>
    (t.fossil[i] ? `uses ${t.fossil[i]} fossil, gives ${t.pollution[i] ?? 0} pollution` : "");
  const step = n.social_step as number;
  const own = useNationMark(n.seat);
  const society = own((q) => [q.disorder, q.classes, q.transition_tile_on_row, q.social_column, q.transition_tokens]);
  return (
    <section class={`lm-nation full ${you ? "you" : ""} ${acting ? "acting" : ""}`} style={{ borderColor: seatColor(n.seat) }}
      data-testid={you ? "my-nation" : "nation-board"} data-seat={n.seat}>
      <NationHead n={n} view={view} names={names} you={you} acting={acting} online={online} />
      <div class="lm-nation-grid">
        <div class="lm-tracks">
          <TrackRow label="Population" icon="👥" values={populationValues(view)} rank={n.population_rank} output={n.population}
            testid="track-population" extra={(i) => (demographic[i] != null ? `demographic index ${demographic[i]}` : "")}
            mark={own((q) => [q.population_rank, q.population])} />
          <TrackRow label="Renewable" icon="🌾" values={renewable.value} rank={n.renewable_rank} output={n.renewable_output}
            top={n.renewable_max_rank}
            testid="track-renewable" mark={own((q) => [q.renewable_rank, q.renewable_output, q.renewable_max_rank])} />
          <TrackRow label="Industrial" icon="⚙️" values={industrial.value} rank={n.industrial_rank} output={n.industrial_output}
            testid="track-industrial" extra={fossilTip(industrial)} mark={own((q) => [q.industrial_rank, q.industrial_output])} />
          <TrackRow label="Military" icon="🎖" values={military.value} rank={n.military_rank} output={n.military_output}
            testid="track-military" extra={fossilTip(military)} mark={own((q) => [q.military_rank, q.military_output])} />
        </div>
        <div class={`lm-society${society.cls}`} title={society.text} {...society.attrs}>
          <h5>Social disorder</h5>
          <DisorderTrack value={n.disorder} />
          <h5>Standard of living <small class="muted">{n.social_column ? `· column ${n.social_column}` : ""}</small></h5>
          <ClassGrid classes={n.classes ?? []} tiles={n.transition_tile_on_row ?? []} column={n.social_column} />
          <p class="muted small lm-transition" title="Demographic transition zone">
            Transition zone: <b>{n.transition_tokens}</b> tile{n.transition_tokens === 1 ? "" : "s"}
            {step > 0 && step < SocialStep.DONE && view.phase === Phase.SOCIAL && <> · next step: <b>{SOCIAL_STEP_NAME[step]}</b></>}
          </p>
        </div>
      </div>
      <Stocks n={n} />
      <CardsInPlay n={n} />
    </section>
  );
}

/** Another nation, compact; click to open the full board. */
export function NationSummary({ n, view, names, acting, online }: { n: Nation; view: BoardView; names: string[]; acting: boolean; online?: boolean }) {
  const [open, setOpen] = useState(false);
  const mark = useLastMove<BoardView>();
  if (open) {
    return (
      <div class="lm-nation-wrap">
        <NationBoard n={n} view={view} names={names} you={false} acting={acting} online={online} />
        <button type="button" class="btn small ghost lm-collapse" onClick={() => setOpen(false)} data-testid="nation-collapse">▲ Fold</button>
      </div>
    );
  }
  const s: Partial<StocksT> = n.stocks ?? {};
  // What the compact board shows, not the whole nation: a change it does not show is no mark.
  const m = mark((v) => {
    const q: Partial<Nation> = (v.nations ?? []).find((x) => x.seat === n.seat) ?? {};
    return [q.population, q.population_rank, q.renewable_output, q.industrial_output, q.military_output, q.classes,
      q.disorder, q.stocks, q.territories, q.pollution, q.destabilisation, q.permanents, q.money, q.hand_size,
      q.hand_limit, q.passed, q.military_alliance_group, q.economic_alliance_group, q.military_accord, q.economic_accord];
  });
  return (
    <section class={`lm-nation compact ${acting ? "acting" : ""}${m.cls}`} style={{ borderColor: seatColor(n.seat) }}
      data-testid="nation-summary" data-seat={n.seat} title={m.text} {...m.attrs}>
      <NationHead n={n} view={view} names={names} you={false} acting={acting} online={online} />
      <div class="lm-summary-grid">
        <span title="Population rank">👥 {n.population} <small>(rank {n.population_rank})</small></span>
        <span title="Renewable / industrial / military factory values">🏭 {n.renewable_output}/{n.industrial_output}/{n.military_output}</span>
        <span title="Standards of living A–E">📶 {(n.classes ?? []).join("·")}</span>
        <span title="Social disorder" class={`lm-dis-chip ${disorderZone(n.disorder)}`}>⚖ {n.disorder}</span>
        <span title="Stocks R/I/M/F">📦 {s.renewable ?? 0}/{s.industrial ?? 0}/{s.military ?? 0}/{s.fossil ?? 0}</span>
        <span title="Territories">🏞 {n.territories}</span>
        <span title="Pollution / destabilisation">☁️ {n.pollution} · 🔥 {n.destabilisation}</span>
        <span title="Permanent cards">🃏 {(n.permanents ?? []).map((c) => c.name_en || c.name).join(", ") || "no permanent card"}</span>
      </div>
      <button type="button" class="btn small ghost" onClick={() => setOpen(true)} data-testid="nation-expand">▼ Full board</button>
    </section>
  );
}
