// LIMIT's board: the world, the nations, the hand, and the open decision (the core's question, or
// the moves the view publishes, read through the board kit).
import { useMemo } from "preact/hooks";
import type { BoardProps } from "../types";
import { Dot, useSelfWords } from "../../ui/common";
import { currentPrompt, int64String, tableOf } from "../../table";
import { GameLog } from "../../ui/GameLog";
import { answerSender, usePromptControl } from "../../ui/PromptPanel";
import { useSubmit } from "../../ui/submit";
import { CardFace } from "./Cards";
import { NationBoard, NationSummary } from "./NationBoard";
import { handPick, MyDecision, OthersPrompts, type HandPick, type Moves } from "./Prompts";
import { ScoreSheet } from "./ScoreSheet";
import { HitNotices, PhaseSummaryPanel, useHitNotices, usePhaseSummary } from "./Feedback";
import { Crises, GenerationBar, MarketBoard, Reserves, StarNation } from "./World";
import { moveRoots, type MoveChoice } from "../../ui/kit/moves";
import { useMovePick } from "../../ui/kit/MovePicker";
import { Phase, PromptKind, bannerFor, handPlays, playerName, withStatic } from "./model";
import type { BoardView, Card, Nation, StaticData, View } from "./model";

// A card the published moves play opens its play; during a discard a card is picked for the
// hand-limit question, as in the question's own card list.
function Hand({ view, seat, plays, onPlay, pick, busy, name }: {
  view: BoardView; seat: number; plays: ReadonlyMap<number, MoveChoice>; onPlay?: (m: MoveChoice) => void; pick?: HandPick;
  busy?: boolean; name: string;
}) {
  const self = useSelfWords(name);
  const hand = view.hand ?? [];
  const me = (view.nations ?? []).find((n: Nation) => n.seat === seat);
  const turn = !!onPlay && plays.size > 0;
  const badge = (c: Card) => {
    const under = pick?.picked.get(c.id);
    if (under != null) return <span class="lm-keep-badge under">under #{under}</span>;
    if (turn) return <span class={`lm-keep-badge ${plays.has(c.id) ? "" : "under"}`}>{plays.has(c.id) ? "▶ click to play" : "not playable now"}</span>;
    return undefined;
  };
  return (
    <section class="lm-hand" data-testid="hand" data-size={hand.length}>
      <h4>{self.your} hand <small class="muted">{hand.length}/{me?.hand_limit ?? "?"} cards · decks: 👥 {me?.deck_sizes?.[0] ?? 0} · ⚔️ {me?.deck_sizes?.[1] ?? 0} · 🏭 {me?.deck_sizes?.[2] ?? 0}</small></h4>
      {hand.length === 0 ? <p class="muted">No card in hand.</p> : (
        <div class="lm-card-grid">
          {hand.map((c) => (
            <CardFace key={c.id} card={c} testid="hand-card" selected={pick?.picked.has(c.id)} hot={pick?.hot === c.id} disabled={busy}
              onClick={pick?.offered(c.id) ? () => pick.toggle(c.id) : turn && plays.has(c.id) ? () => onPlay!(plays.get(c.id)!) : undefined}
              badge={badge(c)} />
          ))}
        </div>
      )}
    </section>
  );
}

