import { describe, expect, it } from "vitest";
import {
  Barrier, placeMove, categoryOf, chooseRegion, chosenRegion, countryFace, Phase, questionForm, refusedAnswer, settledAnswers,
  trackSquares,
} from "../src/games/globalissimo/model";
import { decode, decodeStaticData, encode, type } from "../src/proto";
import type { StaticData as GStatic, View as GView } from "../src/games/globalissimo/model";
import { PromptKind, type Answer, type Prompt, type PromptOption } from "../src/table";
import {
  answerAction, answerProblem, draftAnswer, draftProblem, initialDraft, optionClick, optionForTarget, promptTargets,
} from "../src/ui/prompt";

const region = (id: string): PromptOption => ({ id, label: { key: "globalissimo.map_region", args: [{ name: id }] }, target: { region: id } });

function prompt(kind: number, over: Partial<Prompt> = {}): Prompt {
  return { id: "q1.3.0.0", seat: 0, kind, title: { key: "q", args: [] }, detail: null, options: [], min: 1, max: 1, option_set: "", ...over };
}

const view = (kind: number, phase: number = Phase.QUESTION) => ({ phase, question: { kind, seat: 0 } });

describe("questionForm", () => {
  const text = prompt(PromptKind.TEXT, { max: 80 });
  const map = prompt(PromptKind.CHOOSE, { options: [region("250"), region("076")] });

  it("asks the orange barrier's text question in the capital box", () => {
    expect(questionForm(view(Barrier.ORANGE), text)).toBe("capital");
  });

  it("asks the violet barrier's choice of a region on the world map", () => {
    expect(questionForm(view(Barrier.VIOLET), map)).toBe("map");
  });

  it("leaves anything else to the generic panel", () => {
    expect(questionForm(view(Barrier.ORANGE), null)).toBeNull();
    expect(questionForm(view(Barrier.ORANGE), map)).toBeNull();
    expect(questionForm(view(Barrier.VIOLET), text)).toBeNull();
    expect(questionForm(view(Barrier.VIOLET, Phase.PLACEMENT), map)).toBeNull();
    expect(questionForm({ phase: Phase.QUESTION, question: null }, text)).toBeNull();
    // A choice of several regions, or of options the map cannot show, is not a click on the map.
    expect(questionForm(view(Barrier.VIOLET), { ...map, max: 2 })).toBeNull();
    expect(questionForm(view(Barrier.VIOLET), prompt(PromptKind.CHOOSE, { options: [{ id: "a", label: null, target: null }] }))).toBeNull();
  });
});

describe("answering the barrier question", () => {
  const Action = type("plateau.games.globalissimo.Action");
  const sent = (a: Answer) => decode<any>(Action, encode(Action, answerAction(Action, a))).core.answer;

  it("sends a click on the map as the chosen region's option, through the core", () => {
    const p = prompt(PromptKind.CHOOSE, { options: ["004", "076", "250"].map(region) });
    const option = optionForTarget(promptTargets(p), { region: "250" });
    expect(option).toBe("250");
    const { answer } = optionClick(p, initialDraft(p), option!);
    expect(answer).toBeDefined();
    expect(answerProblem(p, answer!)).toBe("");
    expect(sent(answer!)).toMatchObject({ prompt_id: "q1.3.0.0", options: ["250"] });
    // A country the question does not offer answers nothing.
    expect(optionForTarget(promptTargets(p), { region: "999" })).toBeUndefined();
  });

  it("sends the capital as typed, trimmed, through the core", () => {
    const p = prompt(PromptKind.TEXT, { max: 80 });
    const draft = { ...initialDraft(p), text: "  Lima " };
    expect(draftProblem(p, draft)).toBe("");
    expect(sent(draftAnswer(p, draft))).toMatchObject({ prompt_id: "q1.3.0.0", text: "Lima" });
    expect(draftProblem(p, { ...draft, text: "  " })).not.toBe("");
  });
});

