// The enums of proto/games/limit.proto (generated) in words, board constants, and what the LIMIT
// board reads from a view: the facts beside the core's questions, which hand card each published
// move plays, the score sheet. What a nation may do is the engine's published moves
// (src/ui/kit/moves.ts), never worked out here. Nothing here touches the DOM, so it is unit-tested
// (test/limit.test.ts).
import { lowerNames, setValues, unprefixed } from "../../enums";
import * as pb from "../../gen/games/limit";
import type { Draft, Msg } from "../../proto";
import type { Prompt } from "../../table";
import { moveItem, targetKey } from "../../ui/prompt";
import { choicesForTarget, type MoveChoice } from "../../ui/kit/moves";

export const Phase = unprefixed(pb.Phase, "PHASE_");
export const PromptKind = unprefixed(pb.PromptKind, "PROMPT_");
/** Each decision's name in lower case ("choose_deck"): tests and styles find a prompt by it. */
export const PROMPT_SLUG = lowerNames(pb.PromptKind, "PROMPT_");

export const Resource = unprefixed(pb.Resource, "RESOURCE_");
export const Factory = unprefixed(pb.Factory, "FACTORY_");
export const Deck = unprefixed(pb.Deck, "DECK_");
export const AllianceKind = unprefixed(pb.AllianceKind, "ALLIANCE_");
export const CrisisKind = unprefixed(pb.CrisisKind, "CRISIS_");
export const SocialStep = unprefixed(pb.SocialStep, "SOCIAL_STEP_");
export const STAR_TARGET = -2;

export const CLASS_LETTERS = ["A", "B", "C", "D", "E"];
export const RESOURCE_NAME = lowerNames(pb.Resource, "RESOURCE_");
export const RESOURCES = setValues(pb.Resource, "RESOURCE_");
/** A resource by its initial (R, I, M, F), as the board prints it. */
export const RESOURCE_LETTER: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(RESOURCE_NAME).map(([value, name]) => [value, name[0].toUpperCase()]));
export const FACTORY_NAME = lowerNames(pb.Factory, "FACTORY_");
export const DECK_NAME: Record<number, string> = {
  [Deck.SOCIETY]: "Society", [Deck.ARMY_ECONOMY]: "Army & Economy", [Deck.PRODUCTION]: "Production",
};
export const DECKS = setValues(pb.Deck, "DECK_");
export const DECK_ICON: Record<number, string> = { [Deck.SOCIETY]: "👥", [Deck.ARMY_ECONOMY]: "⚔️", [Deck.PRODUCTION]: "🏭" };
export const ALLIANCE_NAME = lowerNames(pb.AllianceKind, "ALLIANCE_");
export const CRISIS_NAME: Record<number, string> = {
  [CrisisKind.FINANCIAL]: "Financial", [CrisisKind.ECOLOGICAL]: "Ecological", [CrisisKind.MILITARY]: "Military",
};
export const CRISIS_ICON: Record<number, string> = {
  [CrisisKind.FINANCIAL]: "💸", [CrisisKind.ECOLOGICAL]: "🌡️", [CrisisKind.MILITARY]: "💣",
};

export const PHASE_NAME: Record<number, string> = {
  [Phase.NEW_POLICY]: "New policy", [Phase.HAND_LIMIT]: "Hand limit", [Phase.POLITICAL_DECISIONS]: "Political decisions",
  [Phase.SOCIAL]: "Social phase", [Phase.INTERNATIONAL]: "International phase", [Phase.ALLIANCE]: "Alliances",
  [Phase.RESILIENCE]: "Resilience test", [Phase.GAME_OVER]: "Game over",
};
export const SOCIAL_STEP_NAME: Record<number, string> = {
  [SocialStep.FEEDING]: "Feeding", [SocialStep.CONSERVATION]: "Conservation", [SocialStep.CONSUMPTION]: "Consumption",
  [SocialStep.DEMOGRAPHIC_GROWTH]: "Demographic growth", [SocialStep.MORTALITY]: "Mortality",
  [SocialStep.NATALITY]: "Natality", [SocialStep.ECONOMIC_GROWTH]: "Economic growth", [SocialStep.TAXATION]: "Taxation",
  [SocialStep.PRODUCTION]: "Production", [SocialStep.PUBLIC_ORDER]: "Public order",
  [SocialStep.CLASS_STRUGGLE]: "Class struggle", [SocialStep.DONE]: "Done",
};

// ----- the view's types -----

