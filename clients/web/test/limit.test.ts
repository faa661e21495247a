import { describe, expect, it } from "vitest";
import {
  PromptKind, bannerFor, cardOptions, decisionFacts, disorderZone, handPlays, keepToggle, paramWords, pickedCards, printedCard,
  scoreRanks, scoreValue, withNames, withStatic,
} from "../src/games/limit/model";
import type { MoveChoice } from "../src/ui/kit/moves";
import { type Msg, decode, encode, type } from "../src/proto";
import type { BoardView, Card, Decision, Nation, ScoreLine } from "../src/games/limit/model";
import type * as limitpb from "../src/gen/games/limit";
import { PromptKind as CoreKind, type Prompt } from "../src/table";
import { answerAction, answerProblem, draftAnswer, initialDraft, toggleChoice } from "../src/ui/prompt";

const PRICES = [1, 2, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20];

function nation(seat: number, over: Record<string, unknown> = {}): Nation {
  return <Nation><unknown>{
    seat, population_rank: 2, population: 2, renewable_rank: 2, renewable_output: 2, industrial_rank: 1, industrial_output: 1,
    military_rank: 1, military_output: 1, classes: [1, 1, 1, 1, 1], transition_tile_on_row: [true, true, true, true, true],
    disorder: 5, stocks: { renewable: 2, industrial: 1, military: 0, fossil: 8 }, money: 5, pollution: 0, destabilisation: 0,
    territories: 5, hand_size: 4, hand_limit: 5, permanents: [], set_aside: [], played_this_generation: [], passed: false,
    deck_sizes: [10, 10, 10], military_alliance_group: 0, economic_alliance_group: 0, ...over,
  };
}

// The printed tracks as the engine's View sends them (limit.proto Board).
const FACTORY_TRACK = [1, 2, 3, 5, 10, 20, 30, 50];
const BOARD = {
  population: [1, 2, 3, 5, 10, 20, 30, 50, 100],
  demographic_index: [1, 1, 1, 2, 2, 3, 4, 5, 5],
  tracks: [1, 2, 3].map((f) => ({
    factory: f, value: FACTORY_TRACK, fossil: f === 1 ? [] : [0, 0, 0, 1, 2, 3, 4, 5], pollution: f === 1 ? [] : [0, 0, 0, 1, 1, 2, 2, 3],
  })),
  territory_rank_bonus: 1,
};

function view(over: Record<string, unknown> = {}): BoardView {
  return <BoardView><unknown>{
    board: BOARD, you: 0, generation: 1, phase: 3, leader: 0, turn: 0, solo: false, world_bank: 218,
    nations: [nation(0), nation(1)], hand: [], prompts: [],
    market: { tracks: [1, 2, 3, 4].map((r) => ({ resource: r, position: r === 1 ? 2 : 3, prices: PRICES, market_stock: 3 })) },
    ...over,
  };
}

const card = (key: string, over: Record<string, unknown> = {}): Card =>
  <Card><unknown>{ id: 7, key, name: key, name_en: key, params: [] as string[], ...over };
/** One of LIMIT's decisions as a test writes it: the fields it names. */
const decision = (o: Record<string, unknown>): Decision => <Decision><unknown>o;

// Core questions as LIMIT's engine asks them (limit_play.cc GamePrompts): card options are named
// by index ("d0"…) when kept from a draw, by card id when discarded, each with its card as target.
function corePrompt(kind: number, options: { id: string; card?: number }[], over: Partial<Prompt> = {}): Prompt {
  return {
    id: "c12.0", seat: 0, kind, title: { key: "limit.q", args: [] }, detail: null, min: 1, max: 1, option_set: "",
    options: options.map((o) => ({ id: o.id, label: { key: "limit.card", args: [{ name: o.id }] }, target: o.card != null ? { card: String(o.card) } : null })),
    ...over,
  };
}

