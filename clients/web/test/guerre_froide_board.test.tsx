// @vitest-environment happy-dom
// Guerre Froide's board against the moves a view publishes: what it offers, what it highlights at
// each step, Back and Cancel, and the action it sends (kit/moves.ts's, never one built by hand).
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Board } from "../src/games/guerre_froide/Board";
import { Faction, Phase, type Player, type StaticData, type View } from "../src/games/guerre_froide/model";
import { buildMove, moveAt, type MoveChoice } from "../src/ui/kit/moves";
import { makeCatalogue, TextProvider } from "../src/ui/TextRender";

const ACTION = "plateau.games.guerre_froide.Action";
const DATA = {
  objectives: [{ id: "cuba", name: "Cuba", stability: 10, population: 3, vp: 10, bias: [], event: 0, event_phase: 0, ability: "", flavour: "" }],
  groups: [
    { id: "army", name: "Army", faction: Faction.MILITARY, influence: 6 },
    { id: "mafia", name: "Mafia", faction: Faction.ECONOMIC, influence: 2 },
    { id: "radio", name: "Radio", faction: Faction.MEDIA, influence: 5 },
    { id: "banks", name: "Banks", faction: Faction.ECONOMIC, influence: 6 },
  ],
  agents: [], factions: [],
} as unknown as StaticData;

// A published node; a leaf's action is left empty: the board must send whatever buildMove makes of it.
const node = (key: string, over: Partial<MoveChoice> = {}): MoveChoice =>
  ({ key, label: { key: `m.${key}`, args: [] }, target: null, action: new Uint8Array(), next: [], params: [], next_label: null, key_target: 0, next_paths: [], ...over });
const card = (id: string, over: Partial<MoveChoice> = {}) => node(id, { target: { card: id }, ...over });

// Seat 0 holds Army, Mafia (mobilized) and Radio; seat 1 Banks. The engine lists Army's targets
// (Banks, Radio) and Radio (Media, a leaf), nothing for the mobilized Mafia, and no Pass.
const MOVES = [node("recruit"), card("army", { next: [card("banks"), card("radio")] }), card("radio")];

function player(seat: number, groups: { id: string; mobilized?: boolean }[]): Player {
  return {
    seat, service: seat + 1, score: 0, groups: groups.map((g) => ({ id: g.id, mobilized: !!g.mobilized })), influence: 0,
    agents: [], hidden_agents: 0, chose_agent: true, passed: false, won: [], civil_disorder: false, sees_next: false,
    analyst_next: false, unrevealed: [],
  };
}
function view(you: number, moves: MoveChoice[]): View {
  return {
    you, turn: 1, phase: Phase.STRUGGLE, goal: 100, objective: "cuba", objective_deck: 20, objective_discard: [], group_deck: 18,
    group_discard: [], balance: 0, to_act: 0, dominating: -1, claimed_by: -1, winners: [], cryptographer: 0, looking_at: [],
    debriefing: [], debriefing_dominating: -1,
    players: [player(0, [{ id: "army" }, { id: "mafia", mobilized: true }, { id: "radio" }]), player(1, [{ id: "banks" }])],
    table: { moves, prompts: [], log: [] },
  } as unknown as View;
}

let host: HTMLElement;
function mount(v: View, submit = vi.fn(async (_: object) => {})) {
  host = document.createElement("div");
  document.body.append(host);
  act(() => {
    render(
      <TextProvider scope={{ catalogue: makeCatalogue({}), names: ["Ann", "Bob"], viewer: v.you }}>
        <Board view={v} seat={v.you} names={["Ann", "Bob"]} acting={[0]} gameOver={false} readOnly={false}
          submit={submit} actionType={ACTION} gameData={DATA} />
      </TextProvider>,
      host,
    );
  });
  return submit;
}
afterEach(() => {
  render(null, host);
  host.remove();
});
const $ = (sel: string) => host.querySelector<HTMLElement>(sel);
const attrs = (sel: string, a: string) => [...host.querySelectorAll(sel)].map((e) => e.getAttribute(a));
const click = (sel: string) => act(() => { $(sel)!.click(); });
// A click whose move is sent: the send and what follows it (the pick dropped) settle first.
const clickAndSettle = (sel: string) => act(async () => {
  $(sel)!.click();
  await new Promise((r) => setTimeout(r, 0));
});
const lit = () => attrs("[data-testid=group][data-target=true]", "data-id").sort();