export function Board({ view: named, seat, names, acting, readOnly, submit, actionType, gameOver, connected, gameData }: BoardProps<View, StaticData>) {
  // The view names cards and events by id: the board reads them with their printed fields.
  const view = useMemo(() => withStatic(named, gameData), [named, gameData]);
  const handle = useSubmit(submit, named);
  const { busy, error, run: send } = handle;
  const prompts = view.prompts ?? [];
  const canAct = !readOnly && !!submit && seat >= 0 && !gameOver;
  const mine = canAct ? prompts.filter((p) => p.seat === seat) : [];
  // The moves the view publishes (none for a spectator, a replay or a seat that may not act).
  const roots = canAct ? moveRoots(named) : [];
  const movePick = useMovePick(roots);
  const moves: Moves = { roots, pick: movePick, handle, submit, actionType, view: named };
  const plays = handPlays(roots, view.hand ?? []);
  const table = tableOf(view);
  // The core's question to this nation: the same decision as its LIMIT prompt, answered generically.
  const core = canAct && actionType ? currentPrompt(table, seat) : null;
  const control = usePromptControl(core, answerSender(actionType ?? "", send), busy);
  const pick = mine[0]?.kind === PromptKind.DISCARD ? handPick(core, control) : undefined;
  const others = prompts.filter((p) => !canAct || p.seat !== seat);
  const nations = view.nations ?? [];
  const me = nations.find((n) => n.seat === seat);
  const rest = nations.filter((n) => n.seat !== seat);
  const actingSet = new Set<number>([...acting, ...prompts.map((p) => p.seat as number)]);
  const banner = bannerFor(view, seat, names, gameOver, !canAct);
  const over = gameOver || view.phase === Phase.GAME_OVER;

  // The structured log of the table (once the game logs there): its newest entry's number tells
  // a new entry even when the log was trimmed.
  const coreLog = table.log;
  const lastSeq = coreLog.length ? int64String(coreLog[coreLog.length - 1].seq) : "";
  const phase = usePhaseSummary(coreLog, nations.map((n) => n.seat as number), view.generation ?? 0, seat);
  // Only a player in the live game is told of hits: a spectator is hit by nothing, and a replay
  // shows the log as it was.
  const hits = useHitNotices(coreLog, seat, seat >= 0 && !readOnly);
  // A new question always has a new id, even when it looks like the last one.
  const sig = `${view.generation}|${view.phase}|${lastSeq}|${prompts.map((p) => `${p.seat}:${p.kind}:${p.count}:${p.cards_played_this_turn}`).join(",")}|${table.prompts.map((p) => p.id).join(",")}`;
  return (
    <div class={`lm-board ${view.solo ? "solo" : ""}`} data-testid="limit-board" data-phase={view.phase} data-generation={view.generation}
      data-solo={view.solo ? "true" : "false"} data-sig={sig} data-you={seat}>
      <div class={`lm-banner ${banner.mine ? "mine" : banner.over ? "over" : "wait"}`} data-testid="turn-banner"
        data-my-turn={banner.mine ? "true" : "false"}>
        {banner.mine && <span class="pulse" />} {banner.text}
        {!banner.mine && !banner.over && [...actingSet].map((s) => <Dot key={s} seat={s} size={12} />)}
      </div>

      <HitNotices hits={hits.hits} onDismiss={hits.acknowledge} />

      <div class="lm-world">
        <GenerationBar view={view} />
        <Crises view={view} />
        <Reserves view={view} />
      </div>

      {over && <ScoreSheet view={view} names={names} seat={seat} />}

      {(mine.length > 0 || core || roots.length > 0) && (
        <MyDecision key={`${mine[0]?.kind}-${view.generation}-${mine[0]?.count}`} prompt={mine[0] ?? null} core={core} control={control} view={view}
          seat={seat} busy={busy} error={error} moves={moves} pick={pick} />
      )}
      {!over && <OthersPrompts prompts={others} names={names} />}

      {phase.summary && <PhaseSummaryPanel summary={phase.summary} names={names} seat={seat} onDismiss={() => phase.dismiss(phase.summary!)} />}

      {me ? <NationBoard n={me} view={view} names={names} you acting={actingSet.has(me.seat)} online={connected?.[me.seat]} />
        : <p class="muted lm-spectating" data-testid="spectator-note">👁 You are watching: every nation's public board is below; hands stay hidden.</p>}

      <div class="lm-main">
        <div class="lm-main-left">
          {me ? <Hand view={view} seat={seat} plays={plays} pick={pick} busy={busy} name={playerName(names, seat)} onPlay={canAct && movePick.path.length === 0 ? (m) => {
            // From the turn's moves only: while a move is being chosen, its Cancel comes first.
            movePick.choose(m.key);
            document.querySelector("[data-testid=decision]")?.scrollIntoView({ behavior: "smooth", block: "start" });
          } : undefined} /> : rest.length > 0 && (
            <section class="lm-others" data-testid="other-nations">
              <h4>Nations</h4>
              <div class="lm-others-grid">
                {rest.map((n) => <NationSummary key={n.seat} n={n} view={view} names={names} acting={actingSet.has(n.seat)} online={connected?.[n.seat]} />)}
              </div>
            </section>
          )}
        </div>
        <div class="lm-main-right">
          {view.solo && <StarNation view={view} />}
          <MarketBoard view={view} />
        </div>
      </div>

      {me && rest.length > 0 && (
        <section class="lm-others" data-testid="other-nations">
          <h4>Other nations</h4>
          <div class="lm-others-grid">
            {rest.map((n) => <NationSummary key={n.seat} n={n} view={view} names={names} acting={actingSet.has(n.seat)} online={connected?.[n.seat]} />)}
          </div>
        </section>
      )}

      {/* Views carry no log of their own any more: the table's is the chronicle. */}
      {coreLog.length > 0 ? <GameLog log={coreLog} title="Chronicle" class="lm-log" testid="game-log" /> : (
        <details class="lm-log" open data-testid="game-log">
          <summary>Chronicle</summary>
          <ol reversed />
        </details>
      )}
    </div>
  );
}
