// Contrôle Global's board: the world, the globalisation table, civil society, the piles, every player's organisation and the viewer's hand, with exactly the moves the engine publishes for the viewer (kit/moves.ts, through the kit's picker and clicks on the map and the hand).
import { useEffect } from "preact/hooks";
import type { BoardProps } from "../types";
import { currentPrompt, int64String, tableOf, type LogEntry, type Target } from "../../table";
import { GameLog } from "../../ui/GameLog";
import { useLastMove, withMark } from "../../ui/LastMove";
import { PlayerBadge } from "../../ui/PlayerBadge";
import { scrollToAction } from "../../ui/phone";
import { ActionError, useSubmit } from "../../ui/submit";
import { Txt, useTextScope } from "../../ui/TextRender";
import { seatColor } from "../../ui/common";
import { Hand } from "../../ui/kit/Hand";
import { MovePicker, useMovePick } from "../../ui/kit/MovePicker";
import { moveRoots, moveTargets, type MoveChoice } from "../../ui/kit/moves";
import { CardBack, CardFace } from "./Cards";
import { Resources, World } from "./World";
import {
  CATEGORIES, CATEGORY_SLUG, EndRule, PHASE_NAME, Phase, bannerFor, cardOf, categoryWord, civilReaction, cubeTotal, factionOf, pileAt,
  pileWord, playerName, powerWords, regionName, resourceWord, revealedCard, roman, runningWords, thresholdsFor, type CivilLineKind, type SeatView,
  type StaticData, type View,
} from "./model";

const NO_MOVES: readonly MoveChoice[] = Object.freeze([]);

type Data = StaticData | undefined;

// ----- globalisation, civil society, piles -----

