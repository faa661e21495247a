// Guerre Froide's board: the table, the viewer's desk and every player's file, offering exactly
// the moves the engine publishes for the viewer (kit/moves.ts): its agent cards, seats, Recruit,
// Pass, Activate buttons, events and the groups a step targets are those of the published tree.
import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";
import type { BoardProps } from "../types";
import { currentPrompt, tableOf, type Target } from "../../table";
import { GameLog } from "../../ui/GameLog";
import { Txt } from "../../ui/TextRender";
import { useSelfWords } from "../../ui/common";
import { scrollToAction } from "../../ui/phone";
import { PlayerBadge } from "../../ui/PlayerBadge";
import { ActionError, SubmitButton, useSubmit, type SubmitHandle } from "../../ui/submit";
import { MovePicker, useMovePick, type MovePick } from "../../ui/kit/MovePicker";
import { buildMove, choiceLabel, choicesForTarget, isLeaf, moveKind, moveRoots, moveTargets, type MoveChoice } from "../../ui/kit/moves";
import { useLastMove, withMark } from "../../ui/LastMove";
import { AgentCard, AgentToken, FaceDown, GroupCard, ObjectiveCard, Stamp } from "./Cards";
import {
  AgentStatus, EventAbility, FACTIONS, FACTION_ICON, FACTION_SLUG, PHASE_NAME, Phase, Service, SERVICE_SLUG, TURN_PHASES,
  agentFace, agentOfKey, agentSummary, bannerFor, debriefSteps, deskMoves, dominatingBox, servicesInPlay,
  factionInfo, groupFace, heldEvents, influenceState, lookedCards, objectiveFace,
  planningStatus, playerInfluence, playerName, playerOf, revealedAgents, serviceColor, serviceName,
  serviceOf, trackPercent, type DeskMoves, type ObjectiveFace, type Player, type StaticData, type View,
} from "./model";

const SERVICE_EMBLEM: Record<number, string> = { [Service.CIA]: "🦅", [Service.KGB]: "☭", [Service.MI6]: "♛" };
const STAMP_TONE: Record<number, "blue" | "red" | "grey"> = { [Service.CIA]: "blue", [Service.KGB]: "red", [Service.MI6]: "grey" };

/** Sends a published choice if it is a leaf, else goes down it (the picker then shows what follows). */
type Take = (c: MoveChoice) => void;

const NO_MOVES: readonly MoveChoice[] = Object.freeze([]);
const EVENT_ICON: Record<number, string> = {
  [EventAbility.NUCLEAR_ESCALATION]: "☢", [EventAbility.LIVE_BENEFIT]: "🎤", [EventAbility.OLYMPIC_GAMES]: "🏅",
  [EventAbility.SUMMIT_MEETING]: "🤝",
};

// ----- the table: phases, score track, objective, decks -----

function PhaseTrack({ view }: { view: View }) {
  return (
    <ol class="gf-phases" data-testid="phase-track" data-phase={view.phase} data-turn={view.turn}>
      <li class="gf-turn">Turn <b>{view.turn}</b></li>
      {TURN_PHASES.map((ph, i) => (
        <li key={ph} class={`gf-phase ${ph === view.phase ? "on" : ph < view.phase ? "done" : ""}`}>
          <span class="gf-phase-n">{i + 1}</span> {PHASE_NAME[ph]}
        </li>
      ))}
    </ol>
  );
}

function ScoreTrack({ view, names }: { view: View; names: string[] }) {
  const mark = useLastMove<View>();
  const goal: number = view.goal || 100;
  const ticks = [];
  for (let v = 0; v <= goal; v += goal >= 60 ? 10 : 5) ticks.push(v);
  return (
    <section class="gf-track" data-testid="score-track" data-goal={goal}>
      <span class="gf-kicker">Score track · first to {goal} VP</span>
      <div class="gf-track-bar">
        {ticks.map((t) => <span key={t} class="gf-tick" style={{ left: `${trackPercent(t, goal)}%` }}><i>{t}</i></span>)}
        <span class="gf-goal" style={{ left: "100%" }} title={`Goal: ${goal} VP`}>🏁</span>
        {(view.players ?? []).map((p: Player, i: number) => {
          const m = mark((v) => playerOf(v, p.seat)?.score);
          return (
            <span key={p.seat} class={`gf-marker s-${SERVICE_SLUG[serviceOf(p)]}${m.cls}`} data-testid="track-marker" data-seat={p.seat} data-score={p.score}
              style={{ left: `${trackPercent(p.score, goal)}%`, top: `${2 + i * 17}px`, background: serviceColor(p) }}
              title={withMark(`${playerName(names, p.seat)} (${serviceName(p)}): ${p.score} VP`, m)} {...m.attrs}>
              {serviceName(p)}
            </span>
          );
        })}
      </div>
    </section>
  );
}