describe("Guerre Froide's board offers the published moves", () => {
  it("offers Activate on the listed groups only, and Recruit and Pass as listed", () => {
    mount(view(0, MOVES));
    expect(attrs("[data-testid=activate]", "data-group")).toEqual(["army", "radio"]);
    expect(($("[data-testid=recruit]") as HTMLButtonElement).disabled).toBe(false);
    expect(($("[data-testid=pass]") as HTMLButtonElement).disabled).toBe(true);
    expect(lit()).toEqual([]);
  });

  it("highlights the step's targets, goes back and cancels", () => {
    mount(view(0, MOVES));
    click("[data-testid=activate][data-group=army]");
    expect($("[data-testid=pick-mode]")!.getAttribute("data-path")).toBe("army");
    expect(lit()).toEqual(["banks", "radio"]);
    expect(attrs("[data-testid=move-choice]", "data-key")).toEqual(["banks", "radio"]);
    expect($("[data-testid=recruit]")).toBeNull();
    click("[data-testid=move-back]");
    expect($("[data-testid=pick-mode]")).toBeNull();
    expect(lit()).toEqual([]);
    click("[data-testid=activate][data-group=army]");
    click("[data-testid=move-cancel]");
    expect($("[data-testid=pick-mode]")).toBeNull();
    expect($("[data-testid=recruit]")).not.toBeNull();
  });

  it("sends kit/moves.ts's action for the leaf a click on the board reaches", async () => {
    const submit = mount(view(0, MOVES));
    click("[data-testid=activate][data-group=army]");
    await clickAndSettle("[data-testid=group][data-id=banks]");
    expect(submit).toHaveBeenCalledTimes(1);
    expect(submit.mock.calls[0][0]).toEqual(buildMove(ACTION, moveAt(MOVES, ["army", "banks"])).action);
    // A leaf at the roots (a Media group) is sent at once.
    expect($("[data-testid=pick-mode]")).toBeNull();
    await clickAndSettle("[data-testid=activate][data-group=radio]");
    expect(submit.mock.calls[1][0]).toEqual(buildMove(ACTION, moveAt(MOVES, ["radio"])).action);
  });

  it("takes a step's seats as clicks on the players' files", async () => {
    const give = [card("army", { next: [card("banks", { next: [node("0", { target: { seat: 0 } }), node("1", { target: { seat: 1 } })] })] })];
    const submit = mount(view(0, give));
    click("[data-testid=activate][data-group=army]");
    click("[data-testid=group][data-id=banks]");
    expect($("[data-testid=pick-mode]")!.getAttribute("data-path")).toBe("army/banks");
    expect(lit()).toEqual([]);
    expect(attrs("[data-testid=seat-target]", "data-seat").sort()).toEqual(["0", "1"]);
    await clickAndSettle("[data-testid=seat-target][data-seat='1']");
    expect(submit.mock.calls[0][0]).toEqual(buildMove(ACTION, moveAt(give, ["army", "banks", "1"])).action);
    expect(host.querySelectorAll("[data-testid=seat-target]").length).toBe(0);
  });

  it("offers nothing to a seat whose view publishes no moves", () => {
    mount(view(1, []));
    for (const sel of ["[data-testid=activate]", "[data-testid=recruit]", "[data-testid=pass]", "[data-testid=use-event]",
      "[data-testid=pick-mode]", "[data-testid=seat-target]", "button[data-testid=group]", "[data-testid=group][data-target=true]"]) {
      expect(host.querySelectorAll(sel).length, sel).toBe(0);
    }
    expect($("[data-testid=turn-banner]")!.getAttribute("data-my-turn")).toBe("false");
  });
});
