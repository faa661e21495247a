// Contrôle Global's reading of a view and its static data for the board: enums under short names, the data looked up by the ids a view carries, the world as a map, the effect notation in words. It decides nothing the rules decide (what a seat may do is the published moves), and touches no DOM.
import { lowerNames, setValues, unprefixed } from "../../enums";
import * as pb from "../../gen/games/controle_global";
import type { Msg } from "../../proto";
import { toNumber, type Arg, type LogEntry, type Text } from "../../table";
import type { Point } from "../../ui/hex";
import type { RegionSpot } from "../../ui/kit/RegionMap";
import { RegionGraph } from "../../ui/region_graph";
import { renderText, type TextScope } from "../../ui/TextRender";

export const Phase = unprefixed(pb.Phase, "PHASE_");
export const Tier = unprefixed(pb.Tier, "TIER_");
export const Op = unprefixed(pb.Op, "OP_");
export const RegionSelector = unprefixed(pb.RegionSelector, "REGION_");
export const PlayerSelector = unprefixed(pb.PlayerSelector, "PLAYER_");
export const PowerKind = unprefixed(pb.PowerKind, "POWER_");
export const EndRule = unprefixed(pb.EndRule, "END_");

/** "politics", "raw_materials": the enums' own names, for CSS classes and the catalogue's keys. */
export const CATEGORY_SLUG = lowerNames(pb.Category, "CATEGORY_");
export const RESOURCE_SLUG = lowerNames(pb.Resource, "RESOURCE_");
/** The six categories and three resources in the order the view lists them (by-index fields). */
export const CATEGORIES = setValues(pb.Category, "CATEGORY_");
export const RESOURCES = setValues(pb.Resource, "RESOURCE_");

export type View = Msg<pb.View>;
export type StaticData = Msg<pb.StaticData>;
export type Card = Msg<pb.Card>;
export type Pile = Msg<pb.Pile>;
export type Effect = Msg<pb.Effect>;
export type Faction = Msg<pb.Faction>;
export type RegionView = Msg<pb.RegionView>;
export type SeatView = Msg<pb.SeatView>;
export type CategoryView = Msg<pb.CategoryView>;
type Data = StaticData | null | undefined;

export const ROMAN = ["0", "I", "II", "III", "IV", "V", "VI"];
export function roman(level: number): string {
  return ROMAN[level] ?? String(level);
}

export const PHASE_NAME: Readonly<Record<number, string>> = {
  [Phase.FACTIONS]: "Set-up: factions", [Phase.FIRST_REGIONS]: "Set-up: first regions",
  [Phase.SECOND_REGIONS]: "Set-up: second regions", [Phase.STARTING_HANDS]: "Set-up: starting hands",
  [Phase.PLAY]: "Play a card", [Phase.INVEST]: "Invest", [Phase.PRIVATISE]: "Privatise", [Phase.DRAW]: "Discard and draw",
  [Phase.CIVIL]: "Civil society reacts", [Phase.GAME_OVER]: "Game over",
};

export function playerName(names: readonly string[], seat: number): string {
  return names[seat] || `Seat ${seat + 1}`;
}

// ----- words: the engine's catalogue when it has them, the enum's own name otherwise -----

export function text(key: string, args: Arg[] = []): Text {
  return { key, args };
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, " ");

function word(scope: TextScope, t: Text, fallback: string): string {
  return scope.catalogue.has(t.key) ? renderText(t, scope) : fallback;
}

export function categoryText(cat: number): Text {
  return text(`controle_global.category.${CATEGORY_SLUG[cat] ?? "unknown"}`);
}

export function categoryWord(scope: TextScope, cat: number): string {
  return word(scope, categoryText(cat), capitalised(CATEGORY_SLUG[cat] ?? "?"));
}

export function resourceWord(scope: TextScope, res: number): string {
  const slug = RESOURCE_SLUG[res];
  return slug ? word(scope, text(`controle_global.resource.${slug}`), slug.replace(/_/g, " ")) : "resources";
}

