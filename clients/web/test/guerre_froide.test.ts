import { describe, expect, it } from "vitest";
import {
  AGENT_KEY, AgentKind, AgentStatus, EventAbility, Faction, Phase,
  agentBoxes, agentFace, agentOfKey, agentSummary, bannerFor, deskMoves, dominatingBox, servicesInPlay,
  groupFace, groupTitle, heldEvents, influenceState, lookedCards,
  debriefSteps, objectiveFace, planningStatus, playerInfluence, revealedAgents, serviceName,
  trackPercent, type Player, type StaticData, type View,
} from "../src/games/guerre_froide/model";
import type { MoveChoice } from "../src/ui/kit/moves";
import { decode, encode, type } from "../src/proto";

// A slice of the printed cards (engine/games/guerre_froide/data/cards.textproto).
const F = Faction;
const DATA = {
  objectives: [
    { id: "cuba", name: "Cuba", stability: 10, population: 3, vp: 10, bias: [F.ECONOMIC, F.MILITARY, F.POLITICAL, F.MEDIA], event: 0, event_phase: 0, ability: "", flavour: "1962" },
    { id: "honduras", name: "Honduras", stability: 4, population: 1, vp: 14, bias: [F.ECONOMIC, F.MILITARY, F.MEDIA, F.POLITICAL], event: 0, event_phase: 0, ability: "", flavour: "" },
    { id: "nuclear_escalation", name: "Nuclear Escalation", stability: 12, population: 4, vp: 8, bias: [F.MILITARY, F.MEDIA, F.POLITICAL, F.ECONOMIC], event: EventAbility.NUCLEAR_ESCALATION, event_phase: Phase.STRUGGLE, ability: "Discard up to two groups.", flavour: "" },
    { id: "live_benefit", name: "Live Benefit", stability: 8, population: 3, vp: 6, bias: [F.MEDIA, F.ECONOMIC, F.POLITICAL, F.MILITARY], event: EventAbility.LIVE_BENEFIT, event_phase: Phase.STRUGGLE, ability: "Recruit from the discard.", flavour: "" },
    { id: "olympic_games", name: "Olympic Games", stability: 14, population: 5, vp: 7, bias: [F.MEDIA, F.POLITICAL, F.ECONOMIC, F.MILITARY], event: EventAbility.OLYMPIC_GAMES, event_phase: Phase.STRUGGLE, ability: "Ready your groups.", flavour: "" },
    { id: "summit_meeting", name: "Summit Meeting", stability: 5, population: 2, vp: 5, bias: [F.POLITICAL, F.ECONOMIC, F.MEDIA, F.MILITARY], event: EventAbility.SUMMIT_MEETING, event_phase: Phase.PLANNING, ability: "Agents come home.", flavour: "" },
    { id: "space_race", name: "Space Race", stability: 13, population: 5, vp: 6, bias: [F.MEDIA, F.ECONOMIC, F.MILITARY, F.POLITICAL], event: EventAbility.SPACE_RACE, event_phase: Phase.DETENTE, ability: "Order the next objectives.", flavour: "" },
  ],
  groups: [
    { id: "army", name: "Army", faction: F.MILITARY, influence: 6 },
    { id: "militia", name: "Militia", faction: F.MILITARY, influence: 2 },
    { id: "mafia", name: "Mafia", faction: F.ECONOMIC, influence: 2 },
    { id: "banks", name: "Banks", faction: F.ECONOMIC, influence: 6 },
    { id: "radio", name: "Radio", faction: F.MEDIA, influence: 5 },
    { id: "church", name: "Church", faction: F.POLITICAL, influence: 3 },
    { id: "opposition", name: "Opposition", faction: F.POLITICAL, influence: 5 },
  ],
  agents: [
    { kind: AgentKind.MASTER_SPY, name: "Master Spy", initiative: 1, own: "It slips away.", other: "You claim it.", nobody: "No effect.", three_players_only: false },
    { kind: AgentKind.DEPUTY_DIRECTOR, name: "Deputy Director", initiative: 2, own: "No agenda.", other: "No agenda.", nobody: "No agenda.", three_players_only: false },
    { kind: AgentKind.DOUBLE_AGENT, name: "Double Agent", initiative: 3, own: "Pick one.", other: "Pick one.", nobody: "Pick one.", three_players_only: false },
    { kind: AgentKind.AMBASSADOR, name: "Ambassador", initiative: 5, own: "Detain one.", other: "Detain the winner's.", nobody: "No effect.", three_players_only: true },
    { kind: AgentKind.ASSASSIN, name: "Assassin", initiative: 5, own: "Terminate one.", other: "No effect.", nobody: "No effect.", three_players_only: false },
    { kind: AgentKind.DIRECTOR, name: "Director", initiative: 6, own: "Claim the bottom card.", other: "No effect.", nobody: "No effect.", three_players_only: false },
  ],
  factions: [
    { faction: F.MILITARY, name: "Military", power: "Discard one other group in play." },
    { faction: F.ECONOMIC, name: "Economic", power: "Flip one other non-economic group." },
    { faction: F.MEDIA, name: "Media", power: "Look at the top group." },
    { faction: F.POLITICAL, name: "Political", power: "Take a group or give one." },
  ],
};

