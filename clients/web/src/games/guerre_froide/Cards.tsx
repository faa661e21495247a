// The printed pieces of Guerre Froide as the board draws them: the objective card, a group card
// (turned sideways when mobilized), an agent's token and an agent's full card.
import type { ComponentChildren } from "preact";
import {
  AgentStatus, EventAbility, FACTION_ICON, FACTION_NAME, FACTION_SLUG, PHASE_NAME, STATUS_NAME,
  agentBoxes, agentFace, groupFace, groupTitle, serviceOf, type AgentFace, type ObjectiveFace, type StaticData,
} from "./model";

/** A red rubber stamp ("TOP SECRET", "TERMINATED"). */
export function Stamp({ children, tone = "red", testid, class: cls }: {
  children: ComponentChildren; tone?: "red" | "blue" | "grey" | "green"; testid?: string; class?: string;
}) {
  return <span class={`gf-stamp ${tone} ${cls ?? ""}`} data-testid={testid}>{children}</span>;
}

export function BiasIcons({ bias }: { bias: readonly number[] }) {
  return (
    <span class="gf-bias" data-testid="objective-bias" data-bias={bias.join(",")}>
      {bias.map((f, i) => (
        <span key={f} class={`gf-bias-icon b${i} f-${FACTION_SLUG[f] ?? "none"}`}
          title={`${FACTION_NAME[f] ?? "?"}${i === 0 ? " (largest icon: first tie-break)" : ` (tie-break ${i + 1})`}`}>
          {FACTION_ICON[f] ?? "?"}
        </span>
      ))}
    </span>
  );
}

export function ObjectiveCard({ o, children, testid = "objective", compact }: {
  o: ObjectiveFace; children?: ComponentChildren; testid?: string; compact?: boolean;
}) {
  const event = o.event !== EventAbility.NONE;
  return (
    <article class={`gf-objective ${event ? "event" : "nation"} ${compact ? "compact" : ""}`} data-testid={testid} data-id={o.id}
      data-stability={o.stability} data-population={o.population} data-vp={o.vp} data-event={event ? "true" : "false"}>
      <header class="gf-objective-head">
        <span class="gf-kicker">{event ? "Event" : "Nation"} · objective</span>
        <h3 class="gf-objective-name">{o.name}</h3>
      </header>
      <div class="gf-objective-stats">
        <span class="gf-stat stability" title="Stability: the influence to reach without going over it">
          <small>Stability</small><b data-testid="objective-stability">{o.stability}</b>
        </span>
        <span class="gf-stat population" title={`Population: at most ${o.population} group${o.population === 1 ? "" : "s"} per player`}>
          <small>Population</small>
          <span class="gf-pop" data-testid="objective-population" data-count={o.population}>
            {Array.from({ length: o.population }, (_, i) => <span key={i} class="gf-pop-icon">👤</span>)}
          </span>
        </span>
        <span class="gf-stat vp" title="Victory points"><small>VP</small><b data-testid="objective-vp">{o.vp}</b></span>
      </div>
      <div class="gf-objective-bias"><small>Bias</small><BiasIcons bias={o.bias} /></div>
      {event && o.ability && (
        <p class="gf-ability" data-testid="objective-ability">
          <b>{PHASE_NAME[o.event_phase] ?? "Event"}:</b> {o.ability}
        </p>
      )}
      {!compact && o.flavour && <p class="gf-flavour">{o.flavour}</p>}
      {children}
    </article>
  );
}