export type Nation = Msg<pb.Nation>;
export type Card = Msg<pb.Card>;
/** One of LIMIT's own decisions (View.prompts), beside the core's questions. */
export type Decision = Msg<pb.Prompt>;
export type ScoreLine = Msg<pb.ScoreLine>;
export type Stocks = Msg<pb.Stocks>;
export type StarNation = Msg<pb.StarNation>;
/** A price track with its printed prices put back (withStatic). */
export type PriceTrack = Msg<pb.PriceTrack> & { prices?: number[] };
/** The static data as decoded (GameInfo.static_data): the printed cards, board, prices, events. */
export type StaticData = Msg<pb.StaticData>;
/** The View as decoded. */
export type View = Msg<pb.View>;
/**
 * The view as the board reads it (withStatic): the printed board, each track's prices and the
 * solo game's last event put back.
 */
export type BoardView = Omit<View, "market"> & {
  market: { tracks: PriceTrack[] } | null;
  board?: Msg<pb.Board> | null;
  last_event?: string;
};
/** An Action as `submit` takes it. */
export type Action = Draft<pb.Action>;

// The printed tracks come with the View (its `board`); these read them.
export interface PrintedTrack { value: number[]; fossil: number[]; pollution: number[] }
const NO_TRACK: PrintedTrack = { value: [], fossil: [], pollution: [] };
export function printedTrack(view: BoardView | null | undefined, f: number): PrintedTrack {
  const t = (view?.board?.tracks ?? []).find((x) => x.factory === f);
  return t ? { value: t.value ?? [], fossil: t.fossil ?? [], pollution: t.pollution ?? [] } : NO_TRACK;
}
export function populationValues(view: BoardView): number[] { return view?.board?.population ?? []; }
export function demographicIndex(view: BoardView): number[] { return view?.board?.demographic_index ?? []; }
/** Value printed at a 1-based rank of a factory track (0 outside it). */
export function factoryValueAt(view: BoardView, f: number, rank: number): number {
  return rank >= 1 ? printedTrack(view, f).value[rank - 1] ?? 0 : 0;
}
export const DISORDER_POSITIONS = 11;
export const GENERATIONS = 7;
export const GENERATION_YEARS = [1850, 1885, 1920, 1955, 1990, 2025, 2060];
export const CRISES_TO_END = 4;

export type DisorderZone = "boom" | "progress" | "revolt";
export function disorderZone(d: number): DisorderZone {
  return d <= 1 ? "boom" : d >= 9 ? "revolt" : "progress";
}

export function factoryRank(n: Partial<Nation>, f: number): number {
  return (f === Factory.RENEWABLE ? n.renewable_rank : f === Factory.INDUSTRIAL ? n.industrial_rank : n.military_rank) ?? 0;
}

// ----- names -----

export function playerName(names: string[], seat: number): string {
  if (seat === STAR_TARGET) return "the star nation";
  return names[seat] ?? `Nation ${seat + 1}`;
}

/** The engine names nations "Seat N" (1-based): put the players' names back. */
export function withNames(text: string, names: string[]): string {
  return text.replace(/\bSeat (\d+)\b/g, (whole, n) => names[Number(n) - 1] ?? whole);
}

// ----- decisions -----

function nationOf(view: BoardView, seat: number): Nation | undefined {
  return (view.nations ?? []).find((n) => n.seat === seat);
}

function stockOf(n: Nation, r: number): number {
  const st: Partial<pb.Stocks> = n?.stocks ?? {};
  return [0, st.renewable, st.industrial, st.military, st.fossil][r] ?? 0;
}

/** A line of what the board knows and the core question does not say. */
export interface Fact { key: string; text: string }

/**
 * What a nation needs beside a core question (the generic panel names the options only): what it
 * holds, and what each option would change on its board. Read from LIMIT's own prompt (`view.prompts`).
 */