const agents = (...list: [number, number][]) => list.map(([kind, status]) => ({ kind, status }));

function player(seat: number, over: Partial<Player> = {}): Player {
  return {
    seat, service: seat + 1, score: 0, groups: [], influence: 0, agents: [], hidden_agents: 0,
    chose_agent: false, passed: false, won: [] as string[], civil_disorder: false, sees_next: false, analyst_next: false,
    unrevealed: [], ...over,
  };
}

function view(over: Partial<View> = {}): View {
  return {
    you: 0, turn: 1, phase: Phase.STRUGGLE, goal: 100, objective: "cuba", objective_deck: 20, objective_discard: [],
    group_deck: 18, group_discard: [] as string[], players: [player(0), player(1)], balance: 0, to_act: 0, dominating: -1,
    claimed_by: -1, winners: [], cryptographer: 0, looking_at: [] as string[], debriefing: [], debriefing_dominating: -1,
    table: null, ...over,
  };
}

const g = (id: string, mobilized = false) => ({ id, mobilized });

describe("the printed cards by id", () => {
  it("finds an objective, a group, an agent and a faction's power", () => {
    expect(objectiveFace(DATA, "cuba")).toMatchObject({ name: "Cuba", stability: 10, population: 3, vp: 10 });
    expect(objectiveFace(DATA, "cuba")!.bias).toEqual([F.ECONOMIC, F.MILITARY, F.POLITICAL, F.MEDIA]);
    expect(groupFace(DATA, "army")).toMatchObject({ faction: F.MILITARY, influence: 6 });
    expect(agentFace(DATA, AgentKind.ASSASSIN).initiative).toBe(5);
    expect(groupTitle(DATA, "radio")).toBe("Radio — Media, influence 5. Media power: Look at the top group.");
  });

  it("says no objective for an empty id, and the id itself for an unknown card or missing data", () => {
    expect(objectiveFace(DATA, "")).toBeNull();
    expect(objectiveFace(undefined, "berlin")).toMatchObject({ id: "berlin", name: "berlin", stability: 0, event: EventAbility.NONE });
    expect(groupFace(undefined, "navy")).toMatchObject({ name: "navy", influence: 0 });
    expect(agentFace(undefined, 7).name).toBe("Agent 7");
  });

  it("writes identical agenda boxes once", () => {
    expect(agentBoxes(agentFace(DATA, AgentKind.DEPUTY_DIRECTOR))).toEqual([{ key: "any", label: "Whoever dominates", text: "No agenda." }]);
    expect(agentBoxes(agentFace(DATA, AgentKind.MASTER_SPY)).map((b) => b.key)).toEqual(["own", "other", "nobody"]);
  });

  it("colours an agent's boxes by the service that dominates, as the printed sheets do", () => {
    const spy = agentFace(DATA, AgentKind.MASTER_SPY);
    // A CIA (1) agent with two players: red KGB box (another service), blue CIA box (its own).
    const two = agentBoxes(spy, 1, [2, 1]);
    expect(two.map((b) => b.key)).toEqual(["kgb", "cia", "nobody"]);
    expect(two[0].text).toBe(spy.other);
    expect(two[1].text).toBe(spy.own);
    expect(two[1].label).toContain("own service");
    expect(two[2].text).toBe(spy.nobody);
    // An MI6 (3) agent with three players: its own box is the grey one.
    const three = agentBoxes(spy, 3, [2, 1, 3]);
    expect(three.map((b) => b.key)).toEqual(["kgb", "cia", "mi6", "nobody"]);
    expect(three.map((b) => b.text)).toEqual([spy.other, spy.other, spy.own, spy.nobody]);
    // A KGB agent's grey box, with three players, is another service's.
    expect(agentBoxes(spy, 2, [2, 1, 3])[2]).toMatchObject({ key: "mi6", text: spy.other });
    // Boxes that say the same are written once, coloured or not.
    expect(agentBoxes(agentFace(DATA, AgentKind.DEPUTY_DIRECTOR), 1, [2, 1]).map((b) => b.key)).toEqual(["any"]);
  });

  it("reads the static data as the server sends it (decoded StaticData)", () => {
    const T = type("plateau.games.guerre_froide.StaticData");
    const data = decode<StaticData>(T, encode(T, DATA));
    expect(objectiveFace(data, "summit_meeting")).toMatchObject({ event: EventAbility.SUMMIT_MEETING, event_phase: Phase.PLANNING });
    expect(groupFace(data, "church").faction).toBe(F.POLITICAL);
    expect(agentFace(data, AgentKind.AMBASSADOR).three_players_only).toBe(true);
  });
});