export function GroupCard({ id, data, seat, mobilized, onClick, picked, target, selected, testid = "group" }: {
  id: string; data: StaticData | undefined; seat?: number; mobilized?: boolean; onClick?: () => void;
  /** Its place in an ordered pick (Nuclear Escalation), 1-based. */
  picked?: number;
  /** It can be clicked as the target of the move being prepared. */
  target?: boolean;
  /** The group being activated. */
  selected?: boolean;
  testid?: string;
}) {
  const g = groupFace(data, id);
  const Tag = onClick ? "button" : "div";
  return (
    <div class={`gf-slot ${mobilized ? "mobilized" : ""}`}>
      <Tag type={onClick ? "button" : undefined} onClick={onClick}
        class={`gf-group f-${FACTION_SLUG[g.faction] ?? "none"} ${target ? "target" : ""} ${selected ? "selected" : ""} ${picked ? "picked" : ""}`}
        data-testid={testid} data-id={id} data-seat={seat} data-faction={FACTION_SLUG[g.faction]} data-influence={g.influence}
        data-mobilized={mobilized ? "true" : "false"} data-target={target ? "true" : undefined}
        title={groupTitle(data, id)} aria-label={onClick ? `${g.name}: choose as the target` : undefined}>
        <span class="gf-group-top">
          <span class="gf-group-icon" aria-hidden="true">{FACTION_ICON[g.faction] ?? "?"}</span>
          <span class="gf-group-inf">{g.influence}</span>
        </span>
        <span class="gf-group-name">{g.name}</span>
        <span class="gf-group-faction">{FACTION_NAME[g.faction] ?? ""}</span>
        <span class={`gf-group-state ${mobilized ? "" : "ready"}`}>{mobilized ? "mobilized" : "ready"}</span>
        {picked ? <span class="gf-pick-badge">#{picked}</span> : null}
      </Tag>
    </div>
  );
}

const STATUS_SLUG: Record<number, string> = {
  [AgentStatus.IN_HEADQUARTERS]: "hq", [AgentStatus.ON_LEAVE]: "leave", [AgentStatus.X]: "x",
  [AgentStatus.TERMINATED]: "terminated", [AgentStatus.DETAINED]: "detained",
};

export function AgentToken({ kind, status, seat, data, services = [] }: {
  kind: number; status: number; seat: number; data: StaticData | undefined; services?: readonly number[];
}) {
  const a = agentFace(data, kind);
  const title = `${a.name} (initiative ${a.initiative}) — ${STATUS_NAME[status] ?? ""}\n` +
    agentBoxes(a, serviceOf({ seat }), services).map((b) => `${b.label}: ${b.text}`).join("\n");
  return (
    <span class={`gf-agent st-${STATUS_SLUG[status] ?? "x"}`} data-testid="agent" data-kind={kind} data-status={status} data-seat={seat} title={title}>
      <span class="gf-agent-ini">{a.initiative}</span>
      <span class="gf-agent-name">{a.name}</span>
      {status === AgentStatus.TERMINATED && <span class="gf-mini-stamp">terminated</span>}
      {status === AgentStatus.DETAINED && <span class="gf-mini-stamp">detained</span>}
    </span>
  );
}

export function FaceDown({ count }: { count: number }) {
  return (
    <span class="gf-facedown-row" data-testid="agent-hidden" data-count={count} title={`${count} agent card${count === 1 ? "" : "s"} face down`}>
      {Array.from({ length: count }, (_, i) => <span key={i} class="gf-agent facedown" data-testid="agent-facedown">✦</span>)}
    </span>
  );
}

/**
 * An agent's card with its boxes, coloured by the service whose domination makes each apply when
 * the owner's service and the services at the table are known; `highlight` marks the box that
 * applied (agentBoxes' key).
 */
export function AgentCard({ a, onClick, disabled, testid = "agent-choice", highlight, owner = 0, services = [], children }: {
  a: AgentFace; onClick?: () => void; disabled?: boolean; testid?: string; highlight?: string;
  owner?: number; services?: readonly number[]; children?: ComponentChildren;
}) {
  const Tag = onClick ? "button" : "div";
  return (
    <Tag type={onClick ? "button" : undefined} class={`gf-agent-card ${onClick ? "clickable" : ""}`} data-testid={testid} data-agent={a.kind}
      data-initiative={a.initiative} onClick={onClick} disabled={onClick ? disabled : undefined}>
      <span class="gf-agent-card-head">
        <span class="gf-agent-card-ini" title="Initiative: resolution order in the debriefing">{a.initiative}</span>
        <b>{a.name}</b>
      </span>
      <span class="gf-boxes">
        {agentBoxes(a, owner, services).map((b) => (
          <span key={b.key} class={`gf-box ${b.key} ${highlight && (highlight === b.key || b.key === "any") ? "applies" : ""}`}
            data-box={b.key} data-applies={highlight && (highlight === b.key || b.key === "any") ? "true" : undefined}>
            <small>{b.label}</small>
            <span>{b.text}</span>
          </span>
        ))}
      </span>
      {children}
    </Tag>
  );
}
