// The one reader of the moves a game publishes (Table.moves, a tree of plateau.v1.MoveChoice) for
// every board: the roots, a node by its path of keys, leaves and families, a choice's words and
// target, a family's domains, the choices a click on the board stands for, and the Action to send
// for a leaf. A board that reads its moves here offers what the engine accepts and never repeats
// a rule.
import type * as pb from "../../gen/plateau/v1/table";
import { KeyTarget } from "../../gen/plateau/v1/table";
import { protobuf, type, type Msg } from "../../proto";
import { tableOf, toNumber, type Target, type Text } from "../../table";
import { addTarget, targetKey, targetSets } from "../prompt";

export type MoveChoice = Msg<pb.MoveChoice>;
export type ActionParam = Msg<pb.ActionParam>;

const NONE: readonly MoveChoice[] = Object.freeze([]);

// A node's `action` is only the part its step adds, and its words may be its parent's
// (`next_label`): reading either needs the node's parent. Each tree is walked once (views are
// copy-on-write: a changed tree is a new array) to note every node's parent; a node kept by two
// trees (one unchanged between two views) follows the later one, the view on screen.
const parentOf = new WeakMap<MoveChoice, MoveChoice | null>();
const indexed = new WeakSet<readonly MoveChoice[]>();

function indexMoves(roots: readonly MoveChoice[]): readonly MoveChoice[] {
  if (indexed.has(roots)) return roots;
  indexed.add(roots);
  const walk = (level: readonly MoveChoice[], parent: MoveChoice | null) => {
    for (const c of level) {
      // A lower level taken for roots (a board reading a node's `next` as a tree) never cuts a
      // node from the parent its tree gave it.
      if (parent || !parentOf.get(c)) parentOf.set(c, parent);
      walk(c.next ?? NONE, c);
    }
  };
  walk(roots, null);
  return roots;
}

/** A node's whole action: the parts on its path concatenated, root first (protobuf reads them as their merge). */
export function wholeAction(c: MoveChoice): Uint8Array {
  const parts: Uint8Array[] = [];
  for (let at: MoveChoice | null | undefined = c; at; at = parentOf.get(at)) parts.push(at.action ?? new Uint8Array());
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let offset = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    out.set(parts[i], offset);
    offset += parts[i].length;
  }
  return out;
}

/**
 * A choice's words: its label, or, when the label has no key, the words its step shares for all
 * its choices (`next_label`, sent once) with the choice's own args (a group's name after "Discard").
 */
export function choiceLabel(c: MoveChoice): Text | null {
  const own = c.label;
  if (own?.key) return own;
  const shared = parentOf.get(c)?.next_label;
  if (!shared?.key) return own ?? null;
  return { key: shared.key, args: own?.args ?? [] };
}

/** What a choice points at: its target, or the card, seat or region its key names (`key_target`). */
export function choiceTarget(c: MoveChoice): Target | null {
  if (c.key_target === KeyTarget.KEY_TARGET_CARD) return { where: "card", card: c.key } as Target;
  if (c.key_target === KeyTarget.KEY_TARGET_SEAT) return { where: "seat", seat: Number(c.key) } as Target;
  if (c.key_target === KeyTarget.KEY_TARGET_REGION) return { where: "region", region: c.key } as Target;
  return c.target ?? null;
}

/** The viewer's published moves: the tree's roots (none for a spectator or a seat that may not act). */
export function moveRoots(view: unknown): readonly MoveChoice[] {
  const table = tableOf(view);
  // Held moves are the seat's last turn's, kept by the server for the next Diff: none is open.
  if (table.moves_held) return NONE;
  return indexMoves(table.moves ?? NONE);
}

/** The node at the end of `path` (keys from a root), or null when a key is not there (any more). */
export function moveAt(roots: readonly MoveChoice[], path: readonly string[]): MoveChoice | null {
  let level = indexMoves(roots);
  let node: MoveChoice | null = null;
  for (const key of path) {
    node = level.find((c) => c.key === key) ?? null;
    if (!node) return null;
    level = node.next ?? NONE;
  }
  return node;
}

