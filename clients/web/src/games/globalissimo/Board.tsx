import { useEffect, useState } from "preact/hooks";
import type { BoardProps } from "../types";
import { Dot, seatColor } from "../../ui/common";
import { currentPrompt, tableOf, type Prompt } from "../../table";
import { GameLog } from "../../ui/GameLog";
import { PlayerBadge } from "../../ui/PlayerBadge";
import { answerSender, usePromptControl, type AnswerFn } from "../../ui/PromptPanel";
import { draftAnswer, promptMax, textLength } from "../../ui/prompt";
import { ActionError, SubmitButton, useSubmit } from "../../ui/submit";
import { useLastMove, type Mark } from "../../ui/LastMove";
import { buildMove, moveRoots } from "../../ui/kit/moves";
import {
  Barrier, POSITION, SLOT, categoryOf, placeMove, chooseRegion, chosenRegion, countryFace, ordinal, refusedAnswer, Phase, playerName, questionForm, settledAnswers,
  trackSquares, type CategoryInfo, type DisplaySlot, type Question, type QuestionForm, type RoundSummary,
  type StaticData, type View,
} from "./model";
import { Track } from "./Track";
import { WorldMap } from "./WorldMap";

const POINTS_LABEL = ["miss", "1 pt", "2 pts", "3 pts"];

function CategoryCard({ category, round, total, deck }: { category: CategoryInfo | null; round: number; total: number; deck: number }) {
  return (
    <div class="gl-category" data-testid="category">
      <div class="gl-round" data-testid="round-indicator">
        <span class="gl-round-label">Round</span>
        <span class="gl-round-num">{round}<small>/{total}</small></span>
      </div>
      <div class="gl-category-body">
        <span class="gl-kicker">This round's category</span>
        <h3>{category?.name || "—"}{category?.unit && <span class="gl-unit"> · {category.unit}</span>}</h3>
        {category?.description && <p>{category.description}</p>}
        {category?.source && <p class="gl-source">Source: {category.source}</p>}
      </div>
      <div class="gl-deck" title="Country cards left in the deck"><span>🂠</span>{deck}</div>
    </div>
  );
}

function Tile({ seat, position, names }: { seat: number; position: number; names: string[] }) {
  return (
    <span class="gl-tile" style={{ background: seatColor(seat) }} title={`${playerName(names, seat)} guesses ${ordinal(position)}`}>
      {position}
    </span>
  );
}

function CountryCard({ slot, index, names, data, clickable, selected, onClick, compact, mark }: {
  slot: DisplaySlot; index: number; names: string[]; data?: StaticData; clickable?: boolean; selected?: boolean; onClick?: () => void; compact?: boolean;
  mark?: Mark;
}) {
  const c: Partial<NonNullable<DisplaySlot["card"]>> = slot.card ?? {};
  const face = countryFace(data, c.id);
  const hasTile = slot.tile_seat >= 0;
  const scored = slot.points >= 0 && hasTile;
  const Tag = clickable ? "button" : "div";
  return (
    <Tag class={`gl-card ${c.revealed ? "revealed" : ""} ${clickable ? "clickable" : ""} ${selected ? "selected" : ""} ${compact ? "compact" : ""}${mark?.cls ?? ""}`}
      data-testid={compact ? "reveal-card" : "country-card"} data-slot={index} data-free={hasTile ? "false" : "true"}
      title={mark?.text} {...mark?.attrs}
      onClick={clickable ? onClick : undefined} type={clickable ? "button" : undefined}
      aria-label={clickable ? `Place your tile on ${face.name}` : undefined}>
      {c.revealed && <span class="gl-pos" title="Actual position">{ordinal(c.position ?? 0)}</span>}
      <span class="gl-flag" aria-hidden="true">{face.flag}</span>
      <span class="gl-name">{face.name}</span>
      {c.revealed && (
        <>
          <span class="gl-value">{c.value_text}</span>
          {c.capital && <span class="gl-capital">🏛 {c.capital}</span>}
        </>
      )}
      <span class="gl-card-foot">
        {hasTile ? <Tile seat={slot.tile_seat} position={slot.tile_position} names={names} />
          : !c.revealed && <span class="gl-free">{clickable ? "place here" : "free"}</span>}
        {scored && <span class={`gl-points p${slot.points}`}>{POINTS_LABEL[slot.points] ?? `${slot.points} pts`}</span>}
      </span>
    </Tag>
  );
}

