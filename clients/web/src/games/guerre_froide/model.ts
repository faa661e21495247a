// The enums of proto/games/guerre_froide.proto (generated) in words, the printed cards looked up
// by the ids a view carries (GameInfo.static_data), and what the board reads and writes of a view:
// influence against stability, agents by status, the published moves sorted by the board element
// that offers them, the banner. It decides nothing the rules decide: what a seat may do is the
// engine's published moves (kit/moves.ts). Nothing here touches the DOM, so it is unit-tested
// (test/guerre_froide.test.ts).

import { lowerNames, setValues, unprefixed } from "../../enums";
import * as pb from "../../gen/games/guerre_froide";
import type { Draft, Msg } from "../../proto";
import type { Text } from "../../table";
import { SEAT_COLORS } from "../../ui/common";
import { choiceByKey, choicesForTarget, movesAfter, type MoveChoice } from "../../ui/kit/moves";

export const Phase = unprefixed(pb.Phase, "PHASE_");
export const Faction = unprefixed(pb.Faction, "FACTION_");
export const Service = unprefixed(pb.Service, "SERVICE_");
export const AgentKind = unprefixed(pb.AgentKind, "AGENT_");
export const AgentStatus = unprefixed(pb.AgentStatus, "AGENT_");
export const EventAbility = unprefixed(pb.EventAbility, "EVENT_");
export const Cryptographer = unprefixed(pb.CryptographerOption, "CRYPTOGRAPHER_");

/** The six phases of a turn, in order (the phase track). */
export const TURN_PHASES = [Phase.BRIEFING, Phase.PLANNING, Phase.STRUGGLE, Phase.CEASE_FIRE, Phase.DEBRIEFING, Phase.DETENTE];

export const PHASE_NAME: Record<number, string> = {
  [Phase.BRIEFING]: "Briefing", [Phase.PLANNING]: "Planning", [Phase.STRUGGLE]: "Influence Struggle",
  [Phase.CEASE_FIRE]: "Cease-fire", [Phase.DEBRIEFING]: "Debriefing", [Phase.DETENTE]: "Détente",
  [Phase.GAME_OVER]: "Game over",
};

export const FACTION_NAME: Record<number, string> = {
  [Faction.MILITARY]: "Military", [Faction.ECONOMIC]: "Economic", [Faction.MEDIA]: "Media", [Faction.POLITICAL]: "Political",
};
export const FACTION_SLUG = lowerNames(pb.Faction, "FACTION_");
export const FACTIONS = setValues(pb.Faction, "FACTION_");
export const FACTION_ICON: Record<number, string> = {
  [Faction.MILITARY]: "🎖️", [Faction.ECONOMIC]: "💰", [Faction.MEDIA]: "📻", [Faction.POLITICAL]: "🏛️",
};

export const SERVICE_SLUG = lowerNames(pb.Service, "SERVICE_");
/** Each service by its enum name ("CIA"). */
export const SERVICE_NAME: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(SERVICE_SLUG).map(([value, slug]) => [value, slug.toUpperCase()]));
/**
 * Service colours: each service sits in one seat (KGB 0, CIA 1, MI6 2), so it wears that seat's
 * colour, the one the seat list and the chat show for its player.
 */
export const SERVICE_COLOR: Record<number, string> = {
  [Service.CIA]: SEAT_COLORS[1], [Service.KGB]: SEAT_COLORS[0], [Service.MI6]: SEAT_COLORS[2],
};

export const STATUS_NAME: Record<number, string> = {
  [AgentStatus.IN_HEADQUARTERS]: "in headquarters", [AgentStatus.ON_LEAVE]: "on leave", [AgentStatus.X]: "Agent X",
  [AgentStatus.TERMINATED]: "terminated", [AgentStatus.DETAINED]: "detained",
};