export function decisionFacts(prompt: Decision, view: BoardView): Fact[] {
  const me = nationOf(view, prompt.seat);
  if (!me) return [];
  const options: number[] = prompt.options ?? [];
  const money: Fact = { key: "money", text: `You hold ${me.money ?? 0} $.` };
  switch (prompt.kind) {
    case PromptKind.CHOOSE_DECK:
      return options.map((d) => {
        const left = me.deck_sizes?.[d - 1] ?? 0;
        return { key: `deck-${d}`, text: `${DECK_ICON[d] ?? ""} ${DECK_NAME[d] ?? `Deck ${d}`}: ${left} card${left === 1 ? "" : "s"} left`.trim() };
      });
    case PromptKind.DISCARD:
      return [{ key: "hand", text: `Your hand holds ${me.hand_size ?? 0} cards; its limit is ${me.hand_limit ?? 0}.` }];
    case PromptKind.RESIST:
      return [{ key: "military", text: `You hold ${stockOf(me, Resource.MILITARY)} military: resisting spends ${(prompt.amount ?? 0) as number}.` }];
    case PromptKind.CONTRIBUTE: {
      const missing = (prompt.missing ?? 0) as number;
      return missing > 0 ? [money, { key: "missing", text: `${missing} $ still missing.` }] : [money, { key: "missing", text: "Nothing is missing any more." }];
    }
    case PromptKind.ALLIANCE_FEE:
      return [money];
    case PromptKind.HELP_REQUEST:
    case PromptKind.HELP_ANSWER: {
      const r = prompt.resource as number;
      return RESOURCE_NAME[r] ? [{ key: "stock", text: `You hold ${stockOf(me, r)} ${RESOURCE_NAME[r]}.` }] : [];
    }
    case PromptKind.RAISE_CLASS:
    case PromptKind.LOWER_CLASS: {
      const up = prompt.kind === PromptKind.RAISE_CLASS;
      const levels: number[] = me.classes ?? [];
      return options.filter((k) => levels[k] != null).map((k) => ({
        key: `class-${CLASS_LETTERS[k]}`, text: `Class ${CLASS_LETTERS[k]}: ${levels[k]} → ${levels[k] + (up ? 1 : -1)}`,
      }));
    }
    case PromptKind.LOWER_FACTORY:
    case PromptKind.GROWTH_FACTORY: {
      const down = prompt.kind === PromptKind.LOWER_FACTORY || !!prompt.factory_down;
      return options.map((f) => {
        const r = factoryRank(me, f);
        const to = r + (down ? -1 : 1);
        return {
          key: `factory-${f}`,
          text: `${cap(FACTORY_NAME[f] ?? `factory ${f}`)} factory: rank ${r} → ${to} (output ${factoryValueAt(view, f, r)} → ${factoryValueAt(view, f, to)})`,
        };
      });
    }
    default:
      return [];
  }
}

/** The options of a core question that stand for cards (`target.card`): card id → option id. */
export function cardOptions(prompt: Prompt | null | undefined): Map<number, string> {
  const out = new Map<number, string>();
  for (const o of prompt?.options ?? []) {
    const key = targetKey(o.target);
    const card = key?.startsWith("card:") ? Number(key.slice(5)) : NaN;
    if (Number.isInteger(card) && !out.has(card)) out.set(card, o.id);
  }
  return out;
}

/** The cards of the chosen options, each with its place in the choice (1-based). */
export function pickedCards(prompt: Prompt, chosen: readonly string[]): Map<number, number> {
  const cardOf = new Map([...cardOptions(prompt)].map(([card, option]) => [option, card]));
  const out = new Map<number, number>();
  chosen.forEach((id, i) => {
    const card = cardOf.get(id);
    if (card != null) out.set(card, i + 1);
  });
  return out;
}

/**
 * A click on a drawn card, in the keeping question's order (the first `count` are kept): a card
 * going under the deck takes the last kept place; a kept card goes under first, and the first card
 * under is kept instead. The number kept never changes.
 */
export function keepToggle(order: readonly string[], id: string, count: number): string[] {
  const i = order.indexOf(id);
  if (i < 0 || count <= 0 || count >= order.length) return [...order];
  return moveItem(order, i, (i < count ? count : count - 1) - i);
}

// ----- published moves -----

/**
 * The hand cards the published moves play, each with its root: a root whose target is the card.
 * A card without one may not be played now, whatever the reason.
 */
export function handPlays(roots: readonly MoveChoice[], hand: readonly Card[]): Map<number, MoveChoice> {
  const out = new Map<number, MoveChoice>();
  for (const c of hand) {
    const [m] = choicesForTarget(roots, `card:${c.id}`);
    if (m) out.set(c.id, m);
  }
  return out;
}

/** The amounts the moves leave to choose (family params), in the board's words. */
const PARAM_WORDS: Readonly<Record<string, string>> = {
  "play_card.military": "Military committed",
  "play_card.transactions.quantity": "Quantity",
  "play_card.transactions.1.quantity": "Quantity of the second",
};
export function paramWords(path: string): string {
  return PARAM_WORDS[path] ?? path.slice(path.lastIndexOf(".") + 1);
}

// ----- score sheet -----

export interface ScoreRow { key: string; label: string; hint: string }
export const SCORE_ROWS: ScoreRow[] = [
  { key: "gross_happiness", label: "Gross inner happiness", hint: "(A + C + E) × demographic index" },
  { key: "financial", label: "Financial power", hint: "points per full 10 $, by the state of the world" },
  { key: "territory", label: "Territory", hint: "5 per territory" },
  { key: "military", label: "Military power", hint: "1 per full 3 military" },
  { key: "impact", label: "Historical impact", hint: "−2 per pollution, −1 per destabilisation" },
  { key: "total", label: "Total", hint: "" },
];

export function scoreValue(line: ScoreLine, key: string): number {
  if (key === "impact") return (line.pollution_penalty ?? 0) + (line.destabilisation_penalty ?? 0);
  const v = (line as Record<string, unknown>)[key];
  return typeof v === "number" ? v : 0;
}

