// The pure side of PromptPanel: what a half-filled answer to a plateau.v1.Prompt holds, whether
// it is one the server takes (the checks of CheckAnswer in engine/core/table.cc, so the submit
// button is never enabled for an answer the core refuses), the Answer it becomes, the board
// targets its options stand for, and wrapping an Answer into a game's Action message.
import { protobuf } from "../proto";
import {
  PromptKind, targetCase, toNumber,
  type Answer, type CoreAction, type Prompt, type Target,
} from "../table";
import { hexKey } from "./hex";

/** What the player has filled in so far, for any kind of prompt. */
export interface PromptDraft {
  /** CHOOSE: the chosen option ids, in the order they were picked. */
  chosen: string[];
  /** ORDER: every option id, in the player's order. */
  order: string[];
  /** NUMBER: the input's text (may be mid-edit, such as "" or "-"). */
  number: string;
  /** TEXT: as typed. */
  text: string;
}

export function promptMin(p: Prompt): number {
  return toNumber(p.min);
}
export function promptMax(p: Prompt): number {
  return toNumber(p.max);
}

export function initialDraft(p: Prompt): PromptDraft {
  const lo = promptMin(p);
  const hi = promptMax(p);
  // The lowest allowed number (or 0 when 0 is allowed) rather than an empty box.
  const n = lo <= 0 && hi >= 0 ? 0 : lo;
  return { chosen: [], order: p.options.map((o) => o.id), number: String(n), text: "" };
}

/** Spaces and tabs off both ends, as the server trims. */
export function trimmed(s: string): string {
  return s.replace(/^[ \t]+|[ \t]+$/g, "");
}

/** Characters as the server counts them: code points of the trimmed text. */
export function textLength(s: string): number {
  return [...trimmed(s)].length;
}

