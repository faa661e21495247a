// @vitest-environment happy-dom
// Contrôle Global's board on hand-built views: what it shows, the published moves it offers and sends, and what a spectator and the other players do not see.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import ui from "../src/games/controle_global";
import { Board } from "../src/games/controle_global/Board";
import {
  CATEGORIES, CELL, Phase, Tier, bestTurn, cellCentre, civilReaction, effectLines, nameLines, shortName, turnCell, type StaticData, type View,
} from "../src/games/controle_global/model";
import * as pb from "../src/gen/games/controle_global";
import { decode, encode, type } from "../src/proto";
import type { LogEntry } from "../src/table";
import type { MoveChoice } from "../src/ui/kit/moves";
import { findActionAnchor } from "../src/ui/phone";
import { makeCatalogue, TextProvider } from "../src/ui/TextRender";

const ACTION = "plateau.games.controle_global.Action";
const Action = type(ACTION);
const NAMES = ["Ann", "Bob", "Cy"];
const [POL, MIL, , COM] = CATEGORIES;

const DATA = {
  piles: [
    { id: "politics_lower", category: POL, tier: Tier.LOWER, min_level: 1, max_level: 3 },
    { id: "politics_upper", category: POL, tier: Tier.UPPER, min_level: 4, max_level: 6 },
  ],
  cards: [
    {
      id: "campaign_financing", name: "Financement de campagne", pile: "politics_lower",
      resources: [{ resource: pb.Resource.RESOURCE_ENERGY, amount: 1 }],
      effects: [{
        name: "Don discret", needs: [{ category: POL, level: 1 }],
        regions: [{ label: "R", selector: pb.RegionSelector.REGION_PRESENT, of: "", categories: [], resource: 0, distinct: false }],
        players: [{ label: "J", selector: pb.PlayerSelector.PLAYER_SELF, in: "", categories: [] }],
        steps: [{ region: "R", player: "J", op: pb.Op.OP_ADD_INFLUENCE, amount: 1, categories: [POL], resource: 0, from: "", world_needs: [] }],
      }],
      civil: null,
    },
    {
      id: "identity_ideology", name: "Idéologie Identitaire", pile: "politics_lower",
      resources: [{ resource: pb.Resource.RESOURCE_RAW_MATERIALS, amount: 1 }],
      effects: [{
        name: "Construction d'un mur à la frontière", needs: [{ category: POL, level: 3 }],
        regions: [
          { label: "R", selector: pb.RegionSelector.REGION_PRESENT, of: "", categories: [], resource: 0, distinct: false },
          { label: "V", selector: pb.RegionSelector.REGION_NEIGHBOUR, of: "R", categories: [], resource: 0, distinct: false },
        ],
        players: [
          { label: "J", selector: pb.PlayerSelector.PLAYER_SELF, in: "", categories: [] },
          { label: "U", selector: pb.PlayerSelector.PLAYER_OTHER, in: "V", categories: [POL] },
        ],
        steps: [
          { region: "R", player: "J", op: pb.Op.OP_ADD_INFLUENCE, amount: 2, categories: [POL, CATEGORIES[4]], resource: 0, from: "", world_needs: [] },
          { region: "V", player: "J", op: pb.Op.OP_ADD_INFLUENCE, amount: 1, categories: [MIL], resource: 0, from: "", world_needs: [] },
          { region: "V", player: "U", op: pb.Op.OP_REMOVE_INFLUENCE, amount: 1, categories: [POL], resource: 0, from: "", world_needs: [] },
        ],
      }],
      civil: null,
    },
    {
      id: "general_strike", name: "Grève générale", pile: "politics_upper", resources: [], effects: [],
      civil: {
        name: "Blocage", needs: [],
        regions: [{ label: "R", selector: pb.RegionSelector.REGION_MOST_INFLUENCE, of: "", categories: [POL], resource: 0, distinct: false }],
        players: [{ label: "X", selector: pb.PlayerSelector.PLAYER_MOST_INFLUENTIAL, in: "R", categories: [POL] }],
        steps: [{ region: "R", player: "X", op: pb.Op.OP_REMOVE_INFLUENCE, amount: 1, categories: [POL], resource: 0, from: "", world_needs: [] }],
      },
    },
  ],
  factions: [
    { id: "lobbying", name: "Réseau de lobbying transnational", categories: [POL, COM], resources: [],
      power: { name: "Portes tournantes", kind: pb.PowerKind.POWER_FREE_LEVELS, amount: 1, categories: [], resource: 0 } },
    { id: "cartel", name: "Cartel mafieux", categories: [MIL, CATEGORIES[5]], resources: [],
      power: { name: "Racket", kind: pb.PowerKind.POWER_EXTORTION, amount: 1, categories: [MIL], resource: 0 } },
  ],
  globalisation: { thresholds: [{ players: 3, totals: [1, 3, 6, 10, 15, 21] }], level_vp: [0, 0, 1, 3, 5, 7, 10] },
  costs: null, setup: null,
  world: { regions: [], names: ["Amazonie", "Andes", "Sahel"], development_bag: [], resource_base: 9, resource_min: 1, resource_max: 4, border_drop_per_mille: 250 },
} as unknown as StaticData;