export function pileWord(scope: TextScope, pile: Pile | undefined): string {
  if (!pile) return "?";
  const tier = pile.tier === Tier.UPPER ? "upper" : "lower";
  const fallback = `${categoryWord(scope, pile.category)} ${roman(pile.min_level)}–${roman(pile.max_level)}`;
  return word(scope, text(`controle_global.pile.${tier}`, [{ text: categoryText(pile.category) } as Arg]), fallback);
}

// ----- the static data by the ids and indices a view carries -----

interface Index { cards: Map<string, Card>; piles: Map<string, number> }
const indexes = new WeakMap<object, Index>();

function index(data: Data): Index | undefined {
  if (!data) return undefined;
  let ix = indexes.get(data);
  if (!ix) {
    ix = {
      cards: new Map((data.cards ?? []).map((c) => [c.id, c])),
      piles: new Map((data.piles ?? []).map((p, i) => [p.id, i])),
    };
    indexes.set(data, ix);
  }
  return ix;
}

export function cardOf(data: Data, id: string): Card | undefined {
  return index(data)?.cards.get(id);
}

/** The pile a card belongs to (its back and category). */
export function pileOfCard(data: Data, card: Card | undefined): Pile | undefined {
  const i = card ? index(data)?.piles.get(card.pile) : undefined;
  return i == null ? undefined : data?.piles[i];
}

export function pileAt(data: Data, i: number): Pile | undefined {
  return data?.piles?.[i];
}

export function factionOf(data: Data, i: number): Faction | undefined {
  return i >= 0 ? data?.factions?.[i] : undefined;
}

export function regionName(data: Data, r: RegionView | undefined, i: number): string {
  return (r && data?.world?.names?.[r.name]) || `Region ${i + 1}`;
}

/** The world totals that reach levels I to VI at this many players (empty without the data). */
export function thresholdsFor(data: Data, players: number): number[] {
  return (data?.globalisation?.thresholds ?? []).find((t) => t.players === players)?.totals ?? [];
}

// ----- the world as a map -----

// A region is the cell the engine grew it on, drawn as a flat-topped hex (the same axial
// neighbours as the engine's grid): its wide top and bottom leave room for the name and the rows
// of cubes. Cells this size hold six players' rows at a board's width.
export const CELL = 100;
const SQRT3 = Math.sqrt(3);
const CELL_OUTLINE: readonly Point[] = Object.freeze(
  [0, 1, 2, 3, 4, 5].map((k) => ({ x: CELL * Math.cos((Math.PI / 3) * k), y: CELL * Math.sin((Math.PI / 3) * k) })),
);

type Cell = { q: number; r: number };

export function cellCentre(c: Cell): Point {
  return { x: CELL * 1.5 * c.q, y: CELL * SQRT3 * (c.r + c.q / 2) };
}

/** A cell turned `k` sixths of a turn about the origin: neighbours stay neighbours. */
export function turnCell(c: Cell, k: number): Cell {
  let { q, r } = c;
  for (let n = 0; n < ((k % 6) + 6) % 6; n++) [q, r] = [-r, q + r];
  return { q, r };
}

// The world has no north: of its six turns the map draws the one that fits a square largest, so a
// long world lies neither down several screens nor in a thin strip. Every viewer gets the same.
export function bestTurn(cells: readonly Cell[]): number {
  let best = 0, bestSide = Infinity;
  for (let k = 0; k < 6; k++) {
    const ps = cells.map((c) => cellCentre(turnCell(c, k)));
    const w = Math.max(...ps.map((p) => p.x)) - Math.min(...ps.map((p) => p.x)) + 2 * CELL;
    const h = Math.max(...ps.map((p) => p.y)) - Math.min(...ps.map((p) => p.y)) + SQRT3 * CELL;
    const side = Math.max(w, h);
    if (side < bestSide - 1e-6) [best, bestSide] = [k, side];
  }
  return best;
}

