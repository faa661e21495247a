// The enums of proto/games/limit.proto (generated) in words, board constants, and the pure logic of the LIMIT board:
// what the board adds to the core's questions, the Alliance step's moves, the parameters a card
// play needs, the score sheet. Nothing here touches the DOM, so it is unit-tested
// (test/limit.test.ts).
import { lowerNames, setValues, unprefixed } from "../../enums";
import * as pb from "../../gen/games/limit";
import type { Draft, Msg } from "../../proto";
import type { Prompt } from "../../table";
import { moveItem, targetKey } from "../../ui/prompt";

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

/** The highest rank a factory can reach (territories cap the renewable track). */
export function maxFactoryRank(view: BoardView, n: Partial<Nation>, f: number): number {
  const top = printedTrack(view, f).value.length;
  if (f !== Factory.RENEWABLE) return top;
  return Math.max(1, Math.min(top, (n.territories ?? 0) + (view?.board?.territory_rank_bonus ?? 0)));
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

// ----- classes -----

export function canRaise(levels: number[], k: number): boolean {
  return levels[k] < 4 && (k === 0 || levels[k] < levels[k - 1]);
}
export function canLower(levels: number[], k: number): boolean {
  return levels[k] > 1 && (k === levels.length - 1 || levels[k + 1] < levels[k]);
}

/** How many class steps a card's play names, and on whose board (the engine sends them). */
export interface ClassSpec { steps: number; direction: "up" | "down"; onTarget: boolean }
export function classSpec(card: Card): ClassSpec | null {
  const cs = card.class_steps;
  if (!(card.params ?? []).includes("classes") || !cs) return null;
  return { steps: cs.steps ?? 0, direction: cs.down ? "down" : "up", onTarget: !!cs.on_target };
}

/** Steps actually required: a raise asks no more steps than the classes have room for. */
export function requiredSteps(spec: ClassSpec, levels: number[]): number {
  if (spec.direction === "down") return levels.some((_, k) => canLower(levels, k)) ? spec.steps : 0;
  const room = levels.reduce((s, l) => s + (4 - l), 0);
  return Math.min(spec.steps, room);
}

/** Applies a sequence of one-step moves; null when one of them breaks the class order. */
export function applySteps(levels: number[], steps: number[], direction: "up" | "down"): number[] | null {
  const lv = [...levels];
  for (const k of steps) {
    if (k < 0 || k >= lv.length) return null;
    if (direction === "up" ? !canRaise(lv, k) : !canLower(lv, k)) return null;
    lv[k] += direction === "up" ? 1 : -1;
  }
  return lv;
}

/** A legal default: each step goes to the lowest class that can still move (spreads the gains). */
export function defaultSteps(levels: number[], count: number, direction: "up" | "down"): number[] {
  const lv = [...levels];
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    let pick = -1;
    for (let k = lv.length - 1; k >= 0; k--) {
      if (direction === "up" ? canRaise(lv, k) : canLower(lv, k)) { pick = k; break; }
    }
    if (pick < 0) break;
    out.push(pick);
    lv[pick] += direction === "up" ? 1 : -1;
  }
  return out;
}

// ----- decisions -----

/** One clickable move of a turn form (the Alliance step's). */
export interface Choice {
  id: string;
  label: string;
  action: Action;
  tone?: "primary" | "danger" | "plain";
}

function otherSeats(view: BoardView, seat: number): number[] {
  return (view.nations ?? []).map((n) => n.seat).filter((s) => s !== seat);
}

function nationOf(view: BoardView, seat: number): Nation | undefined {
  return (view.nations ?? []).find((n) => n.seat === seat);
}

function stockOf(n: Nation, r: number): number {
  const st: Partial<pb.Stocks> = n?.stocks ?? {};
  return [0, st.renewable, st.industrial, st.military, st.fossil][r] ?? 0;
}