function Globalisation({ view, data, names }: { view: View; data: Data; names: string[] }) {
  const scope = useTextScope();
  const mark = useLastMove<View>();
  const thresholds = thresholdsFor(data, (view.seats ?? []).length);
  return (
    <section class="cg-glob" data-testid="globalisation">
      <h3>Globalisation</h3>
      <table>
        <thead><tr><th>Category</th><th title="Cubes in the world">World</th><th>Level</th><th>Order (live level)</th></tr></thead>
        <tbody>
          {(view.categories ?? []).map((c) => {
            const slug = CATEGORY_SLUG[c.category] ?? "none";
            const next = thresholds[c.world_level];
            const m = mark((v) => v.categories?.find((x) => x.category === c.category));
            return (
              <tr key={c.category} class={`c-${slug}${c.red ? " red" : ""}${m.cls}`} data-testid="category-row" data-category={slug}
                data-world-level={c.world_level} data-red={c.red ? "true" : "false"} title={withMark(undefined, m)} {...m.attrs}>
                <th>
                  <span class={`cg-token ${c.red ? "red" : ""}`} title={c.red ? "Rose this round: civil society stirs" : "Quiet this round"} />
                  {categoryWord(scope, c.category)}
                </th>
                <td data-testid="world-total">{c.world_total}{next != null && <small class="cg-muted"> / {next}</small>}</td>
                <td class="cg-level" data-testid="world-level" title={`Highest this round: ${roman(c.highest_this_round)}`}>{roman(c.world_level)}</td>
                <td>
                  <ol class="cg-order" data-testid="order">
                    {(c.order ?? []).map((seat) => (
                      <li key={seat} data-seat={seat} data-level={c.live_levels?.[seat] ?? 0} style={{ borderColor: seatColor(seat) }}
                        title={`${playerName(names, seat)}: live level ${roman(c.live_levels?.[seat] ?? 0)}, noted ${roman(view.seats?.[seat]?.noted_levels?.[CATEGORIES.indexOf(c.category)] ?? 0)}`}>
                        <span class="cg-dot" style={{ background: seatColor(seat) }} />{roman(c.live_levels?.[seat] ?? 0)}
                      </li>
                    ))}
                  </ol>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {thresholds.length > 0 && (
        <p class="cg-small">World levels at {(view.seats ?? []).length} players: {thresholds.map((t, i) => `${roman(i + 1)} from ${t}`).join(", ")}.</p>
      )}
    </section>
  );
}

/** A line of the reaction: the reveals stand out, the steps under them are indented. */
function CivilLine({ entry, kind }: { entry: LogEntry; kind: CivilLineKind }) {
  return <li class={`cg-civil-line ${kind}`} data-testid="civil-line" data-kind={kind} data-seq={int64String(entry.seq)}><Txt text={entry.text} /></li>;
}

function CivilSociety({ view, data }: { view: View; data: Data }) {
  const scope = useTextScope();
  const cards = view.civil_piles ?? [];
  const resolving = view.phase === Phase.CIVIL;
  const reaction = civilReaction(tableOf(view).log, resolving);
  // While it resolves the face-down cards have left the area: the log counts them.
  const waiting = resolving && reaction ? Math.max(0, reaction.cards - reaction.revealed) : cards.length;
  const striking = resolving && reaction ? revealedCard(data, [...reaction.lines].reverse().find((l) => l.kind === "reveals")?.entry) : undefined;
  const red = (view.categories ?? []).filter((c) => c.red);
  return (
    <section class={`cg-civil ${resolving ? "resolving" : ""}`} data-testid="civil-area" data-count={cards.length} data-waiting={waiting}
      data-resolving={resolving ? "true" : "false"}>
      <h3>Civil society</h3>
      {resolving ? (
        <p class="cg-civil-now" data-testid="civil-status">
          Civil society reacts{reaction && reaction.cards > 0 ? <> — card <b>{reaction.revealed}</b> of <b>{reaction.cards}</b></> : null}
          {waiting > 0 ? `; ${waiting === 1 ? "one card still waits" : `${waiting} cards still wait`} face down.` : "."}
        </p>
      ) : cards.length === 0 ? <p class="cg-muted">No card waits face down.</p> : (
        <p data-testid="civil-status">
          <b>{cards.length === 1 ? "One card waits" : `${cards.length} cards wait`}</b> face down, revealed one by one once every player has drawn:
        </p>
      )}
      <div class="cg-row">{cards.map((p, i) => <CardBack key={i} pile={pileAt(data, p)} />)}</div>
      {striking && <div class="cg-civil-card"><CardFace id={striking.id} data={data} civil /></div>}
      {reaction && (
        <details class="cg-civil-log" data-testid="civil-log" data-done={reaction.done ? "true" : "false"} open={resolving || reaction.roundsSince <= 1}>
          <summary>{resolving ? "Step by step, as it resolves" : reaction.roundsSince <= 1 ? "Its reaction at the end of the last round" : "Its last reaction"}</summary>
          {reaction.cut && <p class="cg-small">Its first lines have left the log.</p>}
          <ol class="cg-civil-lines">
            {reaction.lines.map((l) => <CivilLine key={int64String(l.entry.seq)} {...l} />)}
          </ol>
        </details>
      )}
      <p class="cg-small">
        {red.length === 0 ? "Every token is grey this round." : `Red tokens: ${red.map((c) => categoryWord(scope, c.category)).join(", ")}.`}
      </p>
    </section>
  );
}

function Piles({ view, data }: { view: View; data: Data }) {
  const scope = useTextScope();
  return (
    <details class="cg-piles" data-testid="piles">
      <summary>Piles and discards</summary>
      <ul>
        {(view.piles ?? []).map((p, i) => {
          const pile = pileAt(data, i);
          const top = p.discard?.length ? cardOf(data, p.discard[p.discard.length - 1]) : undefined;
          return (
            <li key={i} data-testid="pile" data-pile={pile?.id ?? i} data-size={p.size} data-discard={p.discard?.length ?? 0}
              class={`c-${pile ? CATEGORY_SLUG[pile.category] : "none"}`}>
              <b>{pileWord(scope, pile)}</b>: {p.size} face down, {p.discard?.length ?? 0} discarded{top ? ` (top: ${top.name})` : ""}
            </li>
          );
        })}
      </ul>
    </details>
  );
}

// ----- the players -----

function PlayerPanel({ s, seat, view, data, names, me, acting, connected, over }: {
  s: SeatView; seat: number; view: View; data: Data; names: string[]; me: boolean; acting: readonly number[]; connected?: boolean[]; over: boolean;
}) {
  const scope = useTextScope();
  const mark = useLastMove<View>();
  const res = mark((v) => v.seats?.[seat]?.resources), vp = mark((v) => [v.seats?.[seat]?.level_vp, v.seats?.[seat]?.region_vp]);
  const f = factionOf(data, s.faction);
  const turn = !over && (acting.includes(seat) || view.to_act === seat);
  const place = (view.turn_order ?? []).indexOf(seat);
  return (
    <article class={`cg-player ${me ? "mine" : ""} ${turn ? "acting" : ""}`} data-testid={`player-${seat}`} data-seat={seat} style={{ "--seat": seatColor(seat) }}>
      <header>
        <PlayerBadge seat={seat} name={playerName(names, seat)} you={me} online={connected?.[seat]} turn={turn}
          turnLabel={view.drawing_seat === seat && view.to_act !== seat ? "drawing" : "to act"} />
        {place >= 0 && <span class="cg-small" title="Place in this round's turn order">#{place + 1}</span>}
        <span class={`cg-vp${vp.cls}`} data-testid={`vp-${seat}`} data-vp={s.level_vp + s.region_vp} title={withMark("VP from levels (and regions at the end)", vp)} {...vp.attrs}>
          <b>{s.level_vp + (over ? s.region_vp : 0)}</b> VP
        </span>
      </header>
      <p class="cg-faction" data-testid={`faction-${seat}`} data-faction={f?.id ?? ""}>
        {f ? <><b>{f.name}</b> — {f.categories.map((c) => categoryWord(scope, c)).join(" & ")}. <i>{f.power?.name}</i>: {powerWords(f, scope)}.</>
          : <span class="cg-muted">No faction yet.</span>}
      </p>
      <div class={`cg-row${res.cls}`} title={res.text} {...res.attrs}>
        <Resources amounts={s.resources ?? []} testid={`resources-${seat}`} />
      </div>
      <div class="cg-noted" data-testid={`noted-${seat}`} title="Levels noted at the last round's end: what cards and investments check">
        {CATEGORIES.map((c, k) => (
          <span key={c} class={`cg-noted-one c-${CATEGORY_SLUG[c]}`} data-category={CATEGORY_SLUG[c]} data-level={s.noted_levels?.[k] ?? 0}>
            {categoryWord(scope, c).slice(0, 3)} {roman(s.noted_levels?.[k] ?? 0)}
          </span>
        ))}
      </div>
      <div class="cg-row" data-testid={`hand-size-${seat}`} data-count={s.cards_in_hand}>
        <span class="cg-small">{s.cards_in_hand} {s.cards_in_hand === 1 ? "card" : "cards"} in hand</span>
        {!me && (s.hand_piles ?? []).map((p, i) => <CardBack key={i} pile={pileAt(data, p)} />)}
      </div>
      {over && (s.hand ?? []).length > 0 && !me && (
        <p class="cg-small">Held at the end: {(s.hand ?? []).map((id) => cardOf(data, id)?.name ?? id).join(", ")}</p>
      )}
    </article>
  );
}

/** Every faction as the static data gives it: open while factions are picked, folded after. */
function Factions({ view, data, names }: { view: View; data: Data; names: string[] }) {
  const scope = useTextScope();
  const taken = new Map((view.seats ?? []).map((s, seat) => [s.faction, seat]));
  return (
    <details class="cg-factions" data-testid="factions" open={view.phase === Phase.FACTIONS}>
      <summary>The factions</summary>
      <ul>
        {(data?.factions ?? []).map((f, i) => (
          <li key={f.id} data-testid="faction" data-faction={f.id} data-taken={taken.has(i) ? "true" : "false"}>
            <b>{f.name}</b>{taken.has(i) && <> (led by {playerName(names, taken.get(i)!)})</>}: {f.categories.map((c) => categoryWord(scope, c)).join(" & ")};
            starts with {(f.resources ?? []).map((r) => `${r.amount} ${resourceWord(scope, r.resource)}`).join(", ")}.
            <i> {f.power?.name}</i>: {powerWords(f, scope)}.
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * Each region's pool (its development) and every player's cubes there as the game ended, then each
 * player's region VP. The view gives region VP per player in all, not region by region, so the
 * split itself is told in words, not per cell.
 */
function RegionScores({ view, data, names }: { view: View; data: Data; names: string[] }) {
  const seats = (view.seats ?? []).map((_, seat) => seat);
  return (
    <div class="cg-final-regions">
      <h4>Region by region</h4>
      <table data-testid="final-regions">
        <thead>
          <tr>
            <th>Region</th><th title="Development: the VP the region shares">Pool</th>
            {seats.map((seat) => (
              <th key={seat} class="cg-final-seat" title={playerName(names, seat)}><span class="cg-dot" style={{ background: seatColor(seat) }} />
                <span class="cg-seat-full"> {playerName(names, seat)}</span><span class="cg-seat-initial"> {playerName(names, seat).charAt(0)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {(view.regions ?? []).map((r, i) => {
            const counts = seats.map((seat) => cubeTotal(r.cubes?.[seat]));
            const most = Math.max(0, ...counts), all = counts.reduce((a, b) => a + b, 0);
            return (
              <tr key={i} data-testid="final-region" data-region={i} data-pool={r.development} data-cubes={all}>
                <th>{regionName(data, r, i)}</th>
                <td class="cg-final-pool">◆ {r.development}</td>
                {counts.map((n, seat) => (
                  <td key={seat} class={n > 0 && n === most && all > r.development ? "most" : ""} data-testid="final-cubes" data-seat={seat} data-count={n}>
                    {n || ""}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <th colSpan={2}>Region VP</th>
            {seats.map((seat) => (
              <td key={seat} data-testid="final-region-vp" data-seat={seat} data-vp={view.seats[seat].region_vp}><b>{view.seats[seat].region_vp}</b></td>
            ))}
          </tr>
        </tfoot>
      </table>
      <p class="cg-small">
        Each region shares its development in VP among the cubes there (all categories). If they are no more than the pool, each
        cube takes one VP. Otherwise the most cubes (in bold) take VP one by one down to the next count, then those tied take them
        together, and so on; what cannot be split among the tied is lost.
      </p>
    </div>
  );
}

function FinalScore({ view, data, names }: { view: View; data: Data; names: string[] }) {
  const rows = (view.seats ?? []).map((s, seat) => ({ seat, levels: s.level_vp, regions: s.region_vp, total: s.level_vp + s.region_vp }))
    .sort((a, b) => b.total - a.total || b.regions - a.regions || a.seat - b.seat);
  return (
    <section class="cg-final" data-testid="final-score">
      <h3>Final score</h3>
      <table>
        <thead><tr><th>Player</th><th>Levels</th><th>Regions</th><th>Total</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.seat} data-seat={r.seat} data-total={r.total}>
              <th><span class="cg-dot" style={{ background: seatColor(r.seat) }} /> {playerName(names, r.seat)}</th>
              <td>{r.levels}</td><td>{r.regions}</td><td><b>{r.total}</b></td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="cg-small">Ties go to region VP. The log below says who wins.</p>
      <RegionScores view={view} data={data} names={names} />
    </section>
  );
}

// ----- the board -----

export function Board({ view, seat, names, acting, gameOver, readOnly, submit, actionType, connected, gameData }: BoardProps<View, StaticData>) {
  const data = gameData;
  const scope = useTextScope();
  const handle = useSubmit(submit, view);
  const phase = view.phase;
  const over = gameOver || phase === Phase.GAME_OVER;
  const me = seat >= 0 ? view.seats?.[seat] : undefined;
  const canPlay = !readOnly && !!submit && !!actionType && !!me && !over;
  const asked = canPlay && !!currentPrompt(tableOf(view), seat);
  // What the viewer may do is what its view publishes: nothing for a spectator or a replay.
  const roots = canPlay ? moveRoots(view) : NO_MOVES;
  const pick = useMovePick(roots);
  // A half-made move belongs to one step of the viewer's own turn or draw: dropped when that
  // moves on, kept while only the next player's turn does (the previous player draws meanwhile).
  const drawing = view.drawing_seat === seat && view.to_act !== seat;
  const moment = drawing ? `draw|${view.round}` : `${view.round}|${phase}|${view.to_act}`;
  useEffect(() => pick.cancel(), [moment]);
  const onTarget = (t: Target) => { pick.chooseTarget(t); };
  const banner = bannerFor(view, seat, names, { gameOver: over, canMove: roots.length > 0, asked, acting });
  const played = view.played_card ? cardOf(data, view.played_card) : undefined;
  const running = runningWords(view, data, names);
  const privatise = [
    ...(view.to_privatise ?? []).map((a) => `${a.amount} ${resourceWord(scope, a.resource)}`),
    ...(view.extra_privatise ? [`${view.extra_privatise} more of any type`] : []),
  ];
  const handCards = view.hand ?? [];
  const onMap = moveTargets(pick.choices).regions.size > 0, onHand = moveTargets(pick.choices).cards.size > 0;

  return (
    <div class={`cg-board players-${(view.seats ?? []).length}`} data-testid="cg-board" data-phase={phase} data-round={view.round}
      data-to-act={view.to_act} data-drawing={view.drawing_seat} data-you={seat}>
      <div class={`cg-banner ${banner.mine ? "mine" : banner.over ? "over" : "wait"}`} data-testid="turn-banner" data-my-turn={banner.mine ? "true" : "false"}>
        {banner.mine && <span class="cg-pulse" />} {banner.text}
        {banner.mine && (
          <button type="button" class="cg-jump" data-testid="banner-jump"
            onClick={() => scrollToAction()}>
            {asked ? "To the question ↓" : "To your moves ↓"}
          </button>
        )}
      </div>

      <header class="cg-head">
        <h2>Contrôle Global</h2>
        <span class="cg-chip" data-testid="round">Round <b>{view.round}</b></span>
        <span class="cg-chip" data-testid="phase">{PHASE_NAME[phase] ?? "…"}</span>
        <span class="cg-chip" data-testid="turn-order">Turn order: {(view.turn_order ?? []).map((s) => playerName(names, s)).join(" → ")}</span>
        {view.end_rule !== EndRule.ONE_AT_VI && (
          <span class="cg-chip">{view.end_rule === EndRule.TWO_AT_VI ? "Ends with two categories at VI (6 players)" : "Ends with two categories at V (3 players)"}</span>
        )}
      </header>

      {over && <FinalScore view={view} data={data} names={names} />}

      {(played || privatise.length > 0 || running) && (
        <section class="cg-turn" data-testid="turn-card">
          {played && <div><span class="cg-small">Card of the turn</span><CardFace id={view.played_card} data={data} compact /></div>}
          {running && <p data-testid="running">{running}</p>}
          {privatise.length > 0 && <p data-testid="to-privatise">Left to privatise: {privatise.join(", ")}</p>}
        </section>
      )}

      {roots.length > 0 && (
        <section class="cg-moves" data-testid="cg-moves" data-path={pick.path.join("/")}>
          <h3>Your moves</h3>
          {onMap && <p class="cg-small">Click a highlighted region, or choose below.</p>}
          {onHand && <p class="cg-small">Click a highlighted card in your hand, or choose below.</p>}
          <MovePicker moves={roots} pick={pick} handle={handle} submit={submit} actionType={actionType} view={view} />
          <ActionError error={handle.error} />
        </section>
      )}

      {me && (
        <section class="cg-hand" data-testid="my-hand" data-count={handCards.length}>
          <h3>Your hand</h3>
          {handCards.length === 0 ? <p class="cg-muted">No card in hand.</p> : (
            <Hand cards={handCards} choices={pick.choices} onTarget={onTarget} label="Your hand"
              name={(id) => cardOf(data, id)?.name ?? id} face={(id) => <CardFace id={id} data={data} />} />
          )}
        </section>
      )}

      <World view={view} data={data} names={names} pick={pick} onTarget={onTarget} />
      <div class="cg-side">
        <Globalisation view={view} data={data} names={names} />
        <div class="cg-side-col">
          <CivilSociety view={view} data={data} />
          <Piles view={view} data={data} />
          <Factions view={view} data={data} names={names} />
        </div>
      </div>

      <section class="cg-players" data-testid="players">
        {(view.seats ?? []).map((s, i) => (
          <PlayerPanel key={i} s={s} seat={i} view={view} data={data} names={names} me={i === seat} acting={acting} connected={connected} over={over} />
        ))}
      </section>

      <GameLog log={tableOf(view).log} limit={80} class="cg-log" testid="game-log" />
    </div>
  );
}