/**
 * Each region as the hex of its cell, so cells side by side touch along an edge. A view without
 * cells (none is expected) gets circles in map order, so the map still draws.
 */
export function regionSpots(view: View, data: Data): RegionSpot[] {
  const regions = view.regions ?? [];
  const cells = regions.every((r) => r.cell);
  const turn = cells ? bestTurn(regions.map((r) => r.cell!)) : 0;
  return regions.map((r, i) => {
    const label = regionName(data, r, i);
    if (cells && r.cell) return { id: String(i), label, ...cellCentre(turnCell(r.cell, turn)), outline: CELL_OUTLINE };
    const a = (2 * Math.PI * i) / regions.length;
    return { id: String(i), label, x: 160 * Math.cos(a), y: 160 * Math.sin(a) };
  });
}

/** A region's name on at most two lines, cut at the space nearest the middle when long. */
export function nameLines(name: string, max = 14): string[] {
  if (name.length <= max) return [name];
  let cut = -1;
  for (let k = 0; k < name.length; k++) {
    if (name[k] === " " && (cut < 0 || Math.abs(k - name.length / 2) < Math.abs(cut - name.length / 2))) cut = k;
  }
  return cut < 0 ? [name] : [name.slice(0, cut), name.slice(cut + 1)];
}

/** A name cut to `max` characters, for a phone's small map. */
export function shortName(name: string, max = 9): string {
  return name.length <= max ? name : `${name.slice(0, max - 1).trimEnd()}…`;
}

const graphs = new WeakMap<object, RegionGraph | null>();

/** The borders the view lists (each region names its neighbours); none if they do not agree. */
export function worldGraph(view: View): RegionGraph | undefined {
  const regions = view.regions ?? [];
  let g = graphs.get(regions);
  if (g === undefined) {
    const edges: [string, string][] = [];
    regions.forEach((r, i) => {
      for (const n of r.neighbours ?? []) if (n > i && n < regions.length) edges.push([String(i), String(n)]);
    });
    try {
      g = RegionGraph.build(regions.map((_, i) => String(i)), edges);
    } catch {
      g = null;
    }
    graphs.set(regions, g);
  }
  return g ?? undefined;
}

export function cubeTotal(cubes: { by_category?: readonly number[] } | null | undefined): number {
  return (cubes?.by_category ?? []).reduce((a, b) => a + b, 0);
}

// ----- the effect notation in words -----