function Decks({ view, data }: { view: View; data: StaticData | undefined }) {
  const discard: string[] = view.group_discard ?? [];
  const top = discard.length ? groupFace(data, discard[discard.length - 1]) : null;
  const used: string[] = view.objective_discard ?? [];
  return (
    <div class="gf-decks">
      <div class="gf-deck" data-testid="objective-deck" data-count={view.objective_deck} title="Objective cards in the deck, under the current one">
        <span class="gf-deck-pile obj">🗂</span><b>{view.objective_deck}</b><small>objectives</small>
      </div>
      <div class="gf-deck" data-testid="objective-discard" data-count={used.length}
        title={used.length ? `Used events: ${used.map((id) => objectiveFace(data, id)!.name).join(", ")}` : "No event used yet"}>
        <span class="gf-deck-pile used">🗃</span><b>{used.length}</b><small>used events</small>
      </div>
      <div class="gf-deck" data-testid="group-deck" data-count={view.group_deck} title="Group cards in the deck">
        <span class="gf-deck-pile grp">🂠</span><b>{view.group_deck}</b><small>groups</small>
      </div>
      <div class="gf-deck" data-testid="group-discard" data-count={discard.length} data-top={top?.id}
        title={top ? `Top of the discard pile: ${top.name} (${top.influence})` : "The group discard pile is empty"}>
        <span class="gf-deck-pile disc">🗑</span><b>{discard.length}</b>
        <small>discarded{top ? <> · top: <i class={`f-${FACTION_SLUG[top.faction] ?? "none"}`}>{top.name} {top.influence}</i></> : ""}</small>
      </div>
    </div>
  );
}

function ObjectivePanel({ view, o, names }: { view: View; o: ObjectiveFace | null; names: string[] }) {
  const m = useLastMove<View>()((v) => [v.objective, v.dominating, v.claimed_by]);
  const players = view.players ?? [];
  const dom = view.dominating ?? -1;
  const claimed = view.claimed_by ?? -1;
  if (!o) {
    return (
      <article class="gf-objective empty" data-testid="objective" data-id="">
        <span class="gf-kicker">Objective</span>
        <p class="gf-muted">No objective on the table.</p>
      </article>
    );
  }
  return (
    <ObjectiveCard o={o}>
      {m.text && <p class="gf-changed last-move" data-testid="objective-changed" {...m.attrs}>{m.text}</p>}
      {dom >= 0 && (
        <Stamp tone={STAMP_TONE[serviceOf(playerOf(view, dom))] ?? "red"} testid="domination" class="gf-dom-stamp">
          <span data-seat={dom}>Dominated · {serviceName(playerOf(view, dom))}</span>
        </Stamp>
      )}
      {claimed >= 0 && (
        <p class="gf-claimed" data-testid="claimed" data-seat={claimed}>Claimed by <b>{playerName(names, claimed)}</b> ({serviceName(playerOf(view, claimed))})</p>
      )}
      {players.some((p) => p.civil_disorder) && (
        <p class="gf-disorder-line">🔥 Civil disorder: {players.filter((p) => p.civil_disorder).map((p) => playerName(names, p.seat)).join(", ")}</p>
      )}
    </ObjectiveCard>
  );
}

// ----- the viewer's desk: Agent X, who opens, the struggle's moves -----

function AgentPicker({ view, me, data, busy, take, names, moves }: {
  view: View; me: Player; data: StaticData | undefined; busy: boolean; take: Take; names: string[]; moves: DeskMoves;
}) {
  // The published agents, in the order their initiative resolves them.
  const agents = moves.agents.map((c) => ({ c, a: agentFace(data, agentOfKey(c.key)) }))
    .sort((x, y) => x.a.initiative - y.a.initiative || x.a.kind - y.a.kind);
  const seen = revealedAgents(view, data, { except: me.seat });
  return (
    <div class="gf-picker" data-testid="agent-picker">
      <h3 class="gf-desk-title">Choose your Agent X <Stamp>Top secret</Stamp></h3>
      <p class="gf-note">Only you see this choice until the debriefing. Agents on leave, terminated or detained cannot be sent.</p>
      {seen.length > 0 && <Intercepted seen={seen} data={data} names={names} />}
      <EventButtons moves={moves} data={data} busy={busy} take={take} />
      <div class="gf-agent-grid">
        {agents.map(({ c, a }) => (
          <AgentCard key={c.key} a={a} disabled={busy} owner={serviceOf(me)} services={servicesInPlay(view)} onClick={() => take(c)} />
        ))}
      </div>
    </div>
  );
}