/** The View as decoded, and a player of it. */
export type View = Msg<pb.View>;
export type Player = Msg<pb.Player>;
/** The static data as decoded (GameInfo.static_data): the printed cards. */
export type StaticData = Msg<pb.StaticData>;
type Data = StaticData | null | undefined;

// ----- names -----

export function playerName(names: readonly string[], seat: number): string {
  return names[seat] || `Seat ${seat + 1}`;
}

/** The player's service: the view says it; seat 0 is the KGB, 1 the CIA, 2 MI6. */
export function serviceOf(p: Draft<pb.Player> | null | undefined): number {
  return p?.service || (typeof p?.seat === "number" ? [2, 1, 3][p.seat] ?? 0 : 0);
}

export function serviceName(p: Partial<Player> | null | undefined): string {
  return SERVICE_NAME[serviceOf(p)] ?? "?";
}

export function serviceColor(p: Partial<Player> | null | undefined): string {
  return SERVICE_COLOR[serviceOf(p)] ?? "#888";
}

/** The player at `seat` of `view`, as the view holds it (a whole Player of a decoded View). */
export function playerOf<P extends { seat?: number | null }>(
  view: { players?: readonly P[] | null } | null | undefined, seat: number): P | null {
  return (view?.players ?? []).find((p) => p.seat === seat) ?? null;
}

// ----- the printed cards -----

export type ObjectiveFace = Msg<pb.ObjectiveCard>;
export type GroupFace = Msg<pb.GroupCard>;
export type AgentFace = Msg<pb.AgentCard>;
export type FactionInfo = Msg<pb.FactionPower>;

interface Index {
  objectives: Map<string, ObjectiveFace>;
  groups: Map<string, GroupFace>;
  agents: Map<number, AgentFace>;
  factions: Map<number, FactionInfo>;
}
const indexes = new WeakMap<object, Index>();

function index(data: Data): Index | undefined {
  if (!data || typeof data !== "object") return undefined;
  let ix = indexes.get(data);
  if (!ix) {
    ix = {
      objectives: new Map((data.objectives ?? []).map((o) => [o.id, o])),
      groups: new Map((data.groups ?? []).map((g) => [g.id, g])),
      agents: new Map((data.agents ?? []).map((a) => [a.kind, a])),
      factions: new Map((data.factions ?? []).map((f) => [f.faction, f])),
    };
    indexes.set(data, ix);
  }
  return ix;
}

/**
 * The objective card with this id; null for "" (no objective). Without the static data (a game
 * list not yet arrived) the id stands in for the name and the numbers are 0, so the board still
 * says something true.
 */
export function objectiveFace(data: Data, id: string | null | undefined): ObjectiveFace | null {
  if (!id) return null;
  return index(data)?.objectives.get(id) ?? {
    id, name: id, stability: 0, population: 0, vp: 0, bias: [], event: EventAbility.NONE, event_phase: 0, ability: "", flavour: "",
  };
}

export function isObjectiveId(data: Data, id: string): boolean {
  return !!index(data)?.objectives.has(id);
}

export function groupFace(data: Data, id: string): GroupFace {
  return index(data)?.groups.get(id) ?? { id, name: id, faction: Faction.UNSPECIFIED, influence: 0 };
}

export function agentFace(data: Data, kind: number): AgentFace {
  return index(data)?.agents.get(kind) ?? {
    kind, name: `Agent ${kind}`, initiative: 0, own: "", other: "", nobody: "", three_players_only: false,
  };
}

export function factionInfo(data: Data, faction: number): FactionInfo {
  return index(data)?.factions.get(faction) ?? { faction, name: FACTION_NAME[faction] ?? "Group", power: "" };
}

/** A group's faction power in words, for its tooltip. */
export function groupTitle(data: Data, id: string): string {
  const g = groupFace(data, id);
  const f = factionInfo(data, g.faction);
  const head = `${g.name} — ${f.name}, influence ${g.influence}`;
  return f.power ? `${head}. ${f.name} power: ${f.power}` : head;
}

