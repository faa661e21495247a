import { useState } from "preact/hooks";
import type { BoardProps } from "../types";
import { currentPrompt, tableOf } from "../../table";
import { GameLog } from "../../ui/GameLog";
import { Txt } from "../../ui/TextRender";
import { useSelfWords } from "../../ui/common";
import { scrollToAction } from "../../ui/phone";
import { PlayerBadge } from "../../ui/PlayerBadge";
import { ActionError, SubmitButton, useSubmit } from "../../ui/submit";
import { useLastMove, withMark } from "../../ui/LastMove";
import { AgentCard, AgentToken, FaceDown, GroupCard, ObjectiveCard, Stamp } from "./Cards";
import {
  AgentStatus, EventAbility, FACTIONS, FACTION_ICON, FACTION_SLUG, PHASE_NAME, Phase, Service, SERVICE_SLUG, TURN_PHASES,
  activateAction, activationMoves, agentFace, agentSummary, bannerFor, debriefSteps, canActivate, choosableAgents,
  dominatingBox, servicesInPlay,
  eventMoves, factionInfo, groupFace, heldEvents, influenceState, lookedCards, mustWaitToChoose, objectiveFace, passBlock,
  planningStatus, playerInfluence, playerName, playerOf, recruitBlock, revealedAgents, serviceColor, serviceName,
  serviceOf, targetIds, togglePick, trackPercent, useEventAction, type ActivateMove, type ObjectiveFace,
  type Action, type Player, type StaticData, type View,
} from "./model";

const SERVICE_EMBLEM: Record<number, string> = { [Service.CIA]: "🦅", [Service.KGB]: "☭", [Service.MI6]: "♛" };
const STAMP_TONE: Record<number, "blue" | "red" | "grey"> = { [Service.CIA]: "blue", [Service.KGB]: "red", [Service.MI6]: "grey" };

/** What the viewer is preparing on the board. */
type Mode =
  | null
  | { kind: "activate"; group: string }
  | { kind: "give"; group: string; target: string }
  | { kind: "nuclear"; picked: string[] };

type Run = (action: Action) => Promise<boolean>;

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