function list(words: readonly string[], last = "or"): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} ${last} ${words[words.length - 1]}`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Words for an effect: what each label stands for, then each step in order. */
export function effectLines(e: Effect, scope: TextScope): { picks: string[]; steps: string[] } {
  const cats = (cs: readonly number[] | null | undefined, last = "or") => list((cs ?? []).map((c) => categoryWord(scope, c)), last);
  const res = (r: number, n: number) => (r ? `${n} ${resourceWord(scope, r)}` : plural(n, "resource", "resources"));
  const self = new Set((e.players ?? []).filter((p) => p.selector === PlayerSelector.SELF).map((p) => p.label));
  const who = (label: string) => (self.has(label) ? "you" : label);
  const verb = (label: string, you: string, other: string) => `${who(label)} ${self.has(label) ? you : other}`;
  const picks: string[] = [];
  for (const r of e.regions ?? []) {
    const of = r.of;
    const with_ = r.categories?.length ? cats(r.categories, "and") : "cubes";
    const what: Record<number, string> = {
      [RegionSelector.PRESENT]: "a region where you are present",
      [RegionSelector.ANY]: "any region",
      [RegionSelector.ABSENT]: "a region where you have no cube",
      [RegionSelector.NEIGHBOUR]: `a neighbour of ${of}${r.distinct ? ", not picked before" : ""}`,
      [RegionSelector.EACH_NEIGHBOUR]: `each neighbour of ${of}`,
      [RegionSelector.MOST_INFLUENCE]: `the region with the most ${with_}`,
      [RegionSelector.MOST_DEVELOPED]: "the most developed region",
      [RegionSelector.LEAST_DEVELOPED]: "the least developed region",
      [RegionSelector.RICHEST]: `the region richest in ${r.resource ? resourceWord(scope, r.resource) : "resources"}`,
      [RegionSelector.EACH]: "every region",
      [RegionSelector.PLAYER_CHOICE]: "a region the player concerned chooses",
    };
    picks.push(`${r.label}: ${what[r.selector] ?? "a region"}`);
  }
  for (const p of e.players ?? []) {
    if (p.selector === PlayerSelector.SELF) continue;
    const holding = p.categories?.length ? ` holding ${cats(p.categories)}` : "";
    const in_ = p.in ? ` in ${p.in}` : "";
    const what: Record<number, string> = {
      [PlayerSelector.OTHER]: `another player${p.in ? ` present in ${p.in}` : ""}${holding}`,
      [PlayerSelector.EACH_OTHER_PRESENT]: `each other player present${in_}${holding}`,
      [PlayerSelector.EACH_PRESENT]: `each player present${in_}${holding}`,
      [PlayerSelector.MOST_INFLUENTIAL]: `the player with the most ${p.categories?.length ? cats(p.categories, "and") : "cubes"}${in_}`,
      [PlayerSelector.SECOND_INFLUENTIAL]: `the runner-up in ${p.categories?.length ? cats(p.categories, "and") : "cubes"}${in_}`,
      [PlayerSelector.LEADER]: `the world leader of ${categoryWord(scope, p.categories?.[0] ?? 0)}`,
      [PlayerSelector.EACH_OTHER]: "each other player",
      [PlayerSelector.RICHEST]: "the player holding the most resources",
    };
    picks.push(`${p.label}: ${what[p.selector] ?? "a player"}`);
  }
  const steps = (e.steps ?? []).map((s) => {
    const n = s.amount;
    const cubes = (kinds: string) => `${plural(n, "cube", "cubes")}${kinds ? ` of ${kinds}` : ""}`;
    const where = s.region ? ` in ${s.region}` : "";
    let line: string;
    switch (s.op) {
      case Op.ADD_INFLUENCE: line = `${verb(s.player, "gain", "gains")} ${cubes(cats(s.categories))}${where}`; break;
      case Op.REMOVE_INFLUENCE: line = `${verb(s.player, "lose", "loses")} up to ${cubes(cats(s.categories))}${where}`; break;
      case Op.DEVELOP: line = `${s.region} gains ${n} development`; break;
      case Op.UNDEVELOP: line = `${s.region} loses ${n} development (never below 1)`; break;
      case Op.TAKE_RESOURCE: line = `${verb(s.player, "take", "takes")} up to ${res(s.resource, n)} from ${s.region}'s stock`; break;
      case Op.ADD_REGION_RESOURCE: line = `${s.region}'s stock gains ${res(s.resource, n)}`; break;
      case Op.DESTROY_RESOURCE: line = `${s.region}'s stock loses up to ${res(s.resource, n)}`; break;
      case Op.LOSE_RESOURCE: line = `${verb(s.player, "lose", "loses")} up to ${res(s.resource, n)} held`; break;
      case Op.STEAL_RESOURCE: line = `you take up to ${res(s.resource, n)} from ${who(s.player)}`; break;
      case Op.GAIN_RESOURCE: line = `${verb(s.player, "gain", "gains")} ${res(s.resource, n)}`; break;
      case Op.MOVE_INFLUENCE: line = `${verb(s.player, "move", "moves")} up to ${cubes(cats(s.categories))} from ${s.from} to ${s.region}`; break;
      case Op.CONVERT_INFLUENCE: {
        const into = categoryWord(scope, s.categories?.[0] ?? 0);
        const from = (s.categories?.length ?? 0) > 1 ? cats(s.categories.slice(1)) : "other categories";
        line = `up to ${plural(n, "cube", "cubes")} of ${who(s.player) === "you" ? "yours" : who(s.player) + "'s"} in ${s.region} turn from ${from} to ${into}`;
        break;
      }
      case Op.DRAW_CARDS: line = `${verb(s.player, "draw", "draws")} ${plural(n, "card", "cards")}`; break;
      case Op.DISCARD_CARDS: line = `${verb(s.player, "discard", "discards")} ${plural(n, "card", "cards")}`; break;
      default: line = "…";
    }
    const from = (s.world_needs ?? []).map((w) => `${categoryWord(scope, w.category)} ${roman(w.level)}`);
    const sentence = line.charAt(0).toUpperCase() + line.slice(1);
    return from.length ? `From world level ${list(from, "and")}: ${line}.` : `${sentence}.`;
  });
  return { picks, steps };
}