const cubes = (...by: number[][]) => by.map((c) => ({ by_category: [...c, 0, 0, 0, 0, 0, 0].slice(0, 6) }));
// Seat 0 (Ann) holds two cards; seat 1 (Bob) four, two from each pile; seat 2 none.
function view(you: number, moves: MoveChoice[] = []): View {
  const seat = (s: number, faction: number, piles: number[]) => ({
    faction, resources: [1, 2, 0], noted_levels: [1, 0, 0, 1, 0, 0], level_vp: s, region_vp: 0, cards_in_hand: piles.length,
    hand_piles: piles, hand: [], regions_picked: [],
  });
  // Each viewer's own hand comes apart from the seats (View.hand).
  const hands = [["campaign_financing", "identity_ideology"], ["x", "y", "z", "w"], []];
  return {
    you, phase: Phase.PLAY, round: 2, turn_order: [0, 1, 2], to_act: 0, drawing_seat: -1, end_rule: 0,
    regions: [
      { name: 0, development: 3, stock: [2, 1, 3], cubes: cubes([1, 0, 0, 1], [2, 1], []), neighbours: [1], cell: { q: 0, r: 0 } },
      { name: 1, development: 1, stock: [3, 3, 2], cubes: cubes([0], [0, 0, 0, 0, 0, 1], []), neighbours: [0, 2], cell: { q: 1, r: 0 } },
      // Beside Amazonie too, across a sea: cells that touch, no border.
      { name: 2, development: 2, stock: [1, 2, 4], cubes: cubes([], [], []), neighbours: [1], cell: { q: 0, r: 1 } },
    ],
    categories: CATEGORIES.map((c, k) => ({
      category: c, world_total: [3, 1, 0, 1, 0, 1][k], world_level: [2, 1, 0, 1, 0, 1][k], highest_this_round: [2, 1, 0, 1, 0, 1][k],
      red: k === 0, order: k === 0 ? [1, 0, 2] : [0, 1, 2], live_levels: k === 0 ? [1, 2, 0] : [0, 0, 0],
    })),
    seats: [seat(0, 0, [0, 0]), seat(1, 1, [0, 1, 0, 1]), seat(2, -1, [])],
    piles: [{ size: 20, discard: ["campaign_financing"] }, { size: 8, discard: [] }],
    civil_piles: [1], played_card: "", to_privatise: [], hand: you >= 0 ? hands[you] : [],
    table: { moves, prompts: [], log: [], resigned: [], moves_held: false },
  } as unknown as View;
}

const node = (key: string, over: Partial<MoveChoice> = {}): MoveChoice =>
  ({ key, label: { key: `m.${key}`, args: [] }, target: null, action: new Uint8Array(), next: [], params: [], next_label: null, key_target: 0, next_paths: [], ...over });
const bytes = (o: object) => encode(Action, o);