/** One box of an agent's agenda: which service dominating makes it apply, and its text. */
export type AgentBox = { key: string; label: string; text: string; service?: number };

/** The order of the boxes on the printed sheets: red (KGB), blue (CIA), grey (MI6). */
const SHEET_ORDER = [2, 1, 3];

/**
 * The boxes of an agent's agenda as its card prints them: one box per service at the table, in
 * that service's colour (red KGB, blue CIA, grey MI6 with three players), then "nobody". The
 * owner's own colour carries the `own` text and the other colours the `other` text. Without an
 * owner (a card shown out of play) the boxes are own / other / nobody. Identical boxes are written
 * once.
 */
export function agentBoxes(a: AgentFace, owner = 0, services: readonly number[] = []): AgentBox[] {
  if (a.own && a.own === a.other && a.own === a.nobody) return [{ key: "any", label: "Whoever dominates", text: a.own }];
  const coloured = owner > 0 && services.length > 0;
  const boxes: AgentBox[] = coloured
    ? SHEET_ORDER.filter((s) => services.includes(s)).map((s) => ({
      key: SERVICE_SLUG[s], service: s, text: s === owner ? a.own : a.other,
      label: `${SERVICE_NAME[s]} dominates${s === owner ? " (own service)" : ""}`,
    }))
    : [
      { key: "own", label: "Your service dominates", text: a.own },
      { key: "other", label: "Another service dominates", text: a.other },
    ];
  boxes.push({ key: "nobody", label: "Nobody dominates", text: a.nobody });
  return boxes.filter((b) => b.text);
}

/** The services at the table (for the agents' coloured boxes). */
export function servicesInPlay(view: Draft<pb.View> | null | undefined): number[] {
  return (view?.players ?? []).map((p) => serviceOf(p));
}

// ----- influence -----

/** A player's influence as the view counts it (the engine adds the groups up; 0 if absent). */
export function playerInfluence(p: Partial<Player> | null | undefined): number {
  return p?.influence ?? 0;
}

export type InfluenceState = "none" | "under" | "exact" | "over";

/** Where an influence stands against the objective's stability. */
export function influenceState(influence: number, stability: number): InfluenceState {
  if (stability <= 0) return "none";
  return influence > stability ? "over" : influence === stability ? "exact" : "under";
}

// ----- the published moves, by the board element that offers them -----

/** Each agent kind by the key the published moves give it ("master_spy"). */
export const AGENT_KEY = lowerNames(pb.AgentKind, "AGENT_");

/** The agent kind of a published key, 0 for a key no kind has. */
export function agentOfKey(key: string): number {
  const hit = Object.entries(AGENT_KEY).find(([, k]) => k === key);
  return hit ? Number(hit[0]) : 0;
}

/**
 * The viewer's published roots as the desk draws them: the agent cards it may send, the seats it
 * may let open, Recruit and Pass, the Activate of each of its groups that has a move, and the
 * events it may use. A root the engine does not publish has no element, so nothing else is offered.
 */
export interface DeskMoves {
  /** The children of "Choose your Agent X": one per agent, keyed as AGENT_KEY. */
  agents: readonly MoveChoice[];
  /** The children of "Choose who opens": one per seat. */
  first: readonly MoveChoice[];
  recruit: MoveChoice | null;
  pass: MoveChoice | null;
  /** Group id → the root that activates it. */
  activate: ReadonlyMap<string, MoveChoice>;
  /** Objective id → the root that uses its event. */
  events: ReadonlyMap<string, MoveChoice>;
}

export function deskMoves(roots: readonly MoveChoice[], me: Draft<pb.Player> | null | undefined): DeskMoves {
  // A root acts on a card of the viewer's: its group (Activate) or its won objective (an event).
  const byCard = (ids: readonly (string | null | undefined)[]) => {
    const out = new Map<string, MoveChoice>();
    for (const id of ids) {
      const [hit] = id ? choicesForTarget(roots, { card: id }) : [];
      if (hit) out.set(id!, hit);
    }
    return out;
  };
  return {
    agents: movesAfter(roots, ["agent"]),
    first: movesAfter(roots, ["first"]),
    recruit: choiceByKey(roots, "recruit") ?? null,
    pass: choiceByKey(roots, "pass") ?? null,
    activate: byCard((me?.groups ?? []).map((g) => g.id)),
    events: byCard(me?.won ?? []),
  };
}