/** An effect's needs: "Politics III + Commerce I". */
export function needsWords(e: Effect, scope: TextScope): string {
  return (e.needs ?? []).map((n) => `${categoryWord(scope, n.category)} ${roman(n.level)}`).join(" + ");
}

/** What the view says of the effect being resolved, in words (display only): the card, which of
 * its effects, the step running out of how many, and the regions and players its labels stand for
 * so far. Empty when nothing runs. */
export function runningWords(view: View, data: Data, names: readonly string[]): string {
  const r = view.running;
  if (!r || !r.card) return "";
  const card = cardOf(data, r.card);
  const effect = r.effect === 0 ? card?.civil : card?.effects?.[r.effect - 1];
  const who = r.player >= 0 ? playerName(names, r.player) : "Civil society";
  const steps = effect?.steps?.length ?? 0;
  const parts = [
    `${who} resolves ${card?.name ?? r.card}${effect?.name ? ` — ${effect.name}` : ""}`,
    steps > 0 ? `step ${Math.min(r.step + 1, steps)} of ${steps}` : "",
  ].filter(Boolean);
  const bound = [
    ...(r.regions ?? []).map((b) => `${b.label}: ${b.regions.map((i) => regionName(data, view.regions?.[i], i)).join(", ")}`),
    ...(r.players ?? []).map((b) => `${b.label.split("@")[0]}: ${b.seats.map((p) => playerName(names, p)).join(", ")}`),
  ];
  return `${parts.join(", ")}${bound.length ? ` (${bound.join("; ")})` : ""}.`;
}

/** A faction's power in words (display only: the engine applies it). */
export function powerWords(f: Faction | undefined, scope: TextScope): string {
  const p = f?.power;
  if (!p) return "";
  const n = p.amount;
  const kinds = list((p.categories ?? []).map((c) => categoryWord(scope, c)));
  switch (p.kind) {
    case PowerKind.FREE_LEVELS: return `the first ${n === 1 ? "missing level" : `${n} missing levels`} of each card played ${n === 1 ? "is" : "are"} free`;
    case PowerKind.EXTRA_PRIVATISE: return `privatises ${n} more ${p.resource ? resourceWord(scope, p.resource) : n === 1 ? "resource, of any type," : "resources, of any types,"} each turn`;
    case PowerKind.CIVIL_INCOME: return `gains ${n} ${p.resource ? resourceWord(scope, p.resource) : n === 1 ? "resource" : "resources"} for each cube civil society takes from them`;
    case PowerKind.EXTORTION: return `at the start of each of their turns, takes ${plural(n, "resource", "resources")} from each other player present in a region where they hold more ${kinds ? `${kinds} cubes` : "cubes"} than that player (the type that player holds most)`;
    case PowerKind.HAND_SIZE: return `a hand of ${n} cards`;
    case PowerKind.CHEAP_INFLUENCE: return `adding a cube${kinds ? ` of ${kinds}` : ""} by investment costs ${n}`;
    default: return "";
  }
}