// As the engine describes a card play (the card, the effect, the payment) and an investment (the
// kind, the region, the category, the payment); each leaf holds its whole action.
const PLAY = { play: { card: "campaign_financing", effect: 1, pay: {} } };
const INVEST = { invest: { kind: pb.InvestKind.INVEST_ADD_INFLUENCE, region: 1, category: POL, pay: { raw_materials: 1, energy: 1 } } };
const MOVES: MoveChoice[] = [
  node("card:campaign_financing", {
    target: { card: "campaign_financing" },
    next: [
      node("effect:0", { action: bytes({ play: { card: "campaign_financing", pay: {} } }) }),
      node("effect:1", { next: [node("pay:0,0,0", { action: bytes(PLAY) })] }),
    ],
  }),
  node("invest:1", {
    next: [node("region:1", {
      target: { region: "1" },
      next: [node("category:1", { next: [node("pay:1,1,0", { action: bytes(INVEST) })] })],
    })],
  }),
];

// The engine's words for the log lines these views carry (engine/games/controle_global/data/texts.textproto).
const CATALOGUE = makeCatalogue({
  "controle_global.category.politics": "Politics",
  "controle_global.round_start": "Round {0}.",
  "controle_global.civil_reacts": "Civil society reacts with {0|card|cards}.",
  "controle_global.civil_reveals": "{0} ({1}) strikes {2}.",
  "controle_global.loses_influence": "{0} loses {1|cube|cubes} of {2} in {3}.",
  "controle_global.civil_done": "Civil society has had its say.",
  "controle_global.levels_noted": "{0}'s levels are noted: {1} VP from levels.",
});

// One host per test; a second mount in a test renders a new view into the same board.
let host: HTMLElement | undefined;
function mount(v: View, seat = v.you) {
  const sent: object[] = [];
  const submit = vi.fn(async (a: object) => { sent.push(Action.toObject(decode(Action, encode(Action, a)), { enums: Number })); });
  const into = host ??= document.createElement("div");
  document.body.append(into);
  act(() => {
    render(
      <TextProvider scope={{ catalogue: CATALOGUE, names: NAMES, viewer: seat }}>
        <Board view={v} seat={seat} names={NAMES} acting={[0]} gameOver={false} readOnly={seat < 0}
          submit={seat < 0 ? undefined : submit} actionType={ACTION} gameData={DATA} />
      </TextProvider>,
      into,
    );
  });
  return { sent, submit };
}
afterEach(() => {
  if (!host) return;
  render(null, host);
  host.remove();
  host = undefined;
});
const $ = (sel: string) => host!.querySelector<HTMLElement>(sel);
const $$ = (sel: string) => [...host!.querySelectorAll<HTMLElement>(sel)];
const click = (sel: string) => act(() => { $(sel)!.click(); });
async function settle() { await act(async () => { await Promise.resolve(); }); }

