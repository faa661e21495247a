// The shared table: generation tiles, phase, crises, reserves, the market board and the star nation.
import { useLastMove, withMark } from "../../ui/LastMove";
import {
  CRISES_TO_END, CRISIS_ICON, CRISIS_NAME, GENERATION_YEARS, GENERATIONS, PHASE_NAME, Phase, RESOURCE_LETTER, RESOURCE_NAME,
} from "./model";
import type { BoardView, StarNation } from "./model";

const STEPS: { phase: number; label: string }[] = [
  { phase: Phase.NEW_POLICY, label: "New policy" },
  { phase: Phase.HAND_LIMIT, label: "Hand limit" },
  { phase: Phase.POLITICAL_DECISIONS, label: "Political decisions" },
  { phase: Phase.SOCIAL, label: "Social" },
  { phase: Phase.INTERNATIONAL, label: "International" },
];

export function GenerationBar({ view }: { view: BoardView }) {
  const g = view.generation as number;
  const over = view.phase === Phase.GAME_OVER;
  const steps = [...STEPS];
  if (view.solo) steps.push({ phase: -1, label: "Event" });
  else if (view.alliances) steps.push({ phase: Phase.ALLIANCE, label: "Alliances" });
  return (
    <div class="lm-genbar" data-testid="generation-bar" data-generation={g} data-phase={view.phase}>
      <div class="lm-gens" title="Generation tiles">
        {Array.from({ length: GENERATIONS }, (_, i) => (
          <span key={i} class={`lm-gen ${i + 1 === g && !over ? "on" : ""} ${i + 1 < g || over ? "done" : ""}`}>
            <b>{i + 1}</b><small>{GENERATION_YEARS[i]}</small>
          </span>
        ))}
      </div>
      <div class="lm-phase" data-testid="phase">
        <span class="lm-kicker">Generation {Math.min(g, GENERATIONS)} · {GENERATION_YEARS[Math.min(g, GENERATIONS) - 1] ?? ""}</span>
        <b>{PHASE_NAME[view.phase] ?? ""}</b>
        {!over && view.phase !== Phase.RESILIENCE && (
          <ol class="lm-steps">
            {steps.map((s) => (
              <li key={s.label} class={s.phase === view.phase ? "on" : (s.phase > 0 && s.phase < view.phase) ? "done" : ""}>{s.label}</li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}

export function Crises({ view }: { view: BoardView }) {
  const mark = useLastMove<BoardView>();
  const crises = view.crises ?? [];
  return (
    <div class="lm-crises" data-testid="crises" data-count={crises.length}>
      <span class="lm-kicker">Crises: {crises.length} · the game ends once {CRISES_TO_END} have happened</span>
      <div class="lm-crisis-row">
        {Array.from({ length: Math.max(CRISES_TO_END, crises.length) }, (_, i) => {
          const c = crises[i];
          const m = mark((v) => v.crises?.[i]);
          return c ? (
            <span key={i} class={`lm-crisis k${c.kind}${m.cls}`} title={withMark(`${CRISIS_NAME[c.kind]} crisis in generation ${c.generation}`, m)} {...m.attrs}>
              {CRISIS_ICON[c.kind]} <b>{CRISIS_NAME[c.kind]}</b><small>gen. {c.generation}</small>
            </span>
          ) : <span key={i} class="lm-crisis empty">—</span>;
        })}
      </div>
    </div>
  );
}

export function Reserves({ view }: { view: BoardView }) {
  const mark = useLastMove<BoardView>();
  const bank = mark((v) => v.world_bank), pollution = mark((v) => v.pollution_reserve);
  const destab = mark((v) => v.destabilisation_reserve), colonies = mark((v) => [v.colonisation_territories, v.colonisation_fossil]);
  return (
    <div class="lm-reserves" data-testid="reserves">
      <span class={`lm-res${bank.cls}`} title={withMark("World Bank", bank)} {...bank.attrs}><span>🏦</span><b data-testid="world-bank">{view.world_bank}</b><small>World Bank $</small></span>
      <span class={`lm-res ${view.pollution_reserve === 0 ? "empty" : ""}${pollution.cls}`} title={withMark("Pollution reserve: empty → ecological crisis", pollution)} {...pollution.attrs}>
        <span>☁️</span><b>{view.pollution_reserve}</b><small>pollution reserve</small></span>
      <span class={`lm-res ${view.destabilisation_reserve === 0 ? "empty" : ""}${destab.cls}`} title={withMark("Destabilisation reserve: empty → military crisis", destab)} {...destab.attrs}>
        <span>🔥</span><b>{view.destabilisation_reserve}</b><small>destab. reserve</small></span>
      <span class={`lm-res${colonies.cls}`} title={withMark("Colonisation reserve", colonies)} {...colonies.attrs}><span>🗺</span><b>{view.colonisation_territories} T · {view.colonisation_fossil} F</b><small>colonisation</small></span>
      {view.excess_pollution > 0 && <span class="lm-res warn" title="Pollution tokens taken from the LIMIT box"><span>⚠️</span><b>{view.excess_pollution}</b><small>excess pollution</small></span>}
      {view.demilitarised && <span class="lm-res"><span>🕊</span><b>yes</b><small>demilitarised</small></span>}
    </div>
  );
}

export function MarketBoard({ view }: { view: BoardView }) {
  const mark = useLastMove<BoardView>();
  const tracks = view.market?.tracks ?? [];
  return (
    <section class="lm-market" data-testid="market">
      <h4>Market <small class="muted">— one transaction moves the price one step; selling is closed at the first position</small></h4>
      {tracks.map((t) => {
        const m = mark((v) => (v.market?.tracks ?? []).find((x) => x.resource === t.resource));
        return (
        <div key={t.resource} class={`lm-price r${t.resource}${m.cls}`} data-testid={`price-${RESOURCE_NAME[t.resource]}`} data-position={t.position}
          title={m.text} {...m.attrs}>
          <span class="lm-price-label"><b>{RESOURCE_LETTER[t.resource]}</b> {RESOURCE_NAME[t.resource]}</span>
          <div class="lm-price-cells">
            {(t.prices ?? []).map((p: number, i: number) => (
              <span key={i} class={`lm-pcell ${i === t.position ? "on" : ""}`} title={`${p} $ per unit`}>{p}</span>
            ))}
          </div>
          <span class="lm-price-now" title="Current price and market stock"><b>{t.prices?.[t.position]} $</b><small>stock {t.market_stock}</small></span>
        </div>
        );
      })}
    </section>
  );
}

export function StarNation({ view }: { view: BoardView }) {
  const s: Partial<StarNation> = view.star ?? {};
  return (
    <section class="lm-star" data-testid="star-nation">
      <h4>⭐ The star nation <small>generation {view.generation} values</small></h4>
      <div class="lm-star-grid">
        <span title="Population value"><b>{s.population}</b><small>population</small></span>
        <span title="Standard of living"><b>{s.standard_of_living}</b><small>standard of living</small></span>
        <span title="Industrial value"><b>{s.industrial}</b><small>industrial</small></span>
        <span title="Military value: it resists a war card when this covers the military committed"><b>{s.military}</b><small>military</small></span>
        <span><b>{s.territories}</b><small>territories</small></span>
        <span><b>{s.fossil}</b><small>fossil</small></span>
        <span><b>{s.money} $</b><small>money</small></span>
        <span><b>{s.pollution}</b><small>pollution</small></span>
        <span><b>{s.destabilisation}</b><small>destab.</small></span>
      </div>
      <p class="lm-event" data-testid="last-event">
        <span class="lm-kicker">Event deck · {view.event_deck_size} left</span>
        {view.last_event ? <>🃏 {view.last_event}</> : <span class="muted">No event drawn yet: one is drawn at the end of each generation.</span>}
      </p>
    </section>
  );
}