/** The events the viewer may use now, one button each. */
function EventButtons({ moves, data, busy, take }: { moves: DeskMoves; data: StaticData | undefined; busy: boolean; take: Take }) {
  if (moves.events.size === 0) return null;
  return (
    <div class="gf-row gf-event-offer">
      {[...moves.events].map(([id, c]) => {
        const o = objectiveFace(data, id)!;
        return (
          <button key={id} type="button" class="btn gf-btn event" disabled={busy} data-testid="use-event" data-objective={id}
            data-kind={moveKind(c)}
            title={o.ability} onClick={() => take(c)}>
            {EVENT_ICON[o.event] ?? "★"} <Txt text={c.label} />
          </button>
        );
      })}
    </div>
  );
}

function Intercepted({ seen, data, names }: { seen: ReturnType<typeof revealedAgents>; data: StaticData | undefined; names: string[] }) {
  return (
    <div class="gf-intercepted" data-testid="intercepted">
      <span class="gf-kicker">Intercepted by your Double Agent</span>
      {seen.map((r) => (
        <span key={`${r.seat}-${r.kind}`} class="gf-chip" data-seat={r.seat} data-kind={r.kind}>
          {playerName(names, r.seat)}: <b>{agentFace(data, r.kind).name}</b>
        </span>
      ))}
    </div>
  );
}