describe("Contrôle Global's board shows the view", () => {
  it("draws the regions on the map as touching hexes: borders where the view lists them, a sea where cells touch without one", () => {
    mount(view(0));
    const regions = $$("[data-testid=region]");
    expect(regions.map((r) => r.getAttribute("aria-label"))).toEqual(["Amazonie", "Andes", "Sahel"]);
    expect(regions.map((r) => r.querySelectorAll("polygon.kit-region-area").length)).toEqual([1, 1, 1]);
    expect(regions.map((r) => r.querySelector("polygon")!.getAttribute("points")!.split(" ").length)).toEqual([6, 6, 6]);
    // Each border is drawn once, along the edge the two hexes share.
    expect($$("[data-testid=region-border]").map((b) => [b.tagName.toLowerCase(), b.dataset.regions])).toEqual([["path", "0|1"], ["path", "1|2"]]);
    expect($$("[data-testid=region-barrier]").map((b) => b.dataset.regions)).toEqual(["0|2"]);
    expect($$("[data-testid=region-map] .kit-coast").length).toBe(1);
  });

  it("writes on each region of the map its name, development, stock and every player's cubes by category", () => {
    mount(view(0));
    const amazonie = $("[data-testid=region][data-region='0']")!;
    const full = amazonie.querySelector(".cg-map-full")!;
    expect([...full.querySelectorAll(".cg-map-name")].map((t) => t.textContent)).toEqual(["Amazonie"]);
    expect(full.querySelector(".cg-map-stats")!.textContent).toBe("◆3⛏2⚡1🌾3");
    const row = (seat: number) => [...amazonie.querySelectorAll(`[data-testid=region-pieces][data-owner='${seat}'] .cg-map-cube`)]
      .map((c) => [c.getAttribute("data-category"), c.getAttribute("data-count"), c.textContent]);
    expect(row(0)).toEqual([["politics", "1", "1"], ["commerce", "1", "1"]]);
    expect(row(1)).toEqual([["politics", "2", "2"], ["military", "1", "1"]]);
    expect(amazonie.querySelector("[data-testid=region-pieces][data-owner='1'] title")!.textContent).toBe("Bob: 2 Politics, 1 Military");
    // A phone's fitted map writes less, larger: a short name, the development, each player's total.
    const short = amazonie.querySelector(".cg-map-short")!;
    expect([...short.querySelectorAll("text")].map((t) => t.textContent)).toEqual(["Amazonie", "◆3", "2", "3"]);
    expect($("[data-testid=region][data-region='2'] [data-testid=region-pieces]")).toBeNull();
    expect($("[data-testid=map-legend]")!.textContent).toContain("no border (sea or mountains)");
    // Larger on demand, in a frame of its own that scrolls.
    expect($("[data-testid=map-frame]")!.className).not.toContain("large");
    click("[data-testid=map-zoom]");
    expect($("[data-testid=map-frame]")!.className).toContain("large");
    expect($("[data-testid=map-zoom]")!.getAttribute("aria-pressed")).toBe("true");
  });

  it("lists the regions one by one with their development, stock and cubes per category", () => {
    mount(view(0));
    const cards = $$("[data-testid=region-card]");
    expect(cards.map((c) => c.dataset.development)).toEqual(["3", "1", "2"]);
    expect([...cards[0].querySelectorAll("[data-testid=stock] [data-resource]")].map((e) => e.getAttribute("data-count"))).toEqual(["2", "1", "3"]);
    // Amazonie: Ann 1 Politics and 1 Commerce, Bob 2 Politics and 1 Military; Cy nothing.
    expect([...cards[0].querySelectorAll("[data-testid=region-seat]")].map((e) => e.getAttribute("data-seat"))).toEqual(["0", "1"]);
    const count = (region: number, seat: number, cat: string) =>
      cards[region].querySelector(`[data-testid=cubes][data-seat="${seat}"][data-category=${cat}]`)?.getAttribute("data-count");
    expect([count(0, 0, "politics"), count(0, 0, "commerce"), count(0, 1, "politics"), count(0, 1, "military")]).toEqual(["1", "1", "2", "1"]);
    expect(count(1, 1, "biology")).toBe("1");
    expect(cards[2].querySelectorAll("[data-testid=region-seat]").length).toBe(0);
    // The map counts each player's cubes in a region.
    const onMap = $$("[data-region='0'] [data-testid=region-pieces]").map((e) => [e.dataset.owner, e.dataset.count]);
    expect(onMap).toEqual([["0", "2"], ["1", "3"]]);
  });

  it("shows the globalisation table, the civil-society area and the players", () => {
    mount(view(0));
    const rows = $$("[data-testid=category-row]");
    expect(rows.map((r) => r.dataset.category)).toEqual(["politics", "military", "religions", "commerce", "media", "biology"]);
    expect(rows[0].querySelector("[data-testid=world-level]")!.textContent).toBe("II");
    expect(rows[0].dataset.red).toBe("true");
    expect([...rows[0].querySelectorAll("[data-testid=order] li")].map((e) => [e.getAttribute("data-seat"), e.getAttribute("data-level")]))
      .toEqual([["1", "2"], ["0", "1"], ["2", "0"]]);
    // The catalogue's word where it has one, the enum's name otherwise.
    expect(rows[0].querySelector("th")!.textContent).toContain("Politics");
    expect(rows[1].querySelector("th")!.textContent).toContain("Military");
    expect($("[data-testid=civil-area]")!.dataset.count).toBe("1");
    expect($("[data-testid=faction-0]")!.dataset.faction).toBe("lobbying");
    expect($("[data-testid=faction-0]")!.textContent).toContain("Portes tournantes");
    expect([...$("[data-testid=resources-0]")!.querySelectorAll("[data-resource]")].map((e) => e.getAttribute("data-count"))).toEqual(["1", "2", "0"]);
    expect($("[data-testid=vp-1]")!.dataset.vp).toBe("1");
  });

  it("shows the viewer's hand with the card faces from the static data", () => {
    mount(view(0));
    expect($$("[data-testid=my-hand] [data-testid=hand-card]").map((c) => c.dataset.card)).toEqual(["campaign_financing", "identity_ideology"]);
    const face = $("[data-testid=my-hand] [data-testid=card-face][data-card=identity_ideology]")!;
    expect(face.querySelector("[data-testid=card-name]")!.textContent).toBe("Idéologie Identitaire");
    expect(face.querySelector("[data-testid=card-needs]")!.textContent).toBe("Politics III");
    expect(face.textContent).toContain("You gain 2 cubes of Politics or Media in R.");
    expect(face.textContent).toContain("U loses up to 1 cube of Politics in V.");
    expect(face.textContent).toContain("U: another player present in V holding Politics");
  });

  it("tells the effect being resolved, its step and what its labels stand for, and the extra resources to privatise", () => {
    const v = view(1);
    v.played_card = "identity_ideology";
    v.running = {
      card: "identity_ideology", effect: 1, player: 0, step: 1,
      regions: [{ label: "R", regions: [0] }, { label: "V", regions: [1] }], players: [{ label: "J", seats: [0] }],
    } as View["running"];
    v.to_privatise = [{ resource: pb.Resource.RESOURCE_ENERGY, amount: 1 }];
    v.extra_privatise = 1;
    mount(v);
    expect($("[data-testid=running]")!.textContent).toBe(
      "Ann resolves Idéologie Identitaire — Construction d'un mur à la frontière, step 2 of 3 (R: Amazonie; V: Andes; J: Ann).");
    expect($("[data-testid=to-privatise]")!.textContent).toBe("Left to privatise: 1 energy, 1 more of any type");
  });

  it("tells civil society's effect being resolved, and nothing once none runs", () => {
    const v = view(2);
    v.running = { card: "general_strike", effect: 0, player: -1, step: 0, regions: [{ label: "R", regions: [2] }], players: [{ label: "X@2", seats: [1] }] } as View["running"];
    mount(v);
    expect($("[data-testid=running]")!.textContent).toBe("Civil society resolves Grève générale — Blocage, step 1 of 1 (R: Sahel; X: Bob).");
    mount(view(2));
    expect($("[data-testid=running]")).toBeNull();
  });

  it("shows another player's hand as its size and backs only", () => {
    mount(view(0));
    const bob = $("[data-testid=hand-size-1]")!;
    expect(bob.dataset.count).toBe("4");
    expect([...bob.querySelectorAll("[data-testid=card-back]")].map((b) => b.getAttribute("data-category"))).toEqual(["politics", "politics", "politics", "politics"]);
    expect($("[data-testid=player-1] [data-testid=card-face]")).toBeNull();
    expect($$("[data-testid=card-face]").map((c) => c.dataset.card).sort()).toEqual(["campaign_financing", "identity_ideology"]);
  });
});