/** The Alliance step's moves, as the engine lists them on the prompt (it checked them). */
export function allianceTurnChoices(prompt: Decision, names: string[]): Choice[] {
  const out: Choice[] = [{ id: "pass", label: "Do nothing", action: { pass: {} } }];
  for (const p of prompt.alliance_proposals ?? []) {
    out.push({
      id: `propose-${p.kind}-${p.to_seat}`, label: `Propose a ${ALLIANCE_NAME[p.kind]} alliance to ${playerName(names, p.to_seat)}`,
      action: { alliance_propose: { kind: p.kind, to_seat: p.to_seat } }, tone: "primary",
    });
  }
  for (const e of prompt.alliance_exclusions ?? []) {
    out.push({
      id: `exclude-${e.kind}-${e.seat}`, label: `Exclude ${playerName(names, e.seat)} from the ${ALLIANCE_NAME[e.kind]} alliance`,
      action: { alliance_exclude: { kind: e.kind, seat: e.seat } }, tone: "danger",
    });
  }
  for (const l of prompt.alliance_leaves ?? []) {
    out.push({ id: `leave-${l.kind}`, label: `Leave the ${ALLIANCE_NAME[l.kind]} alliance`, action: { alliance_leave: { kind: l.kind } }, tone: "danger" });
  }
  return out;
}

/** A line of what the board knows and the core question does not say; `warn`: an answer will be refused. */
export interface Fact { key: string; text: string; warn?: boolean }

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
    case PromptKind.RESIST: {
      const need = (prompt.amount ?? 0) as number;
      const have = stockOf(me, Resource.MILITARY);
      return [have >= need
        ? { key: "military", text: `You hold ${have} military: resisting spends ${need}.` }
        : { key: "military", text: `You hold only ${have} military: too few to resist (${need} needed).`, warn: true }];
    }
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

// ----- card plays -----

export interface ParamOption { value: number; label: string; disabled?: boolean }
/** A select-like parameter of a card play. */
export interface SelectParam { name: "factory" | "target" | "resource" | "deck" | "retrieve_card" | "price_up"; label: string; options: ParamOption[] }

export interface PlayPlan {
  selects: SelectParam[];
  military?: { min: number; max: number };
  classes?: ClassSpec;
  transactions?: { max: number };
}

function hasParam(card: Card, p: string): boolean {
  return (card.params ?? []).includes(p);
}

/** Which parameters a card play needs, and their legal values as far as the View tells. */
export function playPlan(card: Card, view: BoardView, seat: number, names: string[]): PlayPlan {
  const me: Partial<Nation> = nationOf(view, seat) ?? {};
  const selects: SelectParam[] = [];
  const plan: PlayPlan = { selects };
  if (hasParam(card, "target")) {
    const opts: ParamOption[] = view.solo
      ? [{ value: STAR_TARGET, label: "⭐ The star nation" }]
      : otherSeats(view, seat).map((s) => ({ value: s, label: playerName(names, s) }));
    selects.push({ name: "target", label: "Target", options: opts });
  }
  if (hasParam(card, "factory")) {
    const targetFactory = !!card.targets; // annexation, mass destruction: the target's factory
    const fs: number[] = card.factory_options ?? [];
    const prices: number[] = card.factory_prices ?? []; // only cards priced by the factory raised
    selects.push({
      name: "factory",
      label: targetFactory ? "Target's factory to lower" : "Factory",
      options: fs.map((f, i) => {
        const r = factoryRank(me, f);
        const priced = i < prices.length;
        const top = r >= maxFactoryRank(view, me, f);
        return {
          value: f,
          label: targetFactory ? cap(FACTORY_NAME[f]) : `${cap(FACTORY_NAME[f])} (rank ${r}${priced ? `, ${prices[i]} $` : ""})`,
          disabled: priced && (top || prices[i] > (me.money ?? 0)),
        };
      }),
    });
  }
  if (hasParam(card, "resource")) {
    const label = hasParam(card, "price_up") ? "Price cube to move" : card.targets ? "Loot" : "Resource";
    const rs: number[] = card.resource_options ?? [];
    selects.push({ name: "resource", label, options: rs.map((r) => ({ value: r, label: cap(RESOURCE_NAME[r]) })) });
  }
  if (hasParam(card, "price_up")) {
    selects.push({ name: "price_up", label: "Direction", options: [{ value: 1, label: "Price up ▶" }, { value: 0, label: "◀ Price down" }] });
  }
  if (hasParam(card, "deck")) {
    selects.push({
      name: "deck", label: "Deck to draw from",
      options: DECKS.map((d) => ({
        value: d, label: `${DECK_NAME[d]} (${me.deck_sizes?.[d - 1] ?? 0})`, disabled: !((me.deck_sizes?.[d - 1] ?? 0) > 0),
      })),
    });
  }
  if (hasParam(card, "retrieve_card")) {
    const played = me.played_this_generation ?? [];
    selects.push({
      name: "retrieve_card", label: "Card to take back",
      options: played.length ? played.map((c) => ({ value: c.id, label: c.name_en || c.name })) : [{ value: 0, label: "— nothing played yet —" }],
    });
  }
  if (hasParam(card, "military") || card.military_min > 0) {
    plan.military = { min: card.military_min ?? 0, max: me.stocks?.military ?? 0 };
  }
  const cs = classSpec(card);
  if (cs) plan.classes = cs;
  if (hasParam(card, "transactions")) {
    plan.transactions = { max: card.max_transactions || 1 };
  }
  return plan;
}