/** Ranks by total (1 = best, ties share a rank), in seat order of `lines`. */
export function scoreRanks(lines: readonly ScoreLine[]): number[] {
  return lines.map((l) => 1 + lines.filter((o) => o.total > l.total).length);
}

export function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

// ----- turn banner -----

export interface Banner { text: string; mine: boolean; over: boolean }
export function bannerFor(view: BoardView, seat: number, names: string[], gameOver: boolean, readOnly: boolean): Banner {
  if (gameOver || view.phase === Phase.GAME_OVER) return { text: "Game over — the score sheet is below", mine: false, over: true };
  const prompts = view.prompts ?? [];
  const mine = !readOnly && prompts.some((p) => p.seat === seat);
  const waiting = [...new Set(prompts.filter((p) => p.seat !== seat || readOnly).map((p) => p.seat))];
  const who = waiting.map((s) => playerName(names, s)).join(", ");
  if (mine) {
    const p = prompts.find((x) => x.seat === seat);
    const what = p?.kind === PromptKind.POLITICAL_TURN ? "play a card or pass"
      : p?.kind === PromptKind.CHOOSE_DECK ? "choose a deck to draw from"
        : p?.kind === PromptKind.KEEP_CARDS ? "keep cards from your draw"
          : p?.kind === PromptKind.DISCARD ? "discard down to your hand limit"
            : "a decision is needed";
    return { text: `Your turn — ${what}${waiting.length ? ` (also waiting for ${who})` : ""}`, mine: true, over: false };
  }
  if (waiting.length) return { text: readOnly ? `${who} to decide` : `Waiting for ${who}`, mine: false, over: false };
  return { text: PHASE_NAME[view.phase] ?? "…", mine: false, over: false };
}

export function cap(s: string | undefined): string {
  return s ? s[0].toUpperCase() + s.slice(1) : "";
}

// ----- static data -----

/** What a view's card carries itself: its id and, in the owner's hand, whether its cost can be paid. */
const OWN_CARD_FIELDS = ["playable"] as const;

// Per static data, each view card with its printed fields put back, keyed by the view's card
// object: a diff shares unchanged subtrees, so an unchanged card is hydrated once.
const cardCache = new WeakMap<object, WeakMap<Card, Card>>();

/** A card the static data does not print (not arrived yet, or an unknown id): only its number. */
function unprintedCard(id: number): Card {
  return {
    id, key: "", name: `#${id}`, name_en: "", deck: Deck.UNSPECIFIED, permanent: false, cost_text: "", effect_text: "",
    params: [], targets: false, resistible: false, military_min: 0, playable: false, removable: false, class_steps: null,
    factory_options: [], resource_options: [], tech_level: 0,
  };
}

/** A view's card with the printed fields of the static data's card of the same id. */
export function printedCard(data: StaticData | null | undefined, card: Card): Card {
  if (!card) return card;
  let perData = cardCache.get(data ?? cardCache);
  if (!perData) cardCache.set(data ?? cardCache, (perData = new WeakMap()));
  let out = perData.get(card);
  if (!out) {
    const printed = data?.cards?.[card.id];
    out = { ...(printed ?? unprintedCard(card.id)), id: card.id };
    for (const f of OWN_CARD_FIELDS) if (card[f] != null) Object.assign(out, { [f]: card[f] });
    perData.set(card, out);
  }
  return out;
}

/** A copy of a decoded message with some fields replaced (its defaults stay on its prototype). */
function copyWith<T extends object, F extends object>(m: T, fields: F): Omit<T, keyof F> & F {
  return Object.assign(Object.create(Object.getPrototypeOf(m)) as T, m, fields);
}

/**
 * The view as the board reads it: views name cards and events by id and leave out the printed
 * board and prices (GameInfo.static_data has them); this puts them back. The view is not
 * written to (src/diff.ts shares its subtrees between versions): the parts changed are copies.
 */
export function withStatic(view: View, data: StaticData | null | undefined): BoardView {
  const cards = (list: Card[] | undefined) => (list ?? []).map((c) => printedCard(data, c));
  const prices: number[] = data?.prices ?? [];
  const event = view.solo && view.last_event_id >= 0 ? data?.events?.[view.last_event_id] : undefined;
  return copyWith(view, {
    hand: cards(view.hand),
    nations: (view.nations ?? []).map((n) => copyWith(n, {
      permanents: cards(n.permanents), set_aside: cards(n.set_aside), played_this_generation: cards(n.played_this_generation),
    })),
    prompts: (view.prompts ?? []).map((p) => (p.drawn?.length ? copyWith(p, { drawn: cards(p.drawn) }) : p)),
    market: view.market && copyWith(view.market, {
      tracks: (view.market.tracks ?? []).map((t) => copyWith(t, { prices })),
    }),
    board: data?.board ?? null,
    last_event: event ? `${event.name}: ${event.text}` : "",
  });
}