// ----- civil society in the log -----

const CIVIL = { reacts: "controle_global.civil_reacts", reveals: "controle_global.civil_reveals", done: "controle_global.civil_done" };
const ROUND_START = "controle_global.round_start";

export type CivilLineKind = "reacts" | "reveals" | "step" | "done";

/** The latest civil-society reaction as the log tells it, from "civil society reacts" on. */
export interface CivilReaction {
  lines: { entry: LogEntry; kind: CivilLineKind }[];
  /** The cards it reveals, one after the other (0 when its first line has left the log). */
  cards: number;
  /** Revealed so far: the last one is the card being resolved until the reaction is done. */
  revealed: number;
  done: boolean;
  /** Its first lines have left the log (it keeps the latest entries only). */
  cut: boolean;
  /** Rounds begun since it ended: 0 while it resolves, 1 in the round right after it. */
  roundsSince: number;
}

const keyOf = (e: LogEntry) => e.text?.key ?? "";

/**
 * The latest reaction the log tells, or undefined. `resolving` (the view's phase is civil
 * society's) takes a log whose reaction began before its oldest entry as that reaction's end.
 */
export function civilReaction(log: readonly LogEntry[], resolving: boolean): CivilReaction | undefined {
  let start = -1;
  for (let k = log.length - 1; k >= 0 && start < 0; k--) if (keyOf(log[k]) === CIVIL.reacts) start = k;
  const cut = start < 0;
  if (cut && !resolving) return undefined;
  let end = log.length;
  for (let k = Math.max(0, start); k < log.length; k++) {
    if (keyOf(log[k]) === CIVIL.done) { end = k + 1; break; }
  }
  const lines = log.slice(Math.max(0, start), end).map((entry) => {
    const key = keyOf(entry);
    const kind: CivilLineKind = key === CIVIL.reacts ? "reacts" : key === CIVIL.reveals ? "reveals" : key === CIVIL.done ? "done" : "step";
    return { entry, kind };
  });
  const first = cut ? undefined : log[start].text?.args?.[0];
  return {
    lines,
    cards: first ? toNumber(first.number) : 0,
    revealed: lines.filter((l) => l.kind === "reveals").length,
    done: lines.some((l) => l.kind === "done"),
    cut,
    roundsSince: log.slice(end).filter((e) => keyOf(e) === ROUND_START).length,
  };
}

/** The card a "civil society reveals" line names (by its name: the log writes names). */
export function revealedCard(data: Data, entry: LogEntry | undefined): Card | undefined {
  const name = entry?.text?.args?.[0]?.name;
  return name ? (data?.cards ?? []).find((c) => c.name === name) : undefined;
}

// ----- the banner -----

export interface Banner { text: string; mine: boolean; over: boolean }

/** What the banner says to `seat`; "yours" only when its view publishes moves or asks it. */
export function bannerFor(view: View, seat: number, names: readonly string[], opts: {
  gameOver: boolean; canMove: boolean; asked: boolean; acting: readonly number[];
}): Banner {
  const phase = view.phase;
  if (opts.gameOver || phase === Phase.GAME_OVER) return { text: "Game over — the final score is below", mine: false, over: true };
  if (opts.asked) return { text: "Your decision — answer the question below", mine: true, over: false };
  if (opts.canMove) {
    if (seat === view.drawing_seat && seat !== view.to_act) return { text: "Your discard and draw is open — finish it while the next player starts", mine: true, over: false };
    return { text: `Your move — ${PHASE_NAME[phase] ?? "play"}`, mine: true, over: false };
  }
  const waiting = (opts.acting.length ? opts.acting : view.to_act >= 0 ? [view.to_act] : []).filter((s) => s !== seat);
  const who = waiting.map((s) => playerName(names, s)).join(" and ");
  const name = PHASE_NAME[phase] ?? "…";
  return { text: who ? `${name} — waiting for ${who}` : name, mine: false, over: false };
}