/** The choices offered after `path`: the roots for an empty path, none past a leaf or a lost key. */
export function movesAfter(roots: readonly MoveChoice[], path: readonly string[]): readonly MoveChoice[] {
  if (path.length === 0) return roots;
  return moveAt(roots, path)?.next ?? NONE;
}

/**
 * The longest start of `path` still in the tree: a choice made before a new view stays made while
 * it stays open (keys are stable), and what is gone is dropped.
 */
export function livePath(roots: readonly MoveChoice[], path: readonly string[]): string[] {
  const out: string[] = [];
  let level = indexMoves(roots);
  for (const key of path) {
    const node = level.find((c) => c.key === key);
    if (!node) break;
    out.push(key);
    level = node.next ?? NONE;
  }
  return out;
}

/** What a node is: a step with choices after it, a leaf (one action), or a family leaf (params to set). */
export type MoveKind = "step" | "leaf" | "family";

export function moveKind(c: MoveChoice): MoveKind {
  if ((c.params?.length ?? 0) > 0) return "family";
  if ((c.next?.length ?? 0) > 0) return "step";
  return "leaf";
}

export function isLeaf(c: MoveChoice): boolean {
  return moveKind(c) !== "step";
}

/** A param's domain: its listed values, or the range min..max. */
export type ParamDomain = { kind: "values"; values: number[] } | { kind: "range"; min: number; max: number };

export function paramDomain(p: ActionParam): ParamDomain {
  if ((p.values?.length ?? 0) > 0) return { kind: "values", values: p.values.map((v) => toNumber(v)) };
  return { kind: "range", min: toNumber(p.min), max: toNumber(p.max) };
}

/** Every value of a param, in order (a range counted out; the engine keeps ranges small). */
export function paramValues(p: ActionParam): number[] {
  const d = paramDomain(p);
  if (d.kind === "values") return d.values;
  const out: number[] = [];
  for (let v = d.min; v <= d.max; v++) out.push(v);
  return out;
}

export function inDomain(p: ActionParam, v: number): boolean {
  const d = paramDomain(p);
  return d.kind === "values" ? d.values.includes(v) : Number.isInteger(v) && v >= d.min && v <= d.max;
}

/**
 * Gives each family leaf's params the paths its parent sends once for all its choices
 * (`next_paths`), as a view arrives: every reader past it finds each param's path on the param.
 * Only params without a path are written, which only the update that brought them holds.
 */
export function fillParamPaths(moves: readonly MoveChoice[] | null | undefined, depth = 0): void {
  if (!moves || depth > 32) return;
  for (const m of moves) {
    const paths = m.next_paths ?? [];
    if (paths.length > 0) {
      for (const c of m.next ?? []) {
        (c.params ?? []).forEach((p, i) => { if (!p.path && paths[i]) p.path = paths[i]; });
      }
    }
    fillParamPaths(m.next, depth + 1);
  }
}

/** The param of a family leaf that sets the field at `path` ("place.slot"). */
export function paramOf(c: MoveChoice | null | undefined, path: string): ActionParam | undefined {
  return c?.params?.find((p) => p.path === path);
}

/** The root (or child) with this key. */
export function choiceByKey(choices: readonly MoveChoice[], key: string): MoveChoice | undefined {
  return choices.find((c) => c.key === key);
}

// ----- targets -----

/** The choices a click on the board stands for: those whose target is `target` (or its targetKey). */
export function choicesForTarget(choices: readonly MoveChoice[], target: Target | string | null | undefined): MoveChoice[] {
  const key = typeof target === "string" ? target : targetKey(target);
  if (key == null) return [];
  return choices.filter((c) => targetKey(choiceTarget(c)) === key);
}

/** What the choices point at on the board, by kind (hexes as hexKey "q,r"), for highlights. */
export interface MoveTargets {
  hexes: ReadonlySet<string>;
  regions: ReadonlySet<string>;
  cards: ReadonlySet<string>;
  pieces: ReadonlySet<string>;
  seats: ReadonlySet<number>;
}

// Views are copy-on-write: an unchanged list of choices is the same array, computed once.
const targetsCache = new WeakMap<readonly MoveChoice[], MoveTargets>();