describe("Contrôle Global's board at the end of the game", () => {
  it("shows the final score and, region by region, the pool and every player's cubes, then each player's region VP", () => {
    const v = view(0);
    const over = {
      ...v, phase: Phase.GAME_OVER,
      seats: v.seats.map((s, seat) => ({ ...s, level_vp: [3, 5, 0][seat], region_vp: [2, 3, 0][seat] })),
    } as View;
    mount(over);
    expect($$("[data-testid=final-score] tbody tr[data-seat]").map((r) => [r.dataset.seat, r.dataset.total])).toEqual([["1", "8"], ["0", "5"], ["2", "0"]]);
    const rows = $$("[data-testid=final-region]");
    expect(rows.map((r) => [r.querySelector("th")!.textContent, r.dataset.pool, r.dataset.cubes])).toEqual([
      ["Amazonie", "3", "5"], ["Andes", "1", "1"], ["Sahel", "2", "0"],
    ]);
    const cubesIn = (r: HTMLElement) => [...r.querySelectorAll("[data-testid=final-cubes]")].map((c) => c.getAttribute("data-count"));
    expect(rows.map(cubesIn)).toEqual([["2", "3", "0"], ["0", "1", "0"], ["0", "0", "0"]]);
    // Five cubes for a pool of three: the most cubes (Bob's) take VP first, and are marked.
    expect([...rows[0].querySelectorAll("td.most")].map((c) => c.getAttribute("data-seat"))).toEqual(["1"]);
    expect(rows[1].querySelectorAll("td.most").length).toBe(0);
    expect($$("[data-testid=final-region-vp]").map((c) => [c.dataset.seat, c.dataset.vp])).toEqual([["0", "2"], ["1", "3"], ["2", "0"]]);
  });

  it("shows no final score before the end", () => {
    mount(view(0));
    expect($("[data-testid=final-score]")).toBeNull();
    expect($("[data-testid=final-regions]")).toBeNull();
  });
});