export interface TransactionDraft { resource: number; sell: boolean; quantity: number }
export interface PlayDraft {
  values: Record<string, number>;
  military: number;
  classes: number[];
  transactions: TransactionDraft[];
}

function firstEnabled(p: SelectParam): number {
  return (p.options.find((o) => !o.disabled) ?? p.options[0])?.value ?? 0;
}

/** A draft filled with legal defaults (first enabled options, minimum military, spread classes). */
export function defaultDraft(plan: PlayPlan, card: Card, view: BoardView, seat: number): PlayDraft {
  const values: Record<string, number> = {};
  for (const s of plan.selects) values[s.name] = firstEnabled(s);
  if ("price_up" in values && "resource" in values) {
    const t = marketTrack(view, values.resource);
    if (t && t.position + 1 >= (t.prices?.length ?? 0)) values.price_up = 0;
  }
  const draft: PlayDraft = { values, military: plan.military?.min ?? 0, classes: [], transactions: [] };
  if (plan.classes) draft.classes = defaultClassesFor(plan.classes, view, seat, values.target);
  if (plan.transactions) {
    const t = defaultTransaction(view, seat);
    if (t) draft.transactions = [t];
  }
  return draft;
}

export function classLevelsFor(spec: ClassSpec, view: BoardView, seat: number, target?: number): number[] {
  const who = spec.onTarget ? target : seat;
  return who != null && who >= 0 ? nationOf(view, who)?.classes ?? [] : [];
}

export function defaultClassesFor(spec: ClassSpec, view: BoardView, seat: number, target?: number): number[] {
  const lv = classLevelsFor(spec, view, seat, target);
  if (!lv.length) return [];
  return defaultSteps(lv, requiredSteps(spec, lv), spec.direction);
}

export function marketTrack(view: BoardView, resource: number): PriceTrack | undefined {
  return (view.market?.tracks ?? []).find((t) => t.resource === resource);
}
export function priceOf(track: PriceTrack | null | undefined): number {
  return track?.prices?.[track.position] ?? 0;
}

/** A transaction that is possible now: sell one of what we hold most of, else buy one we can afford. */
export function defaultTransaction(view: BoardView, seat: number): TransactionDraft | null {
  const me = nationOf(view, seat);
  if (!me) return null;
  const stock: Record<number, number> = {
    [Resource.RENEWABLE]: me.stocks?.renewable ?? 0, [Resource.INDUSTRIAL]: me.stocks?.industrial ?? 0,
    [Resource.MILITARY]: me.stocks?.military ?? 0, [Resource.FOSSIL]: me.stocks?.fossil ?? 0,
  };
  for (const r of RESOURCES) {
    const t = marketTrack(view, r);
    if (t && t.position > 0 && stock[r] > 0 && priceOf(t) <= (view.world_bank ?? 0)) return { resource: r, sell: true, quantity: 1 };
  }
  for (const r of RESOURCES) {
    const t = marketTrack(view, r);
    if (t && t.market_stock > 0 && priceOf(t) <= (me.money ?? 0)) return { resource: r, sell: false, quantity: 1 };
  }
  return null;
}