// The barrier question is the scorer's core prompt (table.prompts[0]); the board asks it in its
// own way: the capital box for the orange barrier's text, the world map for the violet barrier's
// choice of a region. Everyone else sees the question from view.question, without controls.
function QuestionPanel({ q, names, data, prompt, form, busy, onAnswer }: {
  q: Question; names: string[]; data?: StaticData; prompt: Prompt | null; form: QuestionForm | null; busy: boolean; onAnswer: AnswerFn;
}) {
  const country = countryFace(data, q.country_id);
  const c = usePromptControl(form ? prompt : null, onAnswer, busy);
  const mine = form != null;
  const orange = q.kind === Barrier.ORANGE;
  const who = playerName(names, q.seat);
  const typed = textLength(c.draft.text);
  const longest = prompt ? promptMax(prompt) : 0;
  const selected = form === "map" ? chosenRegion(prompt, c.draft.chosen) : undefined;
  return (
    <div class={`gl-question ${orange ? "orange" : "violet"}`} data-testid="question-panel" data-kind={orange ? "orange" : "violet"}
      data-prompt={mine ? prompt!.id : undefined}>
      <div class="gl-question-head">
        <span class="gl-barrier-icon">{orange ? "🏛" : "📍"}</span>
        <div>
          <span class="gl-kicker">{orange ? "Orange barrier · capital question" : "Violet barrier · map question"}</span>
          <h3>
            {mine ? "Your question: " : `${who}'s question: `}
            {orange ? <>what is the capital of <b>{country.flag} {country.name}</b>?</>
              : <>where is <b>{country.flag} {country.name}</b> on the map?</>}
          </h3>
          <p class="muted small">A right answer crosses the barrier and moves on {q.steps_left} more square{q.steps_left === 1 ? "" : "s"}.</p>
        </div>
      </div>
      {q.wrong_answers?.length > 0 && (
        <p class="gl-wrong">Refused: {q.wrong_answers.map((w: string, i: number) => <span key={i} class="chip wrong">{refusedAnswer(data, q.kind, w)}</span>)}</p>
      )}
      {form === "capital" && (
        <form class="gl-capital-form" onSubmit={(e) => { e.preventDefault(); if (!c.problem) c.send(draftAnswer(prompt!, c.draft)); }}>
          <input data-testid="capital-input" value={c.draft.text} placeholder="Type the capital…" autoFocus disabled={busy}
            onInput={(e) => c.setDraft({ ...c.draft, text: (e.target as HTMLInputElement).value })} />
          <SubmitButton type="submit" busy={busy} disabled={!!c.problem} testid="capital-submit" title={c.problem || undefined}>Answer</SubmitButton>
        </form>
      )}
      {form === "capital" && typed > longest && <p class="form-error small">{c.problem}</p>}
      {/* No highlight here ever: while the question is open its answer is the secret. */}
      {!orange && (
        <WorldMap regions={form === "map" ? c.targets.regions : undefined} selected={selected} disabled={form !== "map" || busy}
          onSelect={form === "map" ? (id) => c.setDraft({ ...c.draft, chosen: chooseRegion(c.targets, id) }) : undefined} />
      )}
      {form === "map" && (
        <div class="gl-map-confirm">
          <span class="gl-map-selection" data-testid="map-selection" aria-live="polite">
            {selected ? "Selected: one country — confirm or pick another" : "Nothing selected yet: click a country on the map"}
          </span>
          <button type="button" class="btn ghost" data-testid="map-clear" disabled={!selected || busy}
            onClick={() => c.setDraft({ ...c.draft, chosen: [] })}>Clear</button>
          <SubmitButton busy={busy} disabled={!selected || !!c.problem} testid="map-confirm" title={c.problem || undefined}
            onClick={() => c.send(draftAnswer(prompt!, c.draft))}>Confirm</SubmitButton>
        </div>
      )}
      {!mine && <p class="muted">Waiting for {who} to answer…</p>}
    </div>
  );
}

// The answers of the questions settled this round and the last, for everyone at the table (and in
// replays): the server only lists a question once it can no longer be asked again.
function SettledPanel({ view, names, data }: { view: View; names: string[]; data?: StaticData }) {
  const entries = settledAnswers(view, data, names);
  if (entries.length === 0) return null;
  const withMap = entries.find((e) => e.showMap);
  return (
    <div class="gl-settled" data-testid="settled-answers">
      <div class="gl-settled-list">
        <h4>Answers</h4>
        <ul>
          {entries.map((e, i) => (
            <li key={i} class={`gl-settled-entry ${e.kind} ${e.answeredBy >= 0 ? "found" : "missed"}`} data-testid="settled-answer"
              data-kind={e.kind} data-map-id={e.kind === "map" ? e.mapId : undefined} data-country={e.countryId} data-round={e.round}>
              <b>{e.label}</b>: {e.result} <span class="muted small">· round {e.round}</span>
            </li>
          ))}
        </ul>
      </div>
      {withMap && (
        <div class="gl-settled-map" data-testid="settled-map" data-map-id={withMap.mapId}>
          <WorldMap key={withMap.mapId} still highlight={withMap.mapId} testid="answer-map" class="answer" />
          <span class="muted small">{withMap.label}</span>
        </div>
      )}
    </div>
  );
}