const say = (seq: number, key: string, ...args: object[]) => ({ seq, text: { key, args } });
const POLITICS = { text: { key: "controle_global.category.politics", args: [] } };
// Round 2 ends: two civil-society cards, the first one struck Bob in Andes so far.
const REACTION = [
  say(10, "controle_global.round_start", { number: 2 }),
  say(11, "controle_global.civil_reacts", { number: 2 }),
  say(12, "controle_global.civil_reveals", { name: "Grève générale" }, { name: "Blocage" }, POLITICS),
  say(13, "controle_global.loses_influence", { seat: 1 }, { number: 1 }, POLITICS, { name: "Andes" }),
];
const withLog = (v: View, log: object[], over: Partial<View> = {}) => ({ ...v, ...over, table: { ...v.table, log } }) as unknown as View;
const lines = () => $$("[data-testid=civil-line]").map((l) => [l.dataset.kind, l.textContent]);

describe("Contrôle Global's civil society, step by step", () => {
  it("counts the cards waiting face down", () => {
    mount(view(0));
    expect($("[data-testid=civil-area]")!.dataset.waiting).toBe("1");
    expect($("[data-testid=civil-status]")!.textContent).toContain("One card waits");
    expect($("[data-testid=civil-log]")).toBeNull();
  });

  it("while it resolves: the card striking, how many still wait, and the log's lines of the reaction in order", () => {
    mount(withLog(view(0), REACTION, { phase: Phase.CIVIL, civil_piles: [] }));
    const area = $("[data-testid=civil-area]")!;
    expect(area.dataset.resolving).toBe("true");
    expect(area.dataset.waiting).toBe("1");
    expect($("[data-testid=civil-status]")!.textContent).toBe("Civil society reacts — card 1 of 2; one card still waits face down.");
    expect(lines()).toEqual([
      ["reacts", "Civil society reacts with 2 cards."],
      ["reveals", "Grève générale (Blocage) strikes Politics."],
      ["step", "Bob loses 1 cube of Politics in Andes."],
    ]);
    expect(($("[data-testid=civil-log]") as HTMLDetailsElement).open).toBe(true);
    // The card striking now, its civil-society effect alone.
    const card = area.querySelector("[data-testid=card-face][data-card=general_strike]")!;
    expect(card.querySelector("[data-testid=card-civil]")!.textContent).toContain("Blocage");
    expect(card.querySelector("[data-testid=card-effect]")).toBeNull();
  });

  it("keeps its last reaction readable in the next round, folded after that", () => {
    const after = [
      ...REACTION,
      say(14, "controle_global.civil_reveals", { name: "Grève générale" }, { name: "Blocage" }, POLITICS),
      say(15, "controle_global.civil_done"),
      say(16, "controle_global.levels_noted", { seat: 0 }, { number: 1 }),
      say(17, "controle_global.round_start", { number: 3 }),
    ];
    mount(withLog(view(0), after, { civil_piles: [] }));
    expect($("[data-testid=civil-area]")!.dataset.resolving).toBe("false");
    expect($("[data-testid=civil-log]")!.dataset.done).toBe("true");
    expect(($("[data-testid=civil-log]") as HTMLDetailsElement).open).toBe(true);
    expect(lines().map(([kind]) => kind)).toEqual(["reacts", "reveals", "step", "reveals", "done"]);
    expect($("[data-testid=civil-area] [data-testid=card-face]")).toBeNull();
    mount(withLog(view(0), [...after, say(18, "controle_global.round_start", { number: 4 })]));
    expect(($("[data-testid=civil-log]") as HTMLDetailsElement).open).toBe(false);
  });

  it("reads a reaction whose first lines have left the log", () => {
    const tail = REACTION.slice(2) as unknown as LogEntry[];
    expect(civilReaction(tail, false)).toBeUndefined();
    const r = civilReaction(tail, true)!;
    expect([r.cut, r.cards, r.revealed, r.done, r.lines.map((l) => l.kind)]).toEqual([true, 0, 1, false, ["reveals", "step"]]);
  });
});