/** The NUMBER input as an integer, or null when it is not a whole number. */
export function parseWhole(s: string): number | null {
  const t = s.trim();
  if (!/^-?\d+$/.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : null;
}

/** Why the server would refuse `a` as an answer to `p` (CheckAnswer's words), or "". */
export function answerProblem(p: Prompt, a: Answer): string {
  if (a.prompt_id && a.prompt_id !== p.id) return "That question was already answered or replaced: answer the current one.";
  const lo = promptMin(p);
  const hi = promptMax(p);
  const ids = new Set(p.options.map((o) => o.id));
  switch (p.kind) {
    case PromptKind.CHOOSE: {
      const n = a.options.length;
      if (n < lo || n > hi) return lo === hi ? `Choose exactly ${lo}.` : `Choose from ${lo} to ${hi}.`;
      const seen = new Set<string>();
      for (const id of a.options) {
        if (!ids.has(id)) return `"${id}" is not one of the choices.`;
        if (seen.has(id)) return "A choice is named twice.";
        seen.add(id);
      }
      return "";
    }
    case PromptKind.ORDER: {
      const bad = "Put every item in the order, each once.";
      if (a.options.length !== p.options.length) return bad;
      const seen = new Set<string>();
      for (const id of a.options) {
        if (!ids.has(id) || seen.has(id)) return bad;
        seen.add(id);
      }
      return "";
    }
    case PromptKind.NUMBER: {
      const n = toNumber(a.number);
      return n < lo || n > hi ? `Give a number from ${lo} to ${hi}.` : "";
    }
    case PromptKind.YES_NO:
      return "";
    case PromptKind.TEXT: {
      const n = textLength(a.text);
      if (n < lo) return "The answer is empty or too short.";
      if (n > hi) return `The answer is longer than ${hi} characters.`;
      return "";
    }
    default:
      return "This question cannot be answered.";
  }
}

/** The Answer a draft stands for (YES_NO answers are made by yesNoAnswer). */
export function draftAnswer(p: Prompt, d: PromptDraft): Answer {
  const a: Answer = { prompt_id: p.id, options: [], number: 0, yes: false, text: "" };
  switch (p.kind) {
    case PromptKind.CHOOSE: a.options = [...d.chosen]; break;
    case PromptKind.ORDER: a.options = [...d.order]; break;
    case PromptKind.NUMBER: a.number = parseWhole(d.number) ?? 0; break;
    case PromptKind.TEXT: a.text = trimmed(d.text); break;
  }
  return a;
}

export function yesNoAnswer(p: Prompt, yes: boolean): Answer {
  return { prompt_id: p.id, options: [], number: 0, yes, text: "" };
}

/** Why the draft cannot be sent yet, or "". */
export function draftProblem(p: Prompt, d: PromptDraft): string {
  if (p.kind === PromptKind.NUMBER && parseWhole(d.number) == null) return "Give a whole number.";
  return answerProblem(p, draftAnswer(p, d));
}

/** Whether CHOOSE is a single choice (radio buttons; a click on the board answers at once). */
export function singleChoice(p: Prompt): boolean {
  return p.kind === PromptKind.CHOOSE && promptMax(p) === 1;
}

/**
 * Picks or unpicks an option. A single choice replaces the pick; otherwise the option toggles,
 * and a pick beyond the most allowed is ignored (the boxes left are disabled then anyway).
 */
export function toggleChoice(p: Prompt, chosen: readonly string[], id: string): string[] {
  if (!p.options.some((o) => o.id === id)) return [...chosen];
  if (singleChoice(p)) return chosen.length === 1 && chosen[0] === id ? [] : [id];
  if (chosen.includes(id)) return chosen.filter((x) => x !== id);
  if (chosen.length >= promptMax(p)) return [...chosen];
  return [...chosen, id];
}

/** The order with the item at `index` moved by `delta` places (kept within the list). */
export function moveItem<T>(order: readonly T[], index: number, delta: number): T[] {
  const to = Math.max(0, Math.min(order.length - 1, index + delta));
  if (index < 0 || index >= order.length || to === index) return [...order];
  const out = [...order];
  const [item] = out.splice(index, 1);
  out.splice(to, 0, item);
  return out;
}

/**
 * A click on an option's board target: with a single choice it is the answer (returned to send);
 * with several it picks or unpicks the option in the draft. Other kinds ignore it.
 */
export function optionClick(p: Prompt, d: PromptDraft, id: string): { draft: PromptDraft; answer?: Answer } {
  if (p.kind !== PromptKind.CHOOSE || !p.options.some((o) => o.id === id)) return { draft: d };
  if (singleChoice(p)) {
    const draft = { ...d, chosen: [id] };
    return { draft, answer: draftAnswer(p, draft) };
  }
  return { draft: { ...d, chosen: toggleChoice(p, d.chosen, id) } };
}

// ----- targets -----

/** A target's key: "hex:q,r", "region:id", "card:id", "seat:n" or "piece:id" (null: none). */
export function targetKey(t: Target | null | undefined): string | null {
  switch (targetCase(t)) {
    case "hex": return t!.hex ? `hex:${hexKey(t!.hex)}` : null;
    case "region": return `region:${t!.region ?? ""}`;
    case "card": return `card:${t!.card ?? ""}`;
    case "seat": return `seat:${t!.seat ?? 0}`;
    case "piece": return `piece:${t!.piece ?? ""}`;
    default: return null;
  }
}

/** The board elements a prompt's options stand for, by kind, and the option of each. */
export interface PromptTargets {
  /** Target key (targetKey) → option id. */
  option: ReadonlyMap<string, string>;
  /** Hex keys ("q,r", as hexKey), ready for HexGrid's `highlighted`. */
  hexes: ReadonlySet<string>;
  regions: ReadonlySet<string>;
  cards: ReadonlySet<string>;
  pieces: ReadonlySet<string>;
  seats: ReadonlySet<number>;
}

const NO_TARGETS: PromptTargets = {
  option: new Map(), hexes: new Set(), regions: new Set(), cards: new Set(), pieces: new Set(), seats: new Set(),
};

// Views are copy-on-write: an unchanged prompt is the same object, so its targets are computed
// once and a board's memoised parts see the same sets.
const targetCache = new WeakMap<Prompt, PromptTargets>();

export function promptTargets(p: Prompt | null | undefined): PromptTargets {
  if (!p || p.kind !== PromptKind.CHOOSE) return NO_TARGETS;
  const hit = targetCache.get(p);
  if (hit) return hit;
  const option = new Map<string, string>();
  const sets = targetSets();
  for (const o of p.options) {
    const key = targetKey(o.target);
    if (!key) continue;
    // Two options on one target: the first keeps it (a click cannot tell them apart).
    if (!option.has(key)) option.set(key, o.id);
    addTarget(sets, o.target);
  }
  const out = { option, ...sets };
  targetCache.set(p, out);
  return out;
}

/** Board elements by kind (hexes as hexKey "q,r"): what a prompt's options or a move's choices point at. */
export interface TargetSets {
  hexes: Set<string>;
  regions: Set<string>;
  cards: Set<string>;
  pieces: Set<string>;
  seats: Set<number>;
}

export function targetSets(): TargetSets {
  return { hexes: new Set(), regions: new Set(), cards: new Set(), pieces: new Set(), seats: new Set() };
}

/** Adds what `t` points at to its kind's set (nothing for an empty target). */
export function addTarget(sets: TargetSets, t: Target | null | undefined): void {
  switch (targetCase(t)) {
    case "hex": if (t!.hex) sets.hexes.add(hexKey(t!.hex)); break;
    case "region": sets.regions.add(t!.region ?? ""); break;
    case "card": sets.cards.add(t!.card ?? ""); break;
    case "piece": sets.pieces.add(t!.piece ?? ""); break;
    case "seat": sets.seats.add(t!.seat ?? 0); break;
  }
}

/** The option a target (or target key) stands for in the prompt, if any. */
export function optionForTarget(targets: PromptTargets, target: Target | string | null | undefined): string | undefined {
  const key = typeof target === "string" ? target : targetKey(target);
  return key == null ? undefined : targets.option.get(key);
}

// ----- the game's Action -----

const CORE_ACTION = ".plateau.v1.CoreAction";

/**
 * The field of a game's Action message that carries plateau.v1.CoreAction: found by its type
 * (the server looks for `core`, which wins should several fields have the type).
 */
export function coreField(actionType: protobuf.Type): protobuf.Field {
  const fields = actionType.fieldsArray.filter((f) => {
    f.resolve();
    return !f.repeated && !f.map && f.resolvedType instanceof protobuf.Type && f.resolvedType.fullName === CORE_ACTION;
  });
  const f = fields.find((x) => x.name === "core") ?? fields[0];
  if (!f) throw new Error(`${actionType.fullName} has no plateau.v1.CoreAction field: this game cannot take answers.`);
  return f;
}

/** The game's Action (a plain object, for submit) carrying a core action. */
export function coreAction(actionType: protobuf.Type, core: Omit<CoreAction, "kind">): Record<string, unknown> {
  return { [coreField(actionType).name]: core };
}

/** `{core: {answer}}` for the game's Action type. */
export function answerAction(actionType: protobuf.Type, answer: Answer): Record<string, unknown> {
  return coreAction(actionType, {
    answer: { prompt_id: answer.prompt_id, options: [...answer.options], number: answer.number, yes: answer.yes, text: answer.text },
  });
}

/** `{core: {resign: {}}}` for the game's Action type. */
export function resignAction(actionType: protobuf.Type): Record<string, unknown> {
  return coreAction(actionType, { resign: {} });
}
