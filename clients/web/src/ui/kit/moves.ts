// The one reader of the moves a game publishes (Table.moves, a tree of plateau.v1.MoveChoice) for
// every board: the roots, a node by its path of keys, leaves and families, a family's domains,
// the choices a click on the board stands for, and the Action to send for a leaf. A board that
// reads its moves here offers what the engine accepts and never repeats a rule.
import type * as pb from "../../gen/plateau/v1/table";
import { protobuf, type, type Msg } from "../../proto";
import { tableOf, toNumber, type Target } from "../../table";
import { addTarget, targetKey, targetSets } from "../prompt";

export type MoveChoice = Msg<pb.MoveChoice>;
export type ActionParam = Msg<pb.ActionParam>;

const NONE: readonly MoveChoice[] = Object.freeze([]);

/** The viewer's published moves: the tree's roots (none for a spectator or a seat that may not act). */
export function moveRoots(view: unknown): readonly MoveChoice[] {
  return tableOf(view).moves ?? NONE;
}

/** The node at the end of `path` (keys from a root), or null when a key is not there (any more). */
export function moveAt(roots: readonly MoveChoice[], path: readonly string[]): MoveChoice | null {
  let level = roots;
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
  let level = roots;
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
  return choices.filter((c) => targetKey(c.target) === key);
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
  for (const c of choices) addTarget(sets, c.target);
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
 * The action for a leaf (sent as published), or for a family leaf with a value for every param
 * (the base action with each dotted field set). A missing value, one outside its param's domain,
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
    msg = t.decode(c.action ?? new Uint8Array());
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
// field in every element the base action has (protocol.md, Moves). Returns a problem in words, or "".
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
      for (const el of list as Record<string, unknown>[]) {
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