describe("what the board says beside a core question", () => {
  it("counts the cards left in each deck offered", () => {
    const v = view({ nations: [nation(0, { deck_sizes: [10, 1, 0] }), nation(1)] });
    expect(decisionFacts(decision({ kind: PromptKind.CHOOSE_DECK, seat: 0, options: [1, 2] }), v).map((f) => f.text))
      .toEqual(["👥 Society: 10 cards left", "⚔️ Army & Economy: 1 card left"]);
  });

  it("shows what each class option changes", () => {
    const v = view({ nations: [nation(0, { classes: [3, 2, 2, 1, 1] }), nation(1)] });
    expect(decisionFacts(decision({ kind: PromptKind.LOWER_CLASS, seat: 0, options: [0, 2] }), v).map((f) => f.text))
      .toEqual(["Class A: 3 → 2", "Class C: 2 → 1"]);
    expect(decisionFacts(decision({ kind: PromptKind.RAISE_CLASS, seat: 0, options: [1] }), v)[0].text).toBe("Class B: 2 → 3");
  });

  it("tells a growth factory going down from one going up by the prompt's flag", () => {
    const v = view({ nations: [nation(0, { industrial_rank: 3, military_rank: 2 }), nation(1)] });
    const up = decisionFacts(decision({ kind: PromptKind.GROWTH_FACTORY, seat: 0, options: [2, 3] }), v);
    expect(up[0].text).toBe("Industrial factory: rank 3 → 4 (output 3 → 5)");
    const down = decisionFacts(decision({ kind: PromptKind.GROWTH_FACTORY, seat: 0, options: [2, 3], factory_down: true }), v);
    expect(down[1].text).toBe("Military factory: rank 2 → 1 (output 2 → 1)");
    expect(decisionFacts(decision({ kind: PromptKind.LOWER_FACTORY, seat: 0, options: [2] }), v)[0].text).toContain("rank 3 → 2");
  });

  it("gives the military held beside what resisting spends", () => {
    const p = decision({ kind: PromptKind.RESIST, seat: 0, amount: 10, from_seat: 1 });
    const rich = decisionFacts(p, view({ nations: [nation(0, { stocks: { military: 12 } }), nation(1)] }));
    expect(rich).toEqual([{ key: "military", text: "You hold 12 military: resisting spends 10." }]);
  });

  it("gives the money held and what a shared payment still misses", () => {
    const v = view({ nations: [nation(0, { money: 12 }), nation(1)] });
    expect(decisionFacts(decision({ kind: PromptKind.CONTRIBUTE, seat: 0, amount: 50, missing: 13 }), v).map((f) => f.text))
      .toEqual(["You hold 12 $.", "13 $ still missing."]);
    expect(decisionFacts(decision({ kind: PromptKind.CONTRIBUTE, seat: 0, amount: 50, missing: 0 }), v)[1].text).toBe("Nothing is missing any more.");
    expect(decisionFacts(decision({ kind: PromptKind.ALLIANCE_FEE, seat: 0, count: 2 }), v).map((f) => f.text)).toEqual(["You hold 12 $."]);
  });

  it("gives the stock of the resource help is asked for", () => {
    const v = view({ nations: [nation(0, { stocks: { renewable: 3 } }), nation(1)] });
    expect(decisionFacts(decision({ kind: PromptKind.HELP_ANSWER, seat: 0, amount: 5, resource: 1 }), v)[0].text).toBe("You hold 3 renewable.");
    expect(decisionFacts(decision({ kind: PromptKind.HELP_ANSWER, seat: 0, amount: 5, resource: 0 }), v)).toEqual([]);
  });

  it("adds nothing where the question says it all, or for a nation it does not know", () => {
    expect(decisionFacts(decision({ kind: PromptKind.ALLIANCE_VOTE, seat: 0 }), view())).toEqual([]);
    expect(decisionFacts(decision({ kind: PromptKind.BREAK_ALLIANCE, seat: 0 }), view())).toEqual([]);
    expect(decisionFacts(decision({ kind: PromptKind.CHOOSE_DECK, seat: 5, options: [1] }), view())).toEqual([]);
  });
});