function AgentPicker({ view, me, data, busy, run, names, canPlay }: {
  view: View; me: Player; data: StaticData | undefined; busy: boolean; run: Run; names: string[]; canPlay: boolean;
}) {
  const agents = choosableAgents(me, data);
  const wait = mustWaitToChoose(view, me.seat);
  const summit = eventMoves(view, data, me.seat).filter((e) => e.event === EventAbility.SUMMIT_MEETING);
  const seen = revealedAgents(view, data, { except: me.seat });
  return (
    <div class="gf-picker" data-testid="agent-picker" data-waiting={wait ? "true" : "false"}>
      <h3 class="gf-desk-title">Choose your Agent X <Stamp>Top secret</Stamp></h3>
      {wait ? <p class="gf-note">Your Double Agent is watching: you choose once the others have chosen, and you will see their Agent X first.</p>
        : <p class="gf-note">Only you see this choice until the debriefing. Agents on leave, terminated or detained cannot be sent.</p>}
      {seen.length > 0 && <Intercepted seen={seen} data={data} names={names} />}
      {summit.map((e) => (
        <div key={e.objective} class="gf-event-offer">
          <button type="button" class="btn gf-btn" disabled={busy || !canPlay} data-testid="use-event" data-objective={e.objective}
            title={e.ability} onClick={() => void run(useEventAction(e.objective))}>🤝 Use {e.name}: bring your agents home</button>
        </div>
      ))}
      <div class="gf-agent-grid">
        {agents.map((a) => (
          <AgentCard key={a.kind} a={a} disabled={busy || wait || !canPlay} owner={serviceOf(me)} services={servicesInPlay(view)}
            onClick={canPlay ? () => void run({ choose_agent: { agent: a.kind } }) : undefined} />
        ))}
        {agents.length === 0 && <p class="gf-note">No agent is in your headquarters.</p>}
      </div>
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

function ChooseFirst({ view, names, busy, run }: { view: View; names: string[]; busy: boolean; run: Run }) {
  return (
    <div class="gf-choose-first" data-testid="choose-first-panel">
      <h3 class="gf-desk-title">⚖ You hold the balance token</h3>
      <p class="gf-note">Who opens the influence struggle? Turns then go round in seat order.</p>
      <div class="gf-row">
        {(view.players ?? []).map((p: Player) => (
          <button key={p.seat} type="button" class="btn gf-btn" disabled={busy} data-testid="choose-first" data-seat={p.seat}
            style={{ borderColor: serviceColor(p) }} onClick={() => void run({ choose_first: { seat: p.seat } })}>
            {playerName(names, p.seat)} ({serviceName(p)}) opens
          </button>
        ))}
      </div>
    </div>
  );
}

function StruggleControls({ view, data, seat, names, busy, run, mode, setMode }: {
  view: View; data: StaticData | undefined; seat: number; names: string[]; busy: boolean; run: Run; mode: Mode; setMode: (m: Mode) => void;
}) {
  const recruitWhy = recruitBlock(view, data, seat);
  const passWhy = passBlock(view, seat);
  const events = eventMoves(view, data, seat);
  if (mode?.kind === "activate") {
    const g = groupFace(data, mode.group);
    return (
      <div class="gf-mode" data-testid="activate-mode" data-group={mode.group}>
        <p><b>{g.name}</b> is ready to act: click the group it targets (highlighted).</p>
        <button type="button" class="btn ghost gf-btn" data-testid="activate-cancel" onClick={() => setMode(null)}>Cancel</button>
      </div>
    );
  }
  if (mode?.kind === "give") {
    const moves = activationMoves(view, data, seat, mode.group).filter((m) => m.target === mode.target);
    return (
      <div class="gf-mode" data-testid="give-mode" data-group={mode.group} data-target={mode.target}>
        <p>Give <b>{groupFace(data, mode.target).name}</b> to:</p>
        <div class="gf-row">
          {moves.map((m) => (
            <button key={m.to_seat} type="button" class="btn gf-btn" disabled={busy} data-testid="give-to" data-seat={m.to_seat}
              onClick={async () => { if (await run(activateAction(m, data))) setMode(null); }}>
              {playerName(names, m.to_seat)} ({serviceName(playerOf(view, m.to_seat))})
            </button>
          ))}
          <button type="button" class="btn ghost gf-btn" data-testid="activate-cancel" onClick={() => setMode(null)}>Cancel</button>
        </div>
      </div>
    );
  }
  if (mode?.kind === "nuclear") {
    return (
      <div class="gf-mode nuclear" data-testid="nuclear-mode" data-picked={mode.picked.join(",")}>
        <p>☢ Nuclear Escalation: click one or two groups in play, in the order they go to the discard pile.</p>
        <div class="gf-row">
          <SubmitButton busy={busy} disabled={mode.picked.length === 0} testid="nuclear-confirm"
            onClick={async () => { if (await run(useEventAction("nuclear_escalation", mode.picked))) setMode(null); }}>
            Discard {mode.picked.map((id) => groupFace(data, id).name).join(" then ") || "…"}
          </SubmitButton>
          <button type="button" class="btn ghost gf-btn" data-testid="nuclear-cancel" onClick={() => setMode(null)}>Cancel</button>
        </div>
      </div>
    );
  }
  return (
    <div class="gf-struggle" data-testid="struggle-controls">
      <h3 class="gf-desk-title">Your move</h3>
      <div class="gf-row">
        <SubmitButton busy={busy} disabled={!!recruitWhy} testid="recruit" title={recruitWhy || "Take the top group card, ready"}
          onClick={() => void run({ recruit: {} })}>🂠 Recruit</SubmitButton>
        <button type="button" class="btn gf-btn" disabled={busy || !!passWhy} data-testid="pass" title={passWhy || "Do nothing for now"}
          onClick={() => void run({ pass: {} })}>Pass</button>
        {events.map((e) => (
          <button key={e.objective} type="button" class="btn gf-btn event" disabled={busy || !!e.blocked} data-testid="use-event"
            data-objective={e.objective} title={e.blocked || e.ability}
            onClick={() => (e.needsGroups ? setMode({ kind: "nuclear", picked: [] }) : void run(useEventAction(e.objective)))}>
            {e.event === EventAbility.NUCLEAR_ESCALATION ? "☢" : e.event === EventAbility.LIVE_BENEFIT ? "🎤" : "🏅"} {e.name}
          </button>
        ))}
      </div>
      <p class="gf-note">Or press <b>Activate</b> under one of your ready groups to use its faction's power.</p>
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

function Desk({ view, data, seat, names, busy, run, mode, setMode, canPlay, asked, acting }: {
  view: View; data: StaticData | undefined; seat: number; names: string[]; busy: boolean; run: Run; mode: Mode; setMode: (m: Mode) => void;
  canPlay: boolean; asked: boolean; acting: readonly number[];
}) {
  const me = playerOf(view, seat);
  const phase = view.phase;
  let body = null;
  if (phase === Phase.PLANNING) {
    body = me && !me.chose_agent && canPlay
      ? <AgentPicker view={view} me={me} data={data} busy={busy} run={run} names={names} canPlay={canPlay && !asked} />
      : <WaitingOthers view={view} names={names} me={me} data={data} />;
  } else if (phase === Phase.STRUGGLE && canPlay && me && !asked) {
    const othersAnswering = acting.length > 0 && !acting.includes(seat);
    if (view.to_act < 0 && view.balance === seat) body = <ChooseFirst view={view} names={names} busy={busy} run={run} />;
    else if (view.to_act === seat && !othersAnswering) {
      body = <StruggleControls view={view} data={data} seat={seat} names={names} busy={busy} run={run} mode={mode} setMode={setMode} />;
    }
  }
  if (asked && canPlay) body = <p class="gf-note" data-testid="answer-below">📨 A question awaits you: answer it in the panel below the board.</p>;
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

function InfluenceMeter({ p, o, data }: { p: Player; o: ObjectiveFace | null; data: StaticData | undefined }) {
  const inf = playerInfluence(p, data);
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

function Dossier({ p, view, data, names, seat, o, mode, onTarget, onActivate, canActivateNow, acting, connected, over }: {
  p: Player; view: View; data: StaticData | undefined; names: string[]; seat: number; o: ObjectiveFace | null; mode: Mode;
  onTarget: (id: string) => void; onActivate: (id: string) => void; canActivateNow: boolean; acting: readonly number[];
  connected?: boolean[]; over: boolean;
}) {
  const mine = p.seat === seat;
  const mark = useLastMove<View>();
  const own = (read: (q: Partial<Player>) => unknown) => mark((v) => read(playerOf(v, p.seat) ?? {}));
  const score = own((q) => q.score), agents = own((q) => [q.agents, q.hidden_agents, q.unrevealed]), won = own((q) => q.won);
  const chose = own((q) => q.chose_agent), passed = own((q) => q.passed);
  const svc = SERVICE_SLUG[serviceOf(p)] ?? "none";
  const groups = p.groups ?? [];
  const targets = mode?.kind === "activate" ? new Set(targetIds(activationMoves(view, data, seat, mode.group))) : null;
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
      <InfluenceMeter p={p} o={o} data={data} />
      <div class="gf-groups" data-testid={`groups-${p.seat}`} data-count={groups.length}>
        {groups.length === 0 && <i class="gf-muted">No group recruited{o?.population ? ` (up to ${o.population})` : ""}.</i>}
        {groups.map((g) => {
          const m = own((q) => (q.groups ?? []).find((x) => x.id === g.id));
          const picked = mode?.kind === "nuclear" ? mode.picked.indexOf(g.id) + 1 : 0;
          const isTarget = (targets?.has(g.id) ?? false) || mode?.kind === "nuclear";
          // Offered only with a move to make: a power with no target the rules allow is no choice.
          const ready = mine && canActivateNow && !mode && activationMoves(view, data, seat, g.id).length > 0;
          return (
            <div key={g.id} class={`gf-group-wrap${m.cls}`} title={m.text} {...m.attrs}>
              <GroupCard id={g.id} data={data} seat={p.seat} mobilized={g.mobilized} target={isTarget}
                selected={mode?.kind === "activate" && mode.group === g.id} picked={picked || undefined}
                onClick={isTarget ? () => onTarget(g.id) : undefined} />
              {ready && (
                <button type="button" class="btn small gf-activate" data-testid="activate" data-group={g.id} onClick={() => onActivate(g.id)}>
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
  const { busy, error, run } = useSubmit(submit, view);
  const phase = view.phase as number;
  // A selection belongs to one turn, phase and player to act: a new one starts clean in the very
  // render that shows it (a reset in an effect would come a render late).
  const moment = `${view.turn}|${phase}|${view.to_act}`;
  const [kept, setKept] = useState<{ moment: string; mode: Mode }>({ moment: "", mode: null });
  const held = kept.moment === moment ? kept.mode : null;
  const setMode = (m: Mode) => setKept({ moment, mode: m });
  const over = gameOver || phase === Phase.GAME_OVER;
  const canPlay = !readOnly && !!submit && seat >= 0 && !over && !!playerOf(view, seat);
  const prompt = canPlay && actionType ? currentPrompt(tableOf(view), seat) : null;
  const asked = !!prompt;
  const o = objectiveFace(data, view.objective);
  const myTurn = canPlay && !asked && phase === Phase.STRUGGLE && view.to_act === seat && (acting.length === 0 || acting.includes(seat));
  // A selection that no longer fits the position (its group gone or mobilized) is dropped.
  const mode: Mode = !myTurn ? null
    : held?.kind === "activate" || held?.kind === "give" ? (canActivate(view, seat, held.group) ? held : null) : held;

  const send: Run = async (action) => {
    const ok = await run(action);
    if (ok) setMode(null);
    return ok;
  };
  const onActivate = (id: string) => {
    const moves = activationMoves(view, data, seat, id);
    if (moves.length === 1 && !moves[0].target) void send(activateAction(moves[0], data));  // Media: no target
    else setMode({ kind: "activate", group: id });
  };
  const onTarget = (id: string) => {
    if (!mode) return;
    if (mode.kind === "nuclear") { setMode({ kind: "nuclear", picked: togglePick(mode.picked, id, 2) }); return; }
    if (mode.kind !== "activate") return;
    const moves: ActivateMove[] = activationMoves(view, data, seat, mode.group).filter((m) => m.target === id);
    if (moves.length === 1) void send(activateAction(moves[0], data));
    else if (moves.length > 1) setMode({ kind: "give", group: mode.group, target: id });
  };

  const banner = bannerFor(view, seat, names, { gameOver, readOnly: !canPlay, asked, acting });
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

      <Desk view={view} data={data} seat={seat} names={names} busy={busy} run={send} mode={mode} setMode={setMode}
        canPlay={canPlay} asked={asked} acting={acting} />
      <ActionError error={error} />

      {showReveal && <Reveal view={view} data={data} names={names} />}

      <div class="gf-dossiers">
        {ordered.map((p) => (
          <Dossier key={p.seat} p={p} view={view} data={data} names={names} seat={seat} o={o} mode={mode}
            onTarget={onTarget} onActivate={onActivate} canActivateNow={myTurn} acting={acting} connected={connected} over={over} />
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