describe("static data lookups", () => {
  // The real message type, as GameInfo.static_data carries it.
  const StaticData = type("plateau.games.globalissimo.StaticData");
  const data = decode<GStatic>(StaticData, encode(StaticData, {
    categories: [{ id: "population", name: "Population", unit: "people", description: "How many live there", source: "UN (2023)" }],
    countries: [{ id: "FRA", name: "France", flag: "🇫🇷" }],
  }));

  it("finds a category and a card face by the id a view carries", () => {
    expect(categoryOf(data, "population")?.name).toBe("Population");
    expect(categoryOf(data, "population")?.source).toBe("UN (2023)");
    expect(countryFace(data, "FRA")).toMatchObject({ name: "France", flag: "🇫🇷" });
  });

  it("shows the id itself when the data is missing or does not know it", () => {
    expect(countryFace(undefined, "FRA")).toEqual({ id: "FRA", name: "FRA", flag: "" });
    expect(countryFace(data, "XYZ").name).toBe("XYZ");
    expect(categoryOf(undefined, "area")?.name).toBe("area");
    expect(categoryOf(data, "")).toBeNull();
  });

  it("reads a refused map answer as a country: a card by its face's name, another region by its own", () => {
    expect(refusedAnswer(data, Barrier.VIOLET, "FRA")).toBe("France");
    expect(refusedAnswer(data, Barrier.VIOLET, "Antarctica")).toBe("Antarctica");
    // A capital stands as typed, even one spelled like a card's id.
    expect(refusedAnswer(data, Barrier.ORANGE, "FRA")).toBe("FRA");
  });

  it("decodes a game list's static data by the type it names, and nothing for an unknown type", () => {
    const bytes = encode(StaticData, { countries: [{ id: "JPN", name: "Japan", flag: "🇯🇵" }] });
    const decoded = decodeStaticData({ static_type: "plateau.games.globalissimo.StaticData", static_data: bytes });
    expect(countryFace(decoded as GStatic, "JPN").name).toBe("Japan");
    expect(decodeStaticData({ static_type: "no.such.Type", static_data: bytes })).toBeUndefined();
    expect(decodeStaticData({ static_type: "", static_data: new Uint8Array() })).toBeUndefined();
  });
});

describe("the score track", () => {
  // Real messages: the layout from the static data, the barriers from a view.
  const StaticData = type("plateau.games.globalissimo.StaticData");
  const View = type("plateau.games.globalissimo.View");
  const data = decode<GStatic>(StaticData, encode(StaticData, {
    track: [{ distance: 0, barrier: -1 }, { distance: 1, barrier: -1 }, { distance: 1, barrier: 0 },
      { distance: 2, barrier: -1 }, { distance: 2, barrier: 1 }],
  }));
  const view = decode<GView>(View, encode(View, {
    barriers: [{ color: Barrier.VIOLET, present: false }, { color: Barrier.ORANGE, present: true }],
  }));

  it("draws the static layout with this game's barrier colours and the ones still there", () => {
    expect(trackSquares(view, data)).toEqual([
      { distance: 0, barrier: Barrier.NONE, barrier_present: false },
      { distance: 1, barrier: Barrier.NONE, barrier_present: false },
      { distance: 1, barrier: Barrier.VIOLET, barrier_present: false },
      { distance: 2, barrier: Barrier.NONE, barrier_present: false },
      { distance: 2, barrier: Barrier.ORANGE, barrier_present: true },
    ]);
  });

  it("has nothing to draw before the static data comes", () => {
    expect(trackSquares(view, undefined)).toEqual([]);
  });
});

describe("selecting on the map, then confirming", () => {
  // Option ids that differ from the region ids, as nothing promises they are the same.
  const p = prompt(PromptKind.CHOOSE, {
    options: ["076", "250"].map((r, i) => ({ id: `o${i}`, label: null, target: { region: r } })),
  });
  const targets = promptTargets(p);

  it("holds the selection as the draft's choice of the region's option", () => {
    expect(chooseRegion(targets, "250")).toEqual(["o1"]);
    expect(chosenRegion(p, ["o1"])).toBe("250");
    expect(chooseRegion(targets, undefined)).toEqual([]);
    expect(chooseRegion(targets, "999")).toEqual([]);
    expect(chosenRegion(p, [])).toBeUndefined();
    expect(chosenRegion(null, ["o1"])).toBeUndefined();
  });

  it("has nothing to send until a region is selected, then sends that region's option", () => {
    const empty = initialDraft(p);
    expect(draftProblem(p, empty)).not.toBe("");
    const draft = { ...empty, chosen: chooseRegion(targets, "076") };
    expect(draftProblem(p, draft)).toBe("");
    expect(draftAnswer(p, draft)).toMatchObject({ prompt_id: "q1.3.0.0", options: ["o0"] });
  });
});