describe("cards as the targets of a core question", () => {
  const Action = type("plateau.games.limit.Action");
  const sent = (a: Record<string, unknown>) => decode<any>(Action, encode(Action, a)).core.answer;

  it("finds the card of each option, from a decoded prompt too", () => {
    const p = corePrompt(CoreKind.CHOOSE, [{ id: "31", card: 31 }, { id: "4", card: 4 }, { id: "x" }], { min: 2, max: 2 });
    expect([...cardOptions(p)]).toEqual([[31, "31"], [4, "4"]]);
    const P = type("plateau.v1.Prompt");
    const decoded = decode<Prompt>(P, encode(P, p as unknown as Record<string, unknown>));
    expect([...cardOptions(decoded)]).toEqual([[31, "31"], [4, "4"]]);
    expect(cardOptions(null).size).toBe(0);
  });

  it("sends a discard as the hand cards picked, in the order they were clicked", () => {
    const p = corePrompt(CoreKind.CHOOSE, [12, 3, 40].map((c) => ({ id: String(c), card: c })), { min: 2, max: 2 });
    let chosen: string[] = [];
    for (const card of [40, 12]) chosen = toggleChoice(p, chosen, cardOptions(p).get(card)!);
    expect([...pickedCards(p, chosen)]).toEqual([[40, 1], [12, 2]]);
    const answer = draftAnswer(p, { ...initialDraft(p), chosen });
    expect(answerProblem(p, answer)).toBe("");
    expect(sent(answerAction(Action, answer))).toMatchObject({ prompt_id: "c12.0", options: ["40", "12"] });
    // A click on a picked card unpicks it; the question is then not answerable yet.
    chosen = toggleChoice(p, chosen, "40");
    expect([...pickedCards(p, chosen)]).toEqual([[12, 1]]);
    expect(answerProblem(p, draftAnswer(p, { ...initialDraft(p), chosen }))).not.toBe("");
  });

  it("keeps a clicked drawn card, sending the one it replaces first under the deck", () => {
    expect(keepToggle(["d0", "d1", "d2"], "d2", 1)).toEqual(["d2", "d0", "d1"]);
    expect(keepToggle(["d2", "d0", "d1"], "d2", 1)).toEqual(["d0", "d2", "d1"]);
    expect(keepToggle(["d0", "d1", "d2", "d3"], "d3", 2)).toEqual(["d0", "d3", "d1", "d2"]);
    expect(keepToggle(["d0", "d1", "d2", "d3"], "d0", 2)).toEqual(["d1", "d2", "d0", "d3"]);
    // Nothing to choose when every card is kept; an unknown card changes nothing.
    expect(keepToggle(["d0", "d1"], "d1", 2)).toEqual(["d0", "d1"]);
    expect(keepToggle(["d0", "d1"], "d9", 1)).toEqual(["d0", "d1"]);
  });

  it("sends the keeping as one order, the kept cards first", () => {
    const p = corePrompt(CoreKind.ORDER, [{ id: "d0", card: 51 }, { id: "d1", card: 17 }, { id: "d2", card: 9 }]);
    const order = keepToggle(initialDraft(p).order, cardOptions(p).get(9)!, 1);
    const answer = draftAnswer(p, { ...initialDraft(p), order });
    expect(answerProblem(p, answer)).toBe("");
    expect(sent(answerAction(Action, answer)).options).toEqual(["d2", "d0", "d1"]);
  });
});

describe("which hand card a published move plays", () => {
  const node = (key: string, target: { card: string } | null): MoveChoice =>
    ({ key, label: { key: "m", args: [] }, target, action: new Uint8Array(), next: [], params: [], next_label: null, key_target: 0, next_paths: [] });
  it("maps each hand card to the root whose target it is, and leaves the others out", () => {
    const roots = [node("pass", null), node("remove.9", { card: "9" }), node("c3", { card: "3" })];
    const plays = handPlays(roots, [card("a", { id: 3 }), card("b", { id: 4 })]);
    expect([...plays].map(([id, m]) => [id, m.key])).toEqual([[3, "c3"]]);
    expect(handPlays([], [card("a", { id: 3 })]).size).toBe(0);
  });
  it("names the amounts a move leaves to choose", () => {
    expect(paramWords("play_card.military")).toBe("Military committed");
    expect(paramWords("play_card.transactions.quantity")).toBe("Quantity");
    expect(paramWords("play_card.transactions.1.quantity")).toBe("Quantity of the second");
    expect(paramWords("play_card.something_new")).toBe("something_new");
  });
});

describe("the view as the board reads it", () => {
  it("reads the board and card data from a decoded View and the static data", () => {
    const View = type("plateau.games.limit.View");
    const StaticData = type("plateau.games.limit.StaticData");
    // The printed cards and board are static data; the view names cards by id.
    const printed = [
      card("urbanisation", { id: 0, params: ["classes"], class_steps: { steps: 2 } }),
      card("robotisation", { id: 1, params: ["factory"], factory_options: [2, 3], tech_level: 3 }),
    ];
    const data = decode<Msg<limitpb.StaticData>>(StaticData, encode(StaticData, { cards: printed, board: BOARD, prices: PRICES }));
    const hand = [{ id: 0 }, { id: 1, playable: true }];
    const v = withStatic(decode(View, encode(View, { you: 0, nations: [nation(0, { money: 5 })], hand })), data);
    expect(v.hand[1].tech_level).toBe(3);
    expect(v.hand[1].playable).toBe(true);
    expect(v.hand[0].playable).toBe(false);
    const up = decisionFacts(decision({ kind: PromptKind.GROWTH_FACTORY, seat: 0, options: [2] }), v);
    expect(up[0].text).toBe("Industrial factory: rank 1 → 2 (output 1 → 2)");
  });
});