function PlayersPanel({ view, names, connected, over }: { view: View; names: string[]; connected?: boolean[]; over: boolean }) {
  const mark = useLastMove<View>();
  const players = [...view.players].sort((a, b) => b.distance - a.distance || a.seat - b.seat);
  return (
    <div class="gl-players" data-testid="players-panel">
      {players.map((p) => {
        const m = mark((v) => v.players.find((q) => q.seat === p.seat));
        return (
        <div key={p.seat} class={`gl-player ${p.seat === view.to_act ? "acting" : ""} ${p.seat === view.you ? "you" : ""}${m.cls}`}
          style={{ borderColor: seatColor(p.seat) }} data-testid="player-score" data-seat={p.seat} title={m.text} {...m.attrs}>
          <PlayerBadge seat={p.seat} name={playerName(names, p.seat)} you={p.seat === view.you} online={connected?.[p.seat]}
            turn={!over && p.seat === view.to_act} turnLabel={view.phase === Phase.QUESTION ? "answering" : "placing"} class="gl-player-name">
            {p.seat === view.first_player && <span title="First player">⭐</span>}
          </PlayerBadge>
          <span class="gl-score" title="Score">{p.distance}</span>
          <span class="gl-barriers" title="Barriers crossed">
            <span class="gl-b orange">{p.orange_barriers}</span>
            <span class="gl-b violet">{p.violet_barriers}</span>
          </span>
          <span class="gl-player-status muted small">
            {view.final_ranks?.length ? `${ordinal(view.final_ranks[p.seat] ?? 0)} place`
              : p.placed_slot >= 0 ? "tile placed" : p.seat === view.to_act ? "choosing…" : "to place"}
            {p.last_round_points >= 0 && ` · last round +${p.last_round_points}`}
          </span>
        </div>
        );
      })}
    </div>
  );
}

function LastRound({ lr, names, data }: { lr: RoundSummary; names: string[]; data?: StaticData }) {
  const m = useLastMove<View>()((v) => v.last_round);
  const cards = [...lr.display].sort((a, b) => (a.card?.position ?? 0) - (b.card?.position ?? 0));
  const category = categoryOf(data, lr.category_id);
  return (
    <div class={`gl-last${m.cls}`} data-testid="last-round" title={m.text} {...m.attrs}>
      <h4>Round {lr.round} revealed · {category?.name}{category?.unit ? ` (${category.unit})` : ""}</h4>
      <div class="gl-reveal">
        {cards.map((s, i) => <CountryCard key={i} slot={s} index={i} names={names} data={data} compact />)}
      </div>
    </div>
  );
}