describe("influence", () => {
  it("reads the view's total, never adding the cards up itself", () => {
    expect(playerInfluence({ groups: [g("army"), g("radio")], influence: 6 })).toBe(6);
    expect(playerInfluence({ groups: [g("army")] })).toBe(0);
    expect(playerInfluence(null)).toBe(0);
  });

  it("stands under, exactly on or over the stability", () => {
    expect(influenceState(9, 10)).toBe("under");
    expect(influenceState(10, 10)).toBe("exact");
    expect(influenceState(11, 10)).toBe("over");
    expect(influenceState(3, 0)).toBe("none");
  });
});

// A published node as the view carries it; the board never reads a leaf's action, so none is set.
const node = (key: string, over: Partial<MoveChoice> = {}): MoveChoice =>
  ({ key, label: { key: `m.${key}`, args: [] }, target: null, action: new Uint8Array(), next: [], params: [], next_label: null, key_target: 0, next_paths: [], ...over });
const card = (id: string, over: Partial<MoveChoice> = {}) => node(id, { target: { card: id }, ...over });

describe("the published moves, by the board element that offers them", () => {
  // Seat 0 holds Army, Mafia (mobilized) and Radio, and won Nuclear Escalation and Cuba.
  const me = player(0, { groups: [g("army"), g("mafia", true), g("radio")], won: ["nuclear_escalation", "cuba"] });

  it("offers nothing without published moves (a spectator, or a seat that may not act)", () => {
    const m = deskMoves([], me);
    expect([m.agents.length, m.first.length, m.activate.size, m.events.size]).toEqual([0, 0, 0, 0]);
    expect(m.recruit).toBeNull();
    expect(m.pass).toBeNull();
  });

  it("gives Activate only to the viewer's groups the engine lists, an event only to an objective it won", () => {
    const roots = [
      node("recruit"), node("pass"),
      card("army", { next: [card("banks"), card("radio")] }),
      card("radio"),  // Media: a leaf
      card("nuclear_escalation", { next: [card("army", { next: [node("none"), card("banks")] })] }),
      card("banks"),  // not the viewer's group: no Activate of its own
    ];
    const m = deskMoves(roots, me);
    expect(m.recruit?.key).toBe("recruit");
    expect(m.pass?.key).toBe("pass");
    // Mafia is mobilized: the engine lists no move for it, so it has no button.
    expect([...m.activate.keys()]).toEqual(["army", "radio"]);
    expect(m.activate.get("army")).toBe(roots[2]);
    expect([...m.events.keys()]).toEqual(["nuclear_escalation"]);
    expect(m.events.get("nuclear_escalation")).toBe(roots[4]);
  });

  it("reads the agents and the seats that may open from their steps", () => {
    const roots = [
      node("agent", { next: [card("deputy_director"), card("master_spy")] }),
      node("first", { next: [node("0", { target: { seat: 0 } }), node("1", { target: { seat: 1 } })] }),
    ];
    const m = deskMoves(roots, player(0));
    expect(m.agents.map((c) => agentOfKey(c.key))).toEqual([AgentKind.DEPUTY_DIRECTOR, AgentKind.MASTER_SPY]);
    expect(m.first.map((c) => c.key)).toEqual(["0", "1"]);
    expect(m.recruit).toBeNull();
  });

  it("keys each agent kind as the engine does, and back", () => {
    expect(AGENT_KEY[AgentKind.MASTER_SPY]).toBe("master_spy");
    expect(agentOfKey("deputy_director")).toBe(AgentKind.DEPUTY_DIRECTOR);
    expect(agentOfKey("nobody")).toBe(0);
    for (const [kind, key] of Object.entries(AGENT_KEY)) expect(agentOfKey(key)).toBe(Number(kind));
  });
});