describe("settledAnswers", () => {
  // Through the real View message, so the field names are the ones the server fills.
  const View = type("plateau.games.globalissimo.View");
  const StaticData = type("plateau.games.globalissimo.StaticData");
  const data = decode<GStatic>(StaticData, encode(StaticData, {
    countries: [{ id: "FRA", name: "France", flag: "🇫🇷" }, { id: "COL", name: "Colombia", flag: "🇨🇴" }, { id: "PER", name: "Peru", flag: "🇵🇪" }],
  }));
  const names = ["Alice", "Bob"];
  const viewOf = (settled: Record<string, unknown>[]) => decode<any>(View, encode(View, { round: 3, settled }));

  it("lists the settled questions newest first, in words", () => {
    const view = viewOf([
      { round: 2, kind: Barrier.ORANGE, country_id: "PER", map_id: "604", capital: "Lima", answered_by: -1 },
      { round: 2, kind: Barrier.VIOLET, country_id: "FRA", map_id: "250", capital: "Paris", answered_by: 1 },
      { round: 3, kind: Barrier.VIOLET, country_id: "COL", map_id: "170", capital: "Bogotá", answered_by: -1 },
    ]);
    const entries = settledAnswers(view, data, names);
    expect(entries.map((e) => e.text)).toEqual([
      "📍 🇨🇴 Colombia: nobody found it — here it is",
      "📍 🇫🇷 France: found by Bob",
      "🏛 🇵🇪 Peru: Lima (nobody found it)",
    ]);
    expect(entries[0]).toMatchObject({ kind: "map", mapId: "170", countryId: "COL", answeredBy: -1, round: 3, showMap: true });
    // Only the newest map question gets the map.
    expect(entries.map((e) => e.showMap)).toEqual([true, false, false]);
  });

  it("names who answered a capital, and says no more than nobody found an older map question", () => {
    const view = viewOf([
      { round: 1, kind: Barrier.VIOLET, country_id: "FRA", map_id: "250", answered_by: -1 },
      { round: 2, kind: Barrier.ORANGE, country_id: "PER", map_id: "604", capital: "Lima", answered_by: 0 },
      { round: 2, kind: Barrier.VIOLET, country_id: "COL", map_id: "170", answered_by: 0 },
    ]);
    expect(settledAnswers(view, data, names).map((e) => e.text)).toEqual([
      "📍 🇨🇴 Colombia: found by Alice",
      "🏛 🇵🇪 Peru: Lima (answered by Alice)",
      "📍 🇫🇷 France: nobody found it",
    ]);
  });

  it("is empty without settled questions, and makes do without the static data", () => {
    expect(settledAnswers(viewOf([]), data, names)).toEqual([]);
    expect(settledAnswers({}, data, names)).toEqual([]);
    expect(settledAnswers(null, data, names)).toEqual([]);
    const [e] = settledAnswers(viewOf([{ round: 1, kind: Barrier.VIOLET, country_id: "FRA", map_id: "250", answered_by: 5 }]), undefined, names);
    expect(e.text).toBe("📍 FRA: found by Seat 6");
  });
});

describe("the published placement", () => {
  const GAction = type("plateau.games.globalissimo.Action");
  const View = type("plateau.games.globalissimo.View");
  const param = (path: string, over: object) => ({ path, values: [], min: 0, max: 0, ...over });
  const placeNode = (slots: number[], n: number) => ({
    key: "place", label: { key: "globalissimo.move.place", args: [] }, action: encode(GAction, { place: {} }),
    params: [param("place.slot", { values: slots }), param("place.position", { min: 1, max: n })],
  });
  const roots = (moves: object[]) => (decode<GView>(View, encode(View, { table: { moves } })).table?.moves ?? []);

  it("offers the free slots and the positions the engine publishes, nothing of its own", () => {
    const p = placeMove(roots([placeNode([1, 4], 5)]));
    expect(p?.slots).toEqual([1, 4]);
    expect(p?.positions).toEqual([1, 2, 3, 4, 5]);
  });

  it("offers nothing without a published placement (another seat's turn, a question, a spectator)", () => {
    expect(placeMove(roots([]))).toBeNull();
    expect(placeMove(roots([{ key: "other", action: encode(GAction, { place: { slot: 1, position: 1 } }) }]))).toBeNull();
    // A plain leaf named "place" is no family: the board would not know what to set.
    expect(placeMove(roots([{ key: "place", action: encode(GAction, { place: { slot: 1, position: 1 } }) }]))).toBeNull();
  });
});