export function moveTargets(choices: readonly MoveChoice[]): MoveTargets {
  const hit = targetsCache.get(choices);
  if (hit) return hit;
  const sets = targetSets();
  for (const c of choices) addTarget(sets, choiceTarget(c));
  targetsCache.set(choices, sets);
  return sets;
}

// ----- the action to send -----

/** The values given for a family's params, by field path. */
export type ParamChoice = Readonly<Record<string, number>>;

export type Built = { action: Record<string, unknown>; error?: undefined } | { action?: undefined; error: string };

function typeOf(actionType: string | protobuf.Type): protobuf.Type {
  return typeof actionType === "string" ? type(actionType) : actionType;
}

/**
 * The action for a leaf (its path's parts put together, see wholeAction), or for a family leaf
 * with a value for every param (that action as the base, each dotted field set). A missing value, one outside its param's domain,
 * a path the Action lacks or a node that is not a leaf gives `error` in words and no action, so
 * nothing the server would refuse is sent.
 */
export function buildMove(actionType: string | protobuf.Type, c: MoveChoice | null | undefined, values: ParamChoice = {}): Built {
  if (!c) return { error: "That move is no longer open." };
  const kind = moveKind(c);
  if (kind === "step") return { error: "Choose how to go on first." };
  const t = typeOf(actionType);
  let msg: protobuf.Message;
  try {
    msg = t.decode(wholeAction(c));
  } catch {
    return { error: "The move's action does not decode as this game's action." };
  }
  const action = t.toObject(msg, { longs: String, enums: Number, bytes: Array }) as Record<string, unknown>;
  for (const p of c.params ?? []) {
    const v = values[p.path];
    if (v == null || Number.isNaN(v)) return { error: `Choose a value for ${p.path}.` };
    if (!inDomain(p, v)) return { error: `${v} is not allowed for ${p.path}: ${domainWords(p)}.` };
    const problem = setField(t, action, p.path, v);
    if (problem) return { error: problem };
  }
  return { action };
}

/** A param's domain in words: "one of 0, 2, 3" or "from 1 to 5". */
export function domainWords(p: ActionParam): string {
  const d = paramDomain(p);
  return d.kind === "values" ? `one of ${d.values.join(", ")}` : `from ${d.min} to ${d.max}`;
}

// Sets the singular number, enum or boolean at a dotted path of a plain Action object (as
// toObject gives it), creating the messages on the way. A path through a list of messages sets the
// field in every element the base action has, or, with an element's index after the list's name
// (`transactions.1.quantity`), in that element alone (protocol.md, Moves). Returns a problem in
// words, or "".
function setField(t: protobuf.Type, obj: Record<string, unknown>, path: string, v: number, from = 0): string {
  const names = path.split(".");
  let msgType = t;
  let at = obj;
  for (let i = from; i < names.length; i++) {
    const f = msgType.fields[names[i]];
    if (!f) return `The action has no field ${path}.`;
    f.resolve();
    const last = i === names.length - 1;
    if (f.map || (f.repeated && (last || !(f.resolvedType instanceof protobuf.Type)))) {
      return `${path} goes through a list, which this client cannot set.`;
    }
    if (f.repeated) {
      const list = at[f.name];
      if (!Array.isArray(list) || list.length === 0) return `${path} goes through a list the action leaves empty.`;
      const elements = list as Record<string, unknown>[];
      if (/^\d+$/.test(names[i + 1] ?? "")) {
        const el = elements[Number(names[i + 1])];
        if (!el) return `${path} names an element the action lacks.`;
        return setField(f.resolvedType as protobuf.Type, el, path, v, i + 2);
      }
      for (const el of elements) {
        const problem = setField(f.resolvedType as protobuf.Type, el, path, v, i + 1);
        if (problem) return problem;
      }
      return "";
    }
    if (!last) {
      if (!(f.resolvedType instanceof protobuf.Type)) return `${path} goes through a number.`;
      const child = at[f.name];
      const next = child != null && typeof child === "object" ? (child as Record<string, unknown>) : {};
      at[f.name] = next;
      at = next;
      msgType = f.resolvedType;
      continue;
    }
    if (f.resolvedType instanceof protobuf.Type) return `${path} is a message, not a number.`;
    at[f.name] = f.type === "bool" ? v !== 0 : v;
  }
  return "";
}