describe("Contrôle Global's board offers the published moves only", () => {
  it("is where a phone's 'Your move' leads", () => {
    mount(view(0, MOVES));
    expect(findActionAnchor(host!)).toBe($("[data-testid=cg-moves]"));
  });

  it("goes from a hand card through the picker and sends exactly the published action", async () => {
    const { sent } = mount(view(0, MOVES));
    expect($("[data-testid=turn-banner]")!.dataset.myTurn).toBe("true");
    // Only the card a move plays is playable in the hand.
    expect($$("[data-testid=hand-card][data-target=true]").map((c) => c.dataset.card)).toEqual(["campaign_financing"]);
    expect($$("[data-testid=move-choice]").map((c) => c.dataset.key)).toEqual(["card:campaign_financing", "invest:1"]);
    click("[data-testid=hand-card][data-card=campaign_financing]");
    expect($("[data-testid=move-picker]")!.dataset.path).toBe("card:campaign_financing");
    click("[data-testid=move-choice][data-key='effect:1']");
    click("[data-testid=move-choice][data-key='pay:0,0,0']");
    click("[data-testid=move-play]");
    await settle();
    expect(sent).toEqual([Action.toObject(decode(Action, bytes(PLAY)), { enums: Number })]);
    expect(sent).toEqual([{ play: { card: "campaign_financing", effect: 1, pay: {} } }]);
  });

  it("takes a region step as a click on the map, then sends the investment as published", async () => {
    const { sent } = mount(view(0, MOVES));
    expect($$("[data-testid=region][data-target=true]").length).toBe(0);
    expect(($("[data-testid=region-list]") as HTMLDetailsElement).open).toBe(false);
    click("[data-testid=move-choice][data-key='invest:1']");
    expect($$("[data-testid=region][data-target=true]").map((r) => r.dataset.region)).toEqual(["1"]);
    expect($$("[data-testid=region-target]").map((r) => r.dataset.region)).toEqual(["1"]);
    expect(($("[data-testid=region-list]") as HTMLDetailsElement).open).toBe(true);
    // An SVG element has no click(): the event itself, as a mouse gives it.
    act(() => { $("[data-testid=region][data-region='1']")!.dispatchEvent(new MouseEvent("click", { bubbles: true })); });
    expect($("[data-testid=move-picker]")!.dataset.path).toBe("invest:1/region:1");
    click("[data-testid=move-choice][data-key='category:1']");
    click("[data-testid=move-choice][data-key='pay:1,1,0']");
    click("[data-testid=move-play]");
    await settle();
    expect(sent).toEqual([{ invest: { kind: 1, region: 1, category: 1, pay: { raw_materials: 1, energy: 1 } } }]);
  });

  it("keeps the previous player's half-made discard while the next player's turn moves on", () => {
    const discard = [node("discard:identity_ideology", { target: { card: "identity_ideology" }, next: [
      node("pay:1,0,0", { action: bytes({ discard: { card: "identity_ideology", pay: { raw_materials: 1 } } }) }),
    ] }), node("draw:0", { action: bytes({ draw: { pile: 0 } }) })];
    const drawer = (phase: number) => ({ ...view(0, discard), to_act: 1, drawing_seat: 0, phase }) as View;
    mount(drawer(Phase.PLAY));
    expect($("[data-testid=turn-banner]")!.textContent).toContain("discard and draw");
    click("[data-testid=hand-card][data-card=identity_ideology]");
    expect($("[data-testid=move-picker]")!.dataset.path).toBe("discard:identity_ideology");
    mount(drawer(Phase.INVEST));
    expect($("[data-testid=move-picker]")!.dataset.path).toBe("discard:identity_ideology");
  });

  it("offers nothing and shows no hand to a spectator", () => {
    mount(view(-1, MOVES), -1);
    for (const sel of ["[data-testid=my-hand]", "[data-testid=hand]", "[data-testid=hand-card]", "[data-testid=move-picker]",
      "[data-testid=move-choice]", "[data-testid=cg-moves]", "[data-testid=region][data-target=true]", "[data-testid=region-target]",
      "[data-testid=card-face]"]) {
      expect(host!.querySelectorAll(sel).length, sel).toBe(0);
    }
    expect($("[data-testid=turn-banner]")!.dataset.myTurn).toBe("false");
    // The public parts are all there.
    expect($$("[data-testid=region-card]").length).toBe(3);
    expect($("[data-testid=hand-size-0]")!.dataset.count).toBe("2");
  });

  it("offers nothing to a seat whose view publishes no moves", () => {
    mount(view(1));
    expect($$("[data-testid=move-choice]").length).toBe(0);
    expect($$("button[data-testid=hand-card]").length).toBe(0);
    expect($("[data-testid=turn-banner]")!.dataset.myTurn).toBe("false");
  });
});