// ----- agents -----

export function agentsWithStatus(p: Draft<pb.Player> | null | undefined, status: number): number[] {
  return (p?.agents ?? []).filter((a) => a.status === status).map((a) => a.kind ?? 0);
}

export interface AgentSummary {
  headquarters: number[];
  agentX: number[];
  onLeave: number[];
  terminated: number[];
  detained: number[];
  /** Headquarters and Agent X together, face down: another player's between choice and reveal. */
  hidden: number;
  unrevealed: number[];
}

export function agentSummary(p: Draft<pb.Player> | null | undefined): AgentSummary {
  return {
    headquarters: agentsWithStatus(p, AgentStatus.IN_HEADQUARTERS),
    agentX: agentsWithStatus(p, AgentStatus.X),
    onLeave: agentsWithStatus(p, AgentStatus.ON_LEAVE),
    terminated: agentsWithStatus(p, AgentStatus.TERMINATED),
    detained: agentsWithStatus(p, AgentStatus.DETAINED),
    hidden: p?.hidden_agents ?? 0,
    unrevealed: [...(p?.unrevealed ?? [])].map(Number),
  };
}

export interface DebriefStepView {
  seat: number; agent: number; initiative: number; acted: boolean; removed: boolean; outcome: Text | null;
}

/** The last Debriefing's agents, in initiative order then seat (as the engine resolves them). */
export function debriefSteps(view: View | null | undefined): DebriefStepView[] {
  return [...(view?.debriefing ?? [])]
    .map((d) => ({ seat: d.seat ?? 0, agent: Number(d.agent ?? 0), initiative: d.initiative ?? 0, acted: !!d.acted, removed: !!d.removed, outcome: d.outcome }))
    .sort((a, b) => a.initiative - b.initiative || a.seat - b.seat);
}

/**
 * The coloured box (agentBoxes' key) that applied in the Debriefing on show: the service that
 * dominated that turn, or "nobody". Not `dominating`, which starts afresh with the next turn while
 * the Debriefing stays on show.
 */
export function dominatingBox(view: Draft<pb.View> | null | undefined): string {
  const dom = view?.debriefing_dominating;
  return dom == null || dom < 0 ? "nobody" : SERVICE_SLUG[serviceOf(playerOf(view, dom))] ?? "nobody";
}

export interface RevealedAgent { seat: number; kind: number; name: string; initiative: number }

/**
 * Every Agent X the viewer sees (its own, and the others' once revealed or seen by a Double
 * Agent), in the Debriefing's order: by initiative, then by seat.
 */
export function revealedAgents(view: View | null | undefined, data: Data, opts: { except?: number } = {}): RevealedAgent[] {
  const out: RevealedAgent[] = [];
  for (const p of view?.players ?? []) {
    if (p.seat === opts.except) continue;
    for (const kind of agentsWithStatus(p, AgentStatus.X)) {
      const a = agentFace(data, kind);
      out.push({ seat: p.seat, kind, name: a.name, initiative: a.initiative });
    }
  }
  return out.sort((a, b) => a.initiative - b.initiative || a.seat - b.seat);
}

// ----- planning -----

/** The seats whose Agent X is chosen (Planning), and those still choosing. */
export function planningStatus(view: View | null | undefined): { chosen: number[]; choosing: number[] } {
  const players = view?.players ?? [];
  return {
    chosen: players.filter((p) => p.chose_agent).map((p) => p.seat),
    choosing: players.filter((p) => !p.chose_agent).map((p) => p.seat),
  };
}