describe("score sheet and texts", () => {
  const lines = <ScoreLine[]><unknown>[
    { seat: 0, gross_happiness: 18, financial: 6, territory: 25, military: 1, pollution_penalty: -4, destabilisation_penalty: -1, total: 45 },
    { seat: 1, gross_happiness: 30, financial: 0, territory: 20, military: 0, pollution_penalty: -6, destabilisation_penalty: 0, total: 44 },
    { seat: 2, gross_happiness: 9, financial: 20, territory: 15, military: 1, pollution_penalty: 0, destabilisation_penalty: -1, total: 45 },
  ];
  it("sums pollution and destabilisation into historical impact", () => {
    expect(scoreValue(lines[0], "impact")).toBe(-5);
    expect(scoreValue(lines[1], "gross_happiness")).toBe(30);
  });
  it("ranks by total with ties sharing a place", () => {
    expect(scoreRanks(lines)).toEqual([1, 3, 1]);
  });
  it("names nations and zones", () => {
    expect(withNames("Seat 2 attacks Seat 1.", ["Ann", "Bo"])).toBe("Bo attacks Ann.");
    expect([0, 1, 2, 8, 9, 10].map(disorderZone)).toEqual(["boom", "boom", "progress", "progress", "revolt", "revolt"]);
  });
  it("says whose decision it is", () => {
    const v = view({ prompts: [{ kind: PromptKind.POLITICAL_TURN, seat: 1 }] });
    expect(bannerFor(v, 0, ["Ann", "Bo"], false, false)).toMatchObject({ mine: false, text: "Waiting for Bo" });
    expect(bannerFor(v, 1, ["Ann", "Bo"], false, false)).toMatchObject({ mine: true });
    expect(bannerFor(v, 1, ["Ann", "Bo"], false, true)).toMatchObject({ mine: false, text: "Bo to decide" });
    expect(bannerFor(v, 0, ["Ann", "Bo"], true, false).over).toBe(true);
  });
});

describe("static data", () => {
  // A view and the static data as the server sends them (real message types, through the wire
  // format), so a field missing from either side shows here.
  const View = type("plateau.games.limit.View");
  const StaticData = type("plateau.games.limit.StaticData");
  const data = decode<Msg<limitpb.StaticData>>(StaticData, encode(StaticData, {
    cards: [
      { id: 0, key: "craft", name: "Artisanat", name_en: "Craft", deck: 3, cost_text: "2 $", effect_text: "Make goods", params: ["resource"], resource_options: [1, 2] },
      { id: 1, key: "subsidies", name: "Subventions", name_en: "Subsidies", deck: 1, permanent: true, cost_text: "3 $", effect_text: "+1 $" },
    ],
    board: { population: [1, 2, 3], demographic_index: [1, 1, 2], territory_rank_bonus: 1 },
    prices: PRICES,
    events: [{ id: 0, key: "drought", name: "Drought", text: "Renewable price up" }],
  }));
  const view = decode<Msg<limitpb.View>>(View, encode(View, {
    solo: true, last_event_id: 0, generation: 2,
    hand: [{ id: 0, playable: true, factory_prices: [] }],
    nations: [{ seat: 0, permanents: [{ id: 1 }] }],
    market: { tracks: [{ resource: 1, position: 3, market_stock: 2 }] },
  }));

  it("puts the printed fields back on every card the view names by id", () => {
    const v = withStatic(view, data);
    expect(v.hand[0]).toMatchObject({ id: 0, name_en: "Craft", cost_text: "2 $", params: ["resource"], playable: true });
    expect(v.nations[0].permanents[0]).toMatchObject({ id: 1, name: "Subventions", permanent: true });
    expect(v.market!.tracks[0].prices).toEqual(PRICES);
    expect(v.market!.tracks[0].position).toBe(3);
    expect(v.board!.population).toEqual([1, 2, 3]);
    expect(v.last_event).toBe("Drought: Renewable price up");
    // Defaults stay readable, and the view itself is untouched.
    expect(v.world_bank).toBe(0);
    expect(view.hand[0].name).toBe("");
  });

  it("keeps a hydrated card's identity while the view's card is the same", () => {
    expect(withStatic(view, data).hand[0]).toBe(withStatic(view, data).hand[0]);
    expect(printedCard(data, view.hand[0])).toBe(withStatic(view, data).hand[0]);
  });

  it("hydrates a card again once a diff has replaced it", () => {
    // src/diff.ts copies what it changes: a card whose `playable` changed is a new object.
    const before = withStatic(view, data).hand[0];
    const changed = Object.assign(Object.create(Object.getPrototypeOf(view.hand[0])), view.hand[0], { playable: false });
    const next = Object.assign(Object.create(Object.getPrototypeOf(view)), view, { hand: [changed] });
    const after = withStatic(next, data).hand[0];
    expect(after).not.toBe(before);
    expect(after.playable).toBe(false);
    expect(after.name_en).toBe("Craft");
  });

  it("shows ids rather than nothing when the static data has not arrived", () => {
    const v = withStatic(view, undefined);
    expect(v.hand[0].name).toBe("#0");
    expect(v.hand[0].playable).toBe(true);
    expect(v.market!.tracks[0].prices).toEqual([]);
    expect(v.board).toBeNull();
    expect(v.last_event).toBe("");
  });
});