describe("agents", () => {
  const me = player(0, {
    agents: agents(
      [AgentKind.MASTER_SPY, AgentStatus.ON_LEAVE], [AgentKind.DEPUTY_DIRECTOR, AgentStatus.IN_HEADQUARTERS],
      [AgentKind.DOUBLE_AGENT, AgentStatus.X], [AgentKind.ASSASSIN, AgentStatus.TERMINATED],
      [AgentKind.DIRECTOR, AgentStatus.IN_HEADQUARTERS], [AgentKind.AMBASSADOR, AgentStatus.DETAINED],
    ),
  });

  it("sorts a player's agents by status", () => {
    expect(agentSummary(me)).toEqual({
      headquarters: [AgentKind.DEPUTY_DIRECTOR, AgentKind.DIRECTOR], agentX: [AgentKind.DOUBLE_AGENT], onLeave: [AgentKind.MASTER_SPY],
      terminated: [AgentKind.ASSASSIN], detained: [AgentKind.AMBASSADOR], hidden: 0, unrevealed: [],
    });
  });

  it("counts another player's hidden agents without naming them", () => {
    const other = player(1, { hidden_agents: 5, agents: agents([AgentKind.MASTER_SPY, AgentStatus.ON_LEAVE]) });
    const s = agentSummary(other);
    expect(s.hidden).toBe(5);
    expect(s.headquarters).toEqual([]);
    expect(s.agentX).toEqual([]);
    expect(s.onLeave).toEqual([AgentKind.MASTER_SPY]);
  });

  it("reveals the Agents X in the debriefing's order: initiative, then seat", () => {
    const v = view({
      phase: Phase.DEBRIEFING,
      players: [
        player(0, { agents: agents([AgentKind.DIRECTOR, AgentStatus.X]) }),
        player(1, { agents: agents([AgentKind.ASSASSIN, AgentStatus.X]) }),
        player(2, { agents: agents([AgentKind.AMBASSADOR, AgentStatus.X], [AgentKind.MASTER_SPY, AgentStatus.TERMINATED]) }),
      ],
    });
    expect(revealedAgents(v, DATA).map((r) => [r.seat, r.name])).toEqual([[1, "Assassin"], [2, "Ambassador"], [0, "Director"]]);
    expect(revealedAgents(v, DATA, { except: 1 }).map((r) => r.seat)).toEqual([2, 0]);
  });

  it("tells which box applies", () => {
    const view = { players: [{ seat: 0, service: 2 }, { seat: 1, service: 1 }, { seat: 2, service: 3 }] };
    expect(dominatingBox({ ...view, debriefing_dominating: 2 })).toBe("mi6");
    expect(dominatingBox({ ...view, debriefing_dominating: 0 })).toBe("kgb");
    expect(dominatingBox({ ...view, debriefing_dominating: -1 })).toBe("nobody");
    // The next turn has begun (nobody dominates it yet): the Debriefing shown keeps its box.
    expect(dominatingBox({ ...view, dominating: -1, debriefing_dominating: 1 })).toBe("cia");
    expect(servicesInPlay(view)).toEqual([2, 1, 3]);
  });
});