function WaitingOthers({ view, names, me, data }: { view: View; names: string[]; me: Player | null; data: StaticData | undefined }) {
  const { choosing } = planningStatus(view);
  const mine = me ? agentSummary(me).agentX : [];
  const self = useSelfWords(me ? playerName(names, me.seat) : "");
  return (
    <div class="gf-waiting" data-testid="waiting-others" data-choosing={choosing.join(",")}>
      {mine.length > 0 && (
        <div class="gf-my-x" data-testid="my-agent-x" data-agent={mine[0]}>
          <span class="gf-kicker">{self.your} Agent X</span>
          <b>{agentFace(data, mine[0]).name}</b> <Stamp>Eyes only</Stamp>
        </div>
      )}
      {me && !me.chose_agent && me.sees_next && (
        <p class="gf-note" data-testid="seer-waits">Your Double Agent is watching: you choose once the others have chosen, and you will see their Agent X first.</p>
      )}
      <p class="gf-note">{choosing.length ? "Waiting for the others to choose…" : "Every Agent X is chosen."}</p>
      <ul>
        {(view.players ?? []).map((p: Player) => (
          <li key={p.seat} data-seat={p.seat} data-chosen={p.chose_agent ? "true" : "false"} class={p.chose_agent ? "done" : ""}>
            <span class="gf-svc" style={{ color: serviceColor(p) }}>{serviceName(p)}</span> {playerName(names, p.seat)}
            <span class="gf-wait-state">{p.chose_agent ? "✓ Agent X chosen" : "… choosing"}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function ChooseFirst({ view, names, busy, take, moves }: { view: View; names: string[]; busy: boolean; take: Take; moves: DeskMoves }) {
  return (
    <div class="gf-choose-first" data-testid="choose-first-panel">
      <h3 class="gf-desk-title">⚖ You hold the balance token</h3>
      <p class="gf-note">Who opens the influence struggle? Turns then go round in seat order.</p>
      <div class="gf-row">
        {moves.first.map((c) => {
          const [to] = moveTargets([c]).seats;
          const p = playerOf(view, to);
          return (
            <button key={c.key} type="button" class="btn gf-btn" disabled={busy} data-testid="choose-first" data-seat={to}
              style={{ borderColor: serviceColor(p) }} onClick={() => take(c)}>
              {playerName(names, to)} ({serviceName(p)}) opens
            </button>
          );
        })}
      </div>
    </div>
  );
}

function StruggleControls({ data, busy, take, moves }: { data: StaticData | undefined; busy: boolean; take: Take; moves: DeskMoves }) {
  const closed = "Not open to you now";
  return (
    <div class="gf-struggle" data-testid="struggle-controls">
      <h3 class="gf-desk-title">Your move</h3>
      <div class="gf-row">
        <SubmitButton busy={busy} disabled={!moves.recruit} testid="recruit" title={moves.recruit ? "Take the top group card, ready" : closed}
          onClick={() => moves.recruit && take(moves.recruit)}>🂠 Recruit</SubmitButton>
        <button type="button" class="btn gf-btn" disabled={busy || !moves.pass} data-testid="pass" title={moves.pass ? "Do nothing for now" : closed}
          onClick={() => moves.pass && take(moves.pass)}>Pass</button>
      </div>
      <EventButtons moves={moves} data={data} busy={busy} take={take} />
      {moves.activate.size > 0 && <p class="gf-note">Or press <b>Activate</b> under one of your ready groups to use its faction's power.</p>}
    </div>
  );
}

/**
 * A move half made (a group activated, an event's first group named): the board highlights the
 * groups the next step targets and the kit's picker offers every choice, Back and Cancel.
 */
function PickPanel({ roots, pick, handle, submit, actionType, view }: {
  roots: readonly MoveChoice[]; pick: MovePick; handle: SubmitHandle; submit: BoardProps["submit"]; actionType?: string; view: View;
}) {
  const onBoard = moveTargets(pick.choices).cards.size > 0;
  return (
    <div class="gf-mode" data-testid="pick-mode" data-path={pick.path.join("/")}>
      {onBoard && <p class="gf-note">Click a highlighted group, or choose below.</p>}
      <MovePicker moves={roots} pick={pick} handle={handle} submit={submit} actionType={actionType} view={view} />
    </div>
  );
}

function LookingAt({ view, data }: { view: View; data: StaticData | undefined }) {
  const cards = lookedCards(view, data);
  if (!cards.length) return null;
  return (
    <section class="gf-looking" data-testid="looking-at" data-count={cards.length}>
      <span class="gf-kicker">For your eyes only <Stamp>Classified</Stamp></span>
      <div class="gf-row">
        {cards.map((c, i) => (
          c.kind === "group" ? <GroupCard key={c.id} id={c.id} data={data} testid="looked-card" picked={cards.length > 1 ? i + 1 : undefined} />
            : (
              <div key={c.id} class="gf-looked-objective" data-testid="looked-card" data-id={c.id} data-kind="objective">
                <span class="gf-pick-badge">#{i + 1}</span>
                <ObjectiveCard o={objectiveFace(data, c.id)!} testid="looked-objective" compact />
              </div>
            )
        ))}
      </div>
    </section>
  );
}

function Desk({ view, data, seat, names, busy, take, moves, canPlay, asked, picker }: {
  view: View; data: StaticData | undefined; seat: number; names: string[]; busy: boolean; take: Take; moves: DeskMoves;
  canPlay: boolean; asked: boolean; picker: ComponentChildren;
}) {
  const me = playerOf(view, seat);
  const phase = view.phase;
  const struggle = !!moves.recruit || !!moves.pass || moves.activate.size > 0 || moves.events.size > 0;
  let body = null;
  if (asked && canPlay) body = <p class="gf-note" data-testid="answer-below">📨 A question awaits you: answer it in the panel below the board.</p>;
  else if (picker) body = picker;
  else if (phase === Phase.PLANNING) {
    body = me && (moves.agents.length > 0 || moves.events.size > 0)
      ? <AgentPicker view={view} me={me} data={data} busy={busy} take={take} names={names} moves={moves} />
      : <WaitingOthers view={view} names={names} me={me} data={data} />;
  } else if (moves.first.length > 0) body = <ChooseFirst view={view} names={names} busy={busy} take={take} moves={moves} />;
  else if (struggle) body = <StruggleControls data={data} busy={busy} take={take} moves={moves} />;
  const looking = (view.looking_at ?? []).length > 0;
  if (!body && !looking) return null;
  return (
    <section class="gf-desk" data-testid="desk">
      {body}
      <LookingAt view={view} data={data} />
    </section>
  );
}

// ----- the debriefing -----

/** The last Debriefing, agent by agent in initiative order: each card with what it did. */
function Reveal({ view, data, names }: { view: View; data: StaticData | undefined; names: string[] }) {
  const mark = useLastMove<View>();
  const steps = debriefSteps(view);
  return (
    <section class="gf-reveal" data-testid="reveal" data-order={steps.map((r) => `${r.seat}:${r.agent}`).join(",")}>
      <h3 class="gf-desk-title">Debriefing — agents revealed <Stamp tone="grey">Declassified</Stamp></h3>
      <ol class="gf-reveal-list">
        {steps.map((r) => {
          const p = playerOf(view, r.seat);
          const m = mark((v) => debriefSteps(v).find((q) => q.seat === r.seat && q.agent === r.agent));
          return (
            <li key={`${r.seat}-${r.agent}`} data-testid="revealed-agent" data-seat={r.seat} data-kind={r.agent}
              data-initiative={r.initiative} data-acted={r.acted ? "true" : "false"} data-removed={r.removed ? "true" : "false"}
              class={`${r.acted ? "acted" : ""} ${r.removed ? "removed" : ""}${m.cls}`} style={{ borderColor: serviceColor(p) }}
              title={m.text} {...m.attrs}>
              <span class="gf-step-num">{r.initiative}</span>
              <span class="gf-svc" style={{ color: serviceColor(p) }}>{serviceName(p)} · {playerName(names, r.seat)}</span>
              <AgentCard a={agentFace(data, r.agent)} testid="revealed-card" owner={serviceOf(p)} services={servicesInPlay(view)}
                highlight={dominatingBox(view)} />
              <p class="gf-step-outcome" data-testid="step-outcome"><Txt text={r.outcome} /></p>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

// ----- the dossiers -----

function InfluenceMeter({ p, o }: { p: Player; o: ObjectiveFace | null }) {
  const inf = playerInfluence(p);
  const stability = o?.stability ?? 0;
  const state = influenceState(inf, stability);
  const scale = Math.max(stability, inf, 1);
  return (
    <div class={`gf-influence ${state}`} data-testid={`influence-${p.seat}`} data-influence={inf} data-stability={stability} data-state={state}
      title={stability ? `Influence ${inf} of a stability of ${stability}` : `Influence ${inf}`}>
      <span class="gf-influence-num"><b>{inf}</b>{stability > 0 && <small> / {stability}</small>}</span>
      <span class="gf-influence-bar">
        <span class="gf-influence-fill" style={{ width: `${(inf / scale) * 100}%` }} />
        {stability > 0 && <span class="gf-influence-mark" style={{ left: `${(stability / scale) * 100}%` }} />}
      </span>
      <span class="gf-influence-word">{state === "over" ? "over the stability!" : state === "exact" ? "exactly on it" : state === "under" ? `${stability - inf} to go` : "influence"}</span>
    </div>
  );
}

function AgentsArea({ p, data, mine, secret, services, viewer }: {
  p: Player; data: StaticData | undefined; mine: boolean; secret: boolean; services: readonly number[]; viewer: string;
}) {
  const s = agentSummary(p);
  const self = useSelfWords(viewer);
  const row = (label: string, kinds: number[], status: number, testid?: string) => (
    kinds.length > 0 && (
      <div class="gf-agent-row" data-testid={testid}>
        <small>{label}</small>
        <span class="gf-agent-list">{kinds.map((k) => <AgentToken key={k} kind={k} status={status} seat={p.seat} data={data} services={services} />)}</span>
      </div>
    )
  );
  return (
    <div class="gf-agents" data-testid={`agents-${p.seat}`}>
      {mine ? (
        <div class="gf-agent-row" data-testid="headquarters">
          <small>{self.your} headquarters</small>
          <span class="gf-agent-list">
            {s.headquarters.map((k) => <AgentToken key={k} kind={k} status={AgentStatus.IN_HEADQUARTERS} seat={p.seat} data={data} services={services} />)}
            {s.headquarters.length === 0 && <i class="gf-muted">empty</i>}
          </span>
        </div>
      ) : row("Headquarters", s.headquarters, AgentStatus.IN_HEADQUARTERS)}
      {row(mine && secret ? `${self.your} Agent X (secret)`
        : !mine && secret ? `Agent X (intercepted: only ${self.you} ${self.you === "you" ? "see" : "sees"} it)` : "Agent X",
      s.agentX, AgentStatus.X, "agent-x")}
      {s.hidden > 0 && (
        <div class="gf-agent-row" data-testid="unrevealed">
          <small>In play, face down: one of them is on a mission</small>
          {s.unrevealed.length > 0
            ? <span class="gf-agent-list">{s.unrevealed.map((k) => <AgentToken key={k} kind={k} status={AgentStatus.IN_HEADQUARTERS} seat={p.seat} data={data} services={services} />)}</span>
            : <FaceDown count={s.hidden} />}
        </div>
      )}
      {row("On leave", s.onLeave, AgentStatus.ON_LEAVE, "on-leave")}
      {row("Terminated", s.terminated, AgentStatus.TERMINATED, "terminated")}
      {row("Detained", s.detained, AgentStatus.DETAINED, "detained")}
    </div>
  );
}

function Won({ p, data }: { p: Player; data: StaticData | undefined }) {
  const won: string[] = p.won ?? [];
  return (
    <div class="gf-won" data-testid={`won-${p.seat}`} data-count={won.length}>
      <small>Objectives won</small>
      {won.length === 0 ? <i class="gf-muted">none yet</i> : (
        <span class="gf-won-list">
          {won.map((id) => {
            const o = objectiveFace(data, id)!;
            const event = o.event !== EventAbility.NONE;
            return (
              <span key={id} class={`gf-won-card ${event ? "event" : ""}`} data-testid="won-objective" data-id={id}
                title={event ? `${o.name} (${o.vp} VP) — ${o.ability}` : `${o.name} (${o.vp} VP)${o.flavour ? ` — ${o.flavour}` : ""}`}>
                {event ? "★ " : ""}{o.name} <b>{o.vp}</b>
              </span>
            );
          })}
        </span>
      )}
    </div>
  );
}

function Dossier({ p, view, data, names, seat, o, pick, moves, take, onTarget, acting, connected, over }: {
  p: Player; view: View; data: StaticData | undefined; names: string[]; seat: number; o: ObjectiveFace | null;
  pick: MovePick; moves: DeskMoves; take: Take; onTarget: (t: Target) => void; acting: readonly number[];
  connected?: boolean[]; over: boolean;
}) {
  const mine = p.seat === seat;
  const mark = useLastMove<View>();
  const own = (read: (q: Partial<Player>) => unknown) => mark((v) => read(playerOf(v, p.seat) ?? {}));
  const score = own((q) => q.score), agents = own((q) => [q.agents, q.hidden_agents, q.unrevealed]), won = own((q) => q.won);
  const chose = own((q) => q.chose_agent), passed = own((q) => q.passed);
  const svc = SERVICE_SLUG[serviceOf(p)] ?? "none";
  const groups = p.groups ?? [];
  // Mid-move, the groups the next step targets; at the roots, none (a group acts through Activate).
  const targets = pick.path.length > 0 ? moveTargets(pick.choices).cards : null;
  // Mid-move, this player as the step's target (a political group's receiver).
  const [asSeat] = pick.path.length > 0 ? choicesForTarget(pick.choices, { seat: p.seat }) : [];
  const winner = (view.winners ?? []).includes(p.seat);
  const turn = !over && (acting.includes(p.seat) || (view.phase === Phase.STRUGGLE && view.to_act === p.seat));
  return (
    <article class={`gf-dossier s-${svc} ${mine ? "mine" : ""} ${turn ? "acting" : ""} ${p.civil_disorder ? "disorder" : ""}`}
      data-testid={`player-${p.seat}`} data-seat={p.seat} data-service={svc} style={{ "--svc": serviceColor(p) }}>
      <header class="gf-dossier-head">
        <span class="gf-emblem" aria-hidden="true">{SERVICE_EMBLEM[serviceOf(p)] ?? "?"}</span>
        <span class="gf-dossier-id">
          <span class="gf-service-name">{serviceName(p)}</span>
          <PlayerBadge seat={p.seat} name={playerName(names, p.seat)} you={mine} online={connected?.[p.seat]} turn={turn}
            turnLabel={view.phase === Phase.PLANNING ? "choosing" : "to act"} class="gf-badge" />
        </span>
        {mine && !winner && <Stamp class="gf-file-stamp">Eyes only</Stamp>}
        {winner && <Stamp tone="green" class="gf-file-stamp">Winner</Stamp>}
        <span class={`gf-score${score.cls}`} data-testid={`score-${p.seat}`} data-score={p.score} title={withMark("Victory points", score)}
          {...score.attrs}><b>{p.score}</b><small>VP</small></span>
      </header>
      <div class="gf-flags">
        {view.balance === p.seat && <span class="gf-balance" data-testid="balance-token" data-seat={p.seat} title="The balance token: chooses who opens the struggle">⚖ balance token</span>}
        {p.civil_disorder && <span class="gf-disorder" data-testid="civil-disorder" data-seat={p.seat} title="Over the stability at the cease-fire">🔥 civil disorder</span>}
        {view.phase === Phase.STRUGGLE && p.passed && <span class={`gf-flag${passed.cls}`} data-testid="passed" title={passed.text} {...passed.attrs}>passed</span>}
        {view.phase === Phase.PLANNING && <span class={`gf-flag ${p.chose_agent ? "ok" : ""}${chose.cls}`} data-testid="chose-agent" data-chosen={p.chose_agent ? "true" : "false"}
          title={chose.text} {...chose.attrs}>
          {p.chose_agent ? "Agent X chosen" : "choosing…"}</span>}
        {view.dominating === p.seat && <span class="gf-flag dom" title="Placed the domination token">⚑ dominates</span>}
        {!over && p.sees_next && <span class="gf-flag" data-testid="sees-next" title="A Double Agent lets this player see the others' Agent X next Planning">👁 sees next</span>}
        {!over && p.analyst_next && <span class="gf-flag" title="An Analyst lets this player order the top groups next Briefing">🔎 analyst</span>}
      </div>
      {asSeat && (
        <button type="button" class="btn small gf-activate gf-seat-target" data-testid="seat-target" data-seat={p.seat}
          onClick={() => onTarget({ seat: p.seat })}><Txt text={choiceLabel(asSeat)} /></button>
      )}
      <InfluenceMeter p={p} o={o} />
      <div class="gf-groups" data-testid={`groups-${p.seat}`} data-count={groups.length}>
        {groups.length === 0 && <i class="gf-muted">No group recruited{o?.population ? ` (up to ${o.population})` : ""}.</i>}
        {groups.map((g) => {
          const m = own((q) => (q.groups ?? []).find((x) => x.id === g.id));
          // The groups already named by the move being made (an event's first group), in order.
          const picked = pick.path.indexOf(g.id, 1);
          const isTarget = targets?.has(g.id) ?? false;
          const activate = mine && pick.path.length === 0 ? moves.activate.get(g.id) : undefined;
          return (
            <div key={g.id} class={`gf-group-wrap${m.cls}`} title={m.text} {...m.attrs}>
              <GroupCard id={g.id} data={data} seat={p.seat} mobilized={g.mobilized} target={isTarget}
                selected={pick.path[0] === moves.activate.get(g.id)?.key} picked={picked > 0 ? picked : undefined}
                onClick={isTarget ? () => onTarget({ card: g.id }) : undefined} />
              {activate && (
                <button type="button" class="btn small gf-activate" data-testid="activate" data-group={g.id} data-kind={moveKind(activate)} onClick={() => take(activate)}>
                  Activate
                </button>
              )}
            </div>
          );
        })}
      </div>
      <div class={`gf-mark-box${agents.cls}`} title={agents.text} {...agents.attrs}>
        <AgentsArea p={p} data={data} mine={mine} secret={!over && view.phase < Phase.DEBRIEFING} services={servicesInPlay(view)}
          viewer={view.you >= 0 ? playerName(names, view.you) : ""} />
      </div>
      <div class={`gf-mark-box${won.cls}`} title={won.text} {...won.attrs}><Won p={p} data={data} /></div>
      {heldEvents(p, data).length > 0 && (
        <p class="gf-held small" data-testid={`events-${p.seat}`}>
          Events in hand: {heldEvents(p, data).map((e) => <span key={e.id} class="gf-chip" title={e.ability}>★ {e.name} ({PHASE_NAME[e.event_phase]})</span>)}
        </p>
      )}
    </article>
  );
}

function Winners({ view, names }: { view: View; names: string[] }) {
  const winners: number[] = view.winners ?? [];
  const players = [...(view.players ?? [])].sort((a, b) => b.score - a.score || a.seat - b.seat);
  return (
    <section class="gf-winners" data-testid="winners" data-seats={winners.join(",")}>
      <Stamp tone="green" class="gf-big-stamp">Case closed</Stamp>
      <h3 class="gf-desk-title">
        {winners.length === 0 ? "The game is over." : `${winners.map((s) => `${playerName(names, s)} (${serviceName(playerOf(view, s))})`).join(" and ")} ${winners.length > 1 ? "share the win" : "wins the Cold War"}`}
      </h3>
      <ol class="gf-final">
        {players.map((p: Player) => (
          <li key={p.seat} class={winners.includes(p.seat) ? "won" : ""} data-seat={p.seat}>
            <span class="gf-svc" style={{ color: serviceColor(p) }}>{serviceName(p)}</span> {playerName(names, p.seat)} — <b>{p.score} VP</b>
          </li>
        ))}
      </ol>
    </section>
  );
}

// ----- the board -----

export function Board({ view, seat, names, acting, gameOver, readOnly, submit, actionType, connected, gameData }: BoardProps<View, StaticData>) {
  const data = gameData;
  const handle = useSubmit(submit, view);
  const { busy, error } = handle;
  const phase = view.phase as number;
  const over = gameOver || phase === Phase.GAME_OVER;
  const canPlay = !readOnly && !!submit && seat >= 0 && !over && !!playerOf(view, seat);
  const prompt = canPlay && actionType ? currentPrompt(tableOf(view), seat) : null;
  const asked = !!prompt;
  const o = objectiveFace(data, view.objective);
  // What the viewer may do is what its view publishes: nothing for a spectator, a replay or a
  // seat that may not act.
  const roots = canPlay && actionType ? moveRoots(view) : NO_MOVES;
  const pick = useMovePick(roots);
  const moves = deskMoves(roots, playerOf(view, seat));
  // A move half made belongs to one turn, phase and player to act: when the table moves on, it
  // is dropped rather than offered again the next time the same choices open.
  const moment = `${view.turn}|${phase}|${view.to_act}`;
  useEffect(() => pick.cancel(), [moment]);

  const send = async (c: MoveChoice) => {
    const built = buildMove(actionType ?? "", c);
    if (!built.action) { handle.fail(built.error); return; }
    if (await handle.run(built.action)) pick.cancel();
  };
  const take: Take = (c) => { if (isLeaf(c)) void send(c); else pick.choose(c.key); };
  const onTarget = (t: Target) => {
    const [hit] = choicesForTarget(pick.choices, t);
    if (hit) take(hit);
  };
  const picker = pick.path.length > 0
    ? <PickPanel roots={roots} pick={pick} handle={handle} submit={submit} actionType={actionType} view={view} /> : null;

  const banner = bannerFor(view, seat, names, { gameOver, readOnly: !canPlay, asked, acting, canMove: roots.length > 0 });
  const players = view.players ?? [];
  // The viewer's own file first, the others in seat order.
  const ordered = [...players].sort((a, b) => (a.seat === seat ? -1 : b.seat === seat ? 1 : a.seat - b.seat));
  // The debriefing reveals every Agent X still in play; they stay shown until they go on leave.
  // Kept from the Debriefing until the next Cease-fire, so the table can follow what each agent did.
  const showReveal = debriefSteps(view).length > 0;

  return (
    <div class={`gf-board players-${players.length}`} data-testid="gf-board" data-phase={phase} data-turn={view.turn}
      data-to-act={view.to_act} data-you={seat}>
      <div class={`gf-banner ${banner.mine ? "mine" : banner.over ? "over" : "wait"}`} data-testid="turn-banner"
        data-my-turn={banner.mine ? "true" : "false"}>
        {banner.mine && <span class="gf-pulse" />} {banner.text}
        {/* A question goes to the panel under the board, far below on a desktop: one click
            brings it (or the desk) into view. */}
        {banner.mine && (
          <button type="button" class="gf-jump" data-testid="banner-jump" onClick={() => scrollToAction()}>
            {asked ? "To the question ↓" : "To your desk ↓"}
          </button>
        )}
      </div>

      <header class="gf-masthead">
        <div class="gf-title">
          <span class="gf-classified">Classified</span>
          <h2>Guerre Froide <small>{players.length >= 3 ? "CIA · KGB · MI6" : "CIA vs KGB"}</small></h2>
        </div>
        <PhaseTrack view={view} />
      </header>

      <ScoreTrack view={view} names={names} />

      <div class="gf-table">
        <ObjectivePanel view={view} o={o} names={names} />
        <Decks view={view} data={data} />
      </div>

      {over && <Winners view={view} names={names} />}

      <Desk view={view} data={data} seat={seat} names={names} busy={busy} take={take} moves={moves}
        canPlay={canPlay} asked={asked} picker={picker} />
      <ActionError error={error} />

      {showReveal && <Reveal view={view} data={data} names={names} />}

      <div class="gf-dossiers">
        {ordered.map((p) => (
          <Dossier key={p.seat} p={p} view={view} data={data} names={names} seat={seat} o={o} pick={pick} moves={moves}
            take={take} onTarget={onTarget} acting={acting} connected={connected} over={over} />
        ))}
      </div>

      <FieldManual data={data} />

      <GameLog log={tableOf(view).log} limit={80} title="Field reports" class="gf-log" testid="game-log" />
    </div>
  );
}

/** The four faction powers, readable without hovering (touch screens have no hover). */
function FieldManual({ data }: { data: StaticData | undefined }) {
  return (
    <details class="gf-manual" data-testid="faction-powers">
      <summary>Field manual: the faction powers</summary>
      <dl>
        {FACTIONS.map((f) => {
          const info = factionInfo(data, f);
          return (
            <div key={f} class={`gf-manual-row f-${FACTION_SLUG[f]}`} data-faction={FACTION_SLUG[f]}>
              <dt><span aria-hidden="true">{FACTION_ICON[f]}</span> {info.name}</dt>
              <dd>{info.power}</dd>
            </div>
          );
        })}
      </dl>
    </details>
  );
}