describe("Contrôle Global's world as a map", () => {
  const AXIAL = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
  const dist = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);

  it("draws the engine's neighbouring cells as hexes side by side, whichever way the world is turned", () => {
    for (let k = 0; k < 6; k++) {
      for (const [q, r] of AXIAL) {
        const a = cellCentre(turnCell({ q: 2, r: -1 }, k)), b = cellCentre(turnCell({ q: 2 + q, r: -1 + r }, k));
        // Flat-topped hexes of circumradius CELL touch when their centres are √3 CELL apart.
        expect(dist(a, b)).toBeCloseTo(Math.sqrt(3) * CELL, 6);
      }
    }
    expect(turnCell({ q: 2, r: -1 }, 6)).toEqual({ q: 2, r: -1 });
  });

  it("turns a long world so it fits a square best, the same for every viewer", () => {
    // Six cells down the r axis: drawn as a column unless turned.
    const column = [0, 1, 2, 3, 4, 5].map((r) => ({ q: 0, r }));
    const k = bestTurn(column);
    const ps = column.map((c) => cellCentre(turnCell(c, k)));
    const w = Math.max(...ps.map((p) => p.x)) - Math.min(...ps.map((p) => p.x));
    const h = Math.max(...ps.map((p) => p.y)) - Math.min(...ps.map((p) => p.y));
    expect(w).toBeGreaterThan(h);
    expect(bestTurn(column)).toBe(k);
    expect(bestTurn([{ q: 0, r: 0 }])).toBe(0);
  });

  it("cuts long region names for the map", () => {
    expect(nameLines("Amazonie")).toEqual(["Amazonie"]);
    expect(nameLines("Sous-continent indien")).toEqual(["Sous-continent", "indien"]);
    expect(nameLines("Corne de l'Afrique")).toEqual(["Corne de", "l'Afrique"]);
    expect(shortName("Amazonie")).toBe("Amazonie");
    expect(shortName("Grandes Plaines", 8)).toBe("Grandes…");
  });
});

describe("Contrôle Global's words", () => {
  it("reads a civil-society step's world threshold", () => {
    const scope = { catalogue: makeCatalogue({}), names: NAMES, viewer: 0 };
    const { steps } = effectLines({
      name: "x", needs: [], regions: [], players: [{ label: "X", selector: pb.PlayerSelector.PLAYER_LEADER, in: "", categories: [POL] }],
      steps: [{ region: "", player: "X", op: pb.Op.OP_LOSE_RESOURCE, amount: 2, categories: [], resource: 0, from: "", world_needs: [{ category: POL, level: 5 }] }],
    } as unknown as Parameters<typeof effectLines>[0], scope);
    expect(steps).toEqual(["From world level Politics V: X loses up to 2 resources held."]);
  });

  it("has a rules page and its count words", () => {
    expect(ui.id).toBe("controle_global");
    const h = ui.howToPlay!;
    expect(h.sections.length).toBeGreaterThanOrEqual(4);
    const words = h.sections.flatMap((s) => [...s.paragraphs, ...(s.list ?? [])]).join(" ");
    expect(words).not.toMatch(/[<>*#`]/);
    expect(words.split(/\s+/).length).toBeGreaterThan(300);
    expect(ui.scoreUnit).toEqual({ one: "VP", many: "VP" });
  });
});