export function Board({ view, seat, names, readOnly, submit, actionType, gameOver, connected, gameData }: BoardProps<View, StaticData>) {
  const [pos, setPos] = useState<number | null>(null);
  const [slot, setSlot] = useState<number | null>(null);
  const { busy, error, run, fail } = useSubmit(submit, view);
  const mark = useLastMove<View>();
  const phase: number = view.phase;
  const toAct = view.to_act;
  const me = seat >= 0 ? view.players.find((p) => p.seat === seat) : null;
  // What the seat may place comes from the engine's published "place" family: its free slots and
  // its positions. No move published, nothing clickable.
  const live = !readOnly && !!submit && !!actionType && !gameOver;
  const place = live ? placeMove(moveRoots(view)) : null;
  const placing = place != null;
  const freeSlots = new Set(place?.slots ?? []);
  // Only a live seat answers: a replay's view may hold the question, but nothing can be sent.
  const prompt = !readOnly && submit && actionType && !gameOver ? currentPrompt(tableOf(view), seat) : null;
  const form = questionForm(view, prompt);
  const answering = form != null;
  const positions = place?.positions ?? Array.from({ length: view.max_position || view.display.length }, (_, k) => k + 1);

  // A new turn or round starts with a clean selection.
  useEffect(() => { setPos(null); setSlot(null); }, [view.round, toAct, phase]);

  const send = async (action: object) => {
    if (await run(action)) {
      setPos(null);
      setSlot(null);
    }
  };
  const choose = (s: number | null, p: number | null) => {
    setSlot(s);
    setPos(p);
    if (s == null || p == null || !place) return;
    const built = buildMove(actionType!, place.move, { [SLOT]: s, [POSITION]: p });
    if (built.action) void send(built.action);
    else fail(built.error);
  };

  let banner: string;
  let bannerCls = "wait";
  if (gameOver || phase === Phase.GAME_OVER) { banner = "Game over — the final ranking is above"; bannerCls = "over"; }
  else if (placing) { banner = "Your turn — pick a position, then click a country card"; bannerCls = "mine"; }
  else if (answering) { banner = "Your turn — answer the question to cross the barrier"; bannerCls = "mine"; }
  else if (toAct < 0) banner = "Scoring…";
  else if (readOnly) banner = phase === Phase.QUESTION
    ? `${playerName(names, toAct)} answers a barrier question`
    : `${playerName(names, toAct)} places a tile`;
  else if (phase === Phase.QUESTION) banner = `Waiting for ${playerName(names, toAct)} to answer a question`;
  else banner = `Waiting for ${playerName(names, toAct)} to place a tile`;

  let reason = "";
  if (!placing && phase === Phase.PLACEMENT && !gameOver) {
    if (me && me.placed_slot >= 0) reason = "Your tile for this round is placed.";
    else reason = `Not your turn: ${playerName(names, toAct)} is placing.`;
  }

  return (
    <div class="gl-board" data-testid="gl-board" data-phase={phase} data-round={view.round} data-to-act={toAct}>
      <div class={`gl-banner ${bannerCls}`} data-testid="turn-banner" data-my-turn={placing || answering ? "true" : "false"}>
        {bannerCls === "mine" && <span class="pulse" />} {banner}
        {toAct >= 0 && bannerCls !== "mine" && <Dot seat={toAct} size={12} />}
      </div>
      {(view.category_id || phase !== Phase.GAME_OVER) && (
        <CategoryCard category={categoryOf(gameData, view.category_id)} round={view.round} total={view.total_rounds} deck={view.deck_remaining} />
      )}

      {/* A new question (another player, barrier or refused answer) gets a fresh answer box at
          once; resetting the text in an effect would run after the render and could wipe what the
          player has just typed. */}
      {phase === Phase.QUESTION && view.question && (
        <QuestionPanel key={`${view.question.seat}:${view.question.barrier_square}:${view.question.wrong_answers?.length ?? 0}`}
          q={view.question} names={names} data={gameData} prompt={prompt} form={form} busy={busy}
          onAnswer={answerSender(actionType ?? "", run)} />
      )}

      {view.display.length > 0 && <div class="gl-display-wrap">
        <div class="gl-display" data-testid="display" data-move-slots={place ? place.slots.join(",") : undefined}>
          {view.display.map((s, i) => (
            <CountryCard key={i} slot={s} index={i} names={names} data={gameData} mark={mark((v) => v.display[i])}
              clickable={freeSlots.has(i) && !busy} selected={slot === i}
              onClick={() => choose(i, pos)} />
          ))}
        </div>
        {phase === Phase.PLACEMENT && !gameOver && submit && (
          <div class={`gl-picker ${placing ? "" : "disabled"}`} data-testid="tile-picker" data-move-positions={place ? place.positions.join(",") : undefined}>
            <span class="gl-picker-label">
              {placing ? (slot == null ? "Your guess: which position (1 = highest)?" : "Now pick the position for that card")
                : reason || "Tiles"}
            </span>
            <div class="gl-picker-tiles">
              {positions.map((p) => (
                <button key={p} type="button" class={`gl-tile big ${pos === p ? "on" : ""}`} disabled={!placing || busy}
                  style={{ background: placing ? seatColor(seat) : undefined }} data-testid={`tile-pos-${p}`}
                  aria-pressed={pos === p} onClick={() => choose(slot, p)}>{p}</button>
              ))}
            </div>
          </div>
        )}
      </div>}
      <ActionError error={error} />

      <SettledPanel view={view} names={names} data={gameData} />

      <div class="gl-lower">
        <div class="gl-track-wrap">
          <h4>Score track</h4>
          <Track track={trackSquares(view, gameData)} players={view.players} names={names} />
          <p class="muted small gl-legend">
            <span class="gl-b orange" /> capital barrier · <span class="gl-b violet" /> map barrier · faded: already crossed
          </p>
        </div>
        <PlayersPanel view={view} names={names} connected={connected} over={gameOver || phase === Phase.GAME_OVER} />
      </div>

      {view.last_round && view.last_round.display?.length > 0 && <LastRound lr={view.last_round} names={names} data={gameData} />}

      <GameLog log={tableOf(view).log} limit={60} class="gl-log" testid="game-log" />
    </div>
  );
}