describe("planning", () => {
  it("shows who has chosen, nothing more", () => {
    const v = view({ phase: Phase.PLANNING, players: [player(0, { chose_agent: true }), player(1), player(2, { chose_agent: true })] });
    expect(planningStatus(v)).toEqual({ chosen: [0, 2], choosing: [1] });
  });

});

describe("events", () => {
  it("lists the events held, not the nations", () => {
    expect(heldEvents(player(0, { won: ["cuba", "live_benefit", "space_race"] }), DATA).map((o) => o.id)).toEqual(["live_benefit", "space_race"]);
  });

});

describe("what the viewer looks at", () => {
  it("tells groups from objectives", () => {
    expect(lookedCards(view({ looking_at: ["radio", "army"] }), DATA).map((c) => [c.kind, c.name])).toEqual([["group", "Radio"], ["group", "Army"]]);
    expect(lookedCards(view({ looking_at: ["space_race", "cuba"] }), DATA).map((c) => c.kind)).toEqual(["objective", "objective"]);
    expect(lookedCards(view(), DATA)).toEqual([]);
  });
});

describe("the score track and the banner", () => {
  it("places a score on the track to the goal", () => {
    expect(trackPercent(50, 100)).toBe(50);
    expect(trackPercent(130, 65)).toBe(100);
    expect(trackPercent(0, 0)).toBe(0);
  });

  it("names the services by seat", () => {
    expect([0, 1, 2].map((s) => serviceName(player(s)))).toEqual(["CIA", "KGB", "MI6"]);
    expect(serviceName({ seat: 2, service: 0 })).toBe("MI6");
  });

  const names = ["Ann", "Boris", "Clive"];
  const opts = { gameOver: false, readOnly: false, asked: false, acting: [] as number[], canMove: false };
  const moving = { ...opts, canMove: true };

  it("asks for the Agent X, then waits for the others", () => {
    const v = view({ phase: Phase.PLANNING, players: [player(0), player(1)] });
    expect(bannerFor(v, 0, names, { ...moving, acting: [0, 1] })).toMatchObject({ mine: true, text: "Planning — choose your Agent X in secret" });
    const chosen = view({ phase: Phase.PLANNING, players: [player(0, { chose_agent: true }), player(1)] });
    expect(bannerFor(chosen, 0, names, { ...opts, acting: [1] })).toMatchObject({ mine: false, text: "Planning — waiting for Boris to choose an Agent X" });
  });

  it("tells a Double Agent's seer without moves yet that it chooses after the others", () => {
    const v = view({ phase: Phase.PLANNING, players: [player(0, { sees_next: true }), player(1)] });
    expect(bannerFor(v, 0, names, { ...opts, acting: [1] })).toMatchObject({ mine: false, text: expect.stringContaining("Double Agent watches") });
    expect(bannerFor(v, 0, names, { ...moving, acting: [0] }).mine).toBe(true);
  });

  it("makes a move the viewer's only when its view publishes moves", () => {
    // The seat to act whose moves are not (yet) published, as while another seat answers a question.
    expect(bannerFor(view({ to_act: 0 }), 0, names, { ...opts, acting: [1] }).mine).toBe(false);
    expect(bannerFor(view({ phase: Phase.PLANNING }), 0, names, { ...opts, acting: [0] }).mine).toBe(false);
  });

  it("gives the balance token's holder the opening, then the player to act", () => {
    expect(bannerFor(view({ to_act: -1, balance: 0 }), 0, names, { ...moving, acting: [0] }).mine).toBe(true);
    expect(bannerFor(view({ to_act: -1, balance: 0 }), 1, names, { ...opts, acting: [0] }).text).toBe("Ann chooses who opens the struggle");
    expect(bannerFor(view({ to_act: 0 }), 0, names, { ...moving, acting: [0] }).mine).toBe(true);
    expect(bannerFor(view({ to_act: 1 }), 0, names, { ...opts, acting: [1] }).text).toBe("Influence Struggle — Boris to act");
    expect(bannerFor(view({ to_act: 0 }), 0, names, { ...opts, asked: true, acting: [0] }).text).toContain("answer the question");
  });

  it("names the winners at the end", () => {
    expect(bannerFor(view({ phase: Phase.GAME_OVER, winners: [1] }), 0, names, opts)).toMatchObject({ over: true, text: "Game over — Boris wins" });
    expect(bannerFor(view({ phase: Phase.GAME_OVER, winners: [0, 2] }), 0, names, opts).text).toBe("Game over — Ann and Clive share the win");
  });
});