// ----- events -----

/** The events a player holds (won and not yet used). */
export function heldEvents(p: Player | null | undefined, data: Data): ObjectiveFace[] {
  return (p?.won ?? []).flatMap((id) => objectiveFace(data, id) ?? []).filter((o) => o.event !== EventAbility.NONE);
}

// ----- what the viewer looks at -----

export interface LookedCard { id: string; kind: "group" | "objective"; name: string; detail: string; faction: number }

/** `view.looking_at` as cards: groups (Media, Analyst) or objectives (Space Race), in order. */
export function lookedCards(view: View | null | undefined, data: Data): LookedCard[] {
  return (view?.looking_at ?? []).map((id): LookedCard => {
    if (isObjectiveId(data, id)) {
      const o = objectiveFace(data, id)!;
      return { id, kind: "objective", name: o.name, detail: `stability ${o.stability} · ${o.vp} VP`, faction: 0 };
    }
    const g = groupFace(data, id);
    return { id, kind: "group", name: g.name, detail: `${FACTION_NAME[g.faction] ?? "?"} · influence ${g.influence}`, faction: g.faction };
  });
}

// ----- the score track -----

/** A score's place on the track to the goal, in percent (0 to 100). */
export function trackPercent(score: number, goal: number): number {
  if (goal <= 0) return 0;
  return Math.max(0, Math.min(100, (score / goal) * 100));
}

// ----- the banner -----

export interface Banner { text: string; mine: boolean; over: boolean }

/**
 * What the banner says to `seat`. `canMove`: its view publishes moves (it is this seat's turn to
 * make one), the only thing that makes a move "yours".
 */
export function bannerFor(view: View, seat: number, names: readonly string[], opts: {
  gameOver: boolean; readOnly: boolean; asked: boolean; acting: readonly number[]; canMove: boolean;
}): Banner {
  const phase = view?.phase ?? 0;
  if (opts.gameOver || phase === Phase.GAME_OVER) {
    const w: number[] = view?.winners ?? [];
    const who = w.map((s) => playerName(names, s)).join(" and ");
    return { text: w.length ? `Game over — ${who} ${w.length > 1 ? "share the win" : "wins"}` : "Game over", mine: false, over: true };
  }
  const me = playerOf(view, seat);
  const live = !opts.readOnly && !!me;
  const moving = live && opts.canMove;
  if (live && opts.asked) return { text: "Your decision — answer the question below", mine: true, over: false };
  const others = (seats: readonly number[]) => seats.filter((s) => s !== seat || !live).map((s) => playerName(names, s)).join(", ");
  if (phase === Phase.PLANNING) {
    if (moving) return { text: "Planning — choose your Agent X in secret", mine: true, over: false };
    if (live && !me.chose_agent && me.sees_next) {
      return { text: "Your Double Agent watches: you choose once the others have", mine: false, over: false };
    }
    const { choosing } = planningStatus(view);
    return { text: choosing.length ? `Planning — waiting for ${others(choosing)} to choose an Agent X` : "Planning", mine: false, over: false };
  }
  if (phase === Phase.STRUGGLE) {
    if (view.to_act < 0) {
      if (moving) return { text: "You hold the balance token — choose who opens the struggle", mine: true, over: false };
      return { text: `${playerName(names, view.balance)} chooses who opens the struggle`, mine: false, over: false };
    }
    if (moving) {
      return { text: "Your move — recruit, activate a group, use an event or pass", mine: true, over: false };
    }
    const waiting = opts.acting.length ? opts.acting : [view.to_act];
    return { text: `Influence Struggle — ${others(waiting) || playerName(names, view.to_act)} to act`, mine: false, over: false };
  }
  const busy = opts.acting.filter((s) => s !== seat || !live);
  const name = PHASE_NAME[phase] ?? "…";
  return { text: busy.length ? `${name} — waiting for ${others(busy)}` : name, mine: false, over: false };
}