/** The largest quantity a transaction can have now (market stock / own stock / money / bank). */
export function maxQuantity(view: BoardView, seat: number, t: TransactionDraft): number {
  const me = nationOf(view, seat);
  const track = marketTrack(view, t.resource);
  if (!me || !track) return 0;
  const price = priceOf(track);
  if (t.sell) {
    if (track.position === 0) return 0;
    const have = [0, me.stocks?.renewable, me.stocks?.industrial, me.stocks?.military, me.stocks?.fossil][t.resource] ?? 0;
    return Math.min(have, price > 0 ? Math.floor((view.world_bank ?? 0) / price) : have);
  }
  return Math.min(track.market_stock ?? 0, price > 0 ? Math.floor((me.money ?? 0) / price) : track.market_stock ?? 0);
}

/** The PlayCard action of a draft. */
export function playAction(card: Card, plan: PlayPlan, draft: PlayDraft): Action {
  const play: Record<string, unknown> = { card: card.id };
  for (const s of plan.selects) {
    const v = draft.values[s.name];
    if (s.name === "price_up") play.price_up = v === 1;
    else if (s.name === "retrieve_card") { if (v) play.retrieve_card = v; }
    else play[s.name] = v;
  }
  if (plan.military) play.military = draft.military;
  if (plan.classes) play.classes = [...draft.classes];
  if (plan.transactions) play.transactions = draft.transactions.filter((t) => t.quantity > 0).map((t) => ({ ...t }));
  return { play_card: play };
}

/** What is missing before the draft can be sent (empty when it is complete). */
export function draftProblem(plan: PlayPlan, draft: PlayDraft, view: BoardView, seat: number): string {
  if (plan.military) {
    if (draft.military < plan.military.min) return `Commit at least ${plan.military.min} military.`;
    if (draft.military > plan.military.max) return `You hold only ${plan.military.max} military.`;
  }
  if (plan.classes) {
    const lv = classLevelsFor(plan.classes, view, seat, draft.values.target);
    const need = requiredSteps(plan.classes, lv);
    if (draft.classes.length !== need) return `Choose ${need} class step${need === 1 ? "" : "s"} (${draft.classes.length} chosen).`;
  }
  if ("price_up" in draft.values && "resource" in draft.values) {
    const t = marketTrack(view, draft.values.resource);
    if (t && draft.values.price_up === 1 && t.position + 1 >= (t.prices?.length ?? 0)) return "That price is already at its highest: move it down.";
    if (t && draft.values.price_up === 0 && t.position === 0) return "That price is already at its lowest: move it up.";
  }
  if (plan.transactions) {
    const txs = draft.transactions;
    if (txs.length === 2 && txs[0].resource === txs[1].resource) return "Two transactions must be on different resources.";
    for (const t of txs) {
      if (t.quantity < 1) return "A transaction needs a quantity of at least 1.";
      // Speculation moves a price first, so only the engine knows its exact limit.
      if (!("price_up" in draft.values) && t.quantity > maxQuantity(view, seat, t)) {
        const max = maxQuantity(view, seat, t);
        return max === 0 ? `You cannot ${t.sell ? "sell" : "buy"} ${RESOURCE_NAME[t.resource]} now.`
          : `At most ${max} ${RESOURCE_NAME[t.resource]} can be ${t.sell ? "sold" : "bought"} now.`;
      }
    }
  }
  return "";
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

/** What a view's card carries itself: its id and, in the owner's hand, what its position sets. */
const OWN_CARD_FIELDS = ["playable", "factory_prices", "max_transactions"] as const;

// Per static data, each view card with its printed fields put back, keyed by the view's card
// object: a diff shares unchanged subtrees, so an unchanged card is hydrated once.
const cardCache = new WeakMap<object, WeakMap<Card, Card>>();

/** A card the static data does not print (not arrived yet, or an unknown id): only its number. */
function unprintedCard(id: number): Card {
  return {
    id, key: "", name: `#${id}`, name_en: "", deck: Deck.UNSPECIFIED, permanent: false, cost_text: "", effect_text: "",
    params: [], targets: false, resistible: false, military_min: 0, playable: false, removable: false, class_steps: null,
    factory_options: [], resource_options: [], tech_level: 0, factory_prices: [], max_transactions: 0,
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