describe("a decoded view", () => {
  it("reads the server's View as the plain objects above", () => {
    const View = type("plateau.games.guerre_froide.View");
    const v = decode<any>(View, encode(View, view({
      players: [
        player(0, { groups: [g("army"), g("church", true)], influence: 9, agents: agents([AgentKind.DIRECTOR, AgentStatus.X]) }),
        player(1, { hidden_agents: 6, chose_agent: true }),
      ],
    }) as unknown as Record<string, unknown>));
    expect(playerInfluence(v.players[0])).toBe(9);
    expect(agentSummary(v.players[0]).agentX).toEqual([AgentKind.DIRECTOR]);
    expect(agentSummary(v.players[1]).hidden).toBe(6);
  });
});

describe("the last Debriefing", () => {
  it("lists the agents in initiative order, then seat, with what each did", () => {
    const v = view({
      debriefing: [
        { seat: 1, agent: 6, initiative: 5, acted: true, removed: false, outcome: { key: "guerre_froide.assassin", args: [] } },
        { seat: 0, agent: 1, initiative: 1, acted: true, removed: true, outcome: { key: "guerre_froide.master_spy", args: [] } },
        { seat: 2, agent: 5, initiative: 5, acted: false, removed: false, outcome: { key: "guerre_froide.no_effect", args: [] } },
      ],
    });
    const steps = debriefSteps(v);
    expect(steps.map((s) => [s.initiative, s.seat])).toEqual([[1, 0], [5, 1], [5, 2]]);
    expect(steps[0].removed).toBe(true);
    expect(steps[2].acted).toBe(false);
    expect(steps[1].outcome?.key).toBe("guerre_froide.assassin");
  });

  it("is empty before any Debriefing", () => {
    expect(debriefSteps(view())).toEqual([]);
    expect(debriefSteps(null)).toEqual([]);
  });

  it("shows another player's agents still in play as one pool while its Agent X is secret", () => {
    const s = agentSummary({ hidden_agents: 3, unrevealed: [1, 2, 6], agents: [{ kind: 4, status: 2 }] });
    expect(s.hidden).toBe(3);
    expect(s.unrevealed).toEqual([1, 2, 6]);
    expect(s.onLeave).toEqual([4]);
    expect(s.agentX).toEqual([]);
  });
});
