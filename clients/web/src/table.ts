// The core messages of proto/plateau/v1/table.proto (types generated into src/gen) in the shape
// protobufjs decodes them (src/proto.ts: field names as in the .proto, 64-bit integers as Long),
// and small readers over them. Every game's View carries a `table` and every game's Action a
// `core` member, so the shared components (prompts, log, text) read these.
//
// What protobufjs gives a decoded message, which these types follow:
// - scalars and repeated fields always read (an absent scalar reads its default from the
//   prototype, so `seat` of an unset Prompt is 0 and `options` is []);
// - an absent singular message reads `null`;
// - a oneof has a virtual property naming its set member (`Arg.value`); the other members read
//   their prototype defaults (an Arg holding a seat still reads `number` as Long 0), so a oneof
//   is read by its case, never by testing a member.
// Objects built by hand (tests, fromObject input) may lack the virtual property: the case
// readers below fall back to the own members then.
import type Long from "long";
import { unprefixed } from "./enums";
import * as pb from "./gen/plateau/v1/table";
import type { Msg } from "./proto";

/** An int64/uint64 field: Long when decoded, a number in objects built by hand. */
export type Int64 = Long | number;

export type Text = Msg<pb.Text>;
export type TextTemplate = Msg<pb.TextTemplate>;
export type TextCatalogue = Msg<pb.TextCatalogue>;
export type Hex = Msg<pb.Hex>;
export type PromptOption = Msg<pb.PromptOption>;
export type Prompt = Msg<pb.Prompt>;
export type OptionSet = Msg<pb.OptionSet>;
export type Answer = Msg<pb.Answer>;
export type Resign = Msg<pb.Resign>;
export type LogEntry = Msg<pb.LogEntry>;
export type Table = Msg<pb.Table>;

/** A decoded message with a oneof: `virtual` names its set member (protobufjs). */
type WithCase<M, Virtual extends string> = Msg<M> & { [V in Virtual]?: keyof M };

export type ArgCase = keyof pb.Arg;
export type Arg = WithCase<pb.Arg, "value">;
export type TargetCase = keyof pb.Target;
export type Target = WithCase<pb.Target, "where">;
export type CoreActionCase = keyof pb.CoreAction;
export type CoreAction = WithCase<pb.CoreAction, "kind">;

/** plateau.v1.PromptKind. */
export const PromptKind = unprefixed(pb.PromptKind, "PROMPT_");
export type PromptKind = pb.PromptKind;

/** The part every game's View shares. */
export interface CoreView {
  table?: Table | null;
}

// ----- readers -----

function isOwnSet(m: object, name: string): boolean {
  const v = (m as Record<string, unknown>)[name];
  return v != null && Object.prototype.hasOwnProperty.call(m, name);
}

/** The set member of a oneof: the virtual property when decoded, else the first own member. */
function oneofCase<C extends string>(m: object | null | undefined, virtual: string, members: readonly C[]): C | undefined {
  if (!m) return undefined;
  const v = (m as Record<string, unknown>)[virtual];
  if (typeof v === "string" && (members as readonly string[]).includes(v)) return v as C;
  return members.find((k) => isOwnSet(m, k));
}

const ARG_CASES = ["number", "seat", "name", "text"] as const;
const TARGET_CASES = ["card", "region", "hex", "seat", "piece"] as const;

export function argCase(a: Arg | null | undefined): ArgCase | undefined {
  return oneofCase(a, "value", ARG_CASES);
}

export function targetCase(t: Target | null | undefined): TargetCase | undefined {
  return oneofCase(t, "where", TARGET_CASES);
}

/** An Int64 (Long, number or decimal string) as a JS number: exact below 2^53. */
export function toNumber(v: unknown): number {
  if (v == null) return 0;
  if (typeof v === "number") return v;
  if (typeof v === "string") return Number(v);
  if (typeof v === "object" && typeof (v as Long).toNumber === "function") return (v as Long).toNumber();
  return Number(v);
}

/** An Int64 in decimal, exact at any size. */
export function int64String(v: unknown): string {
  if (v == null) return "0";
  if (typeof v === "object" && typeof (v as Long).toString === "function") return (v as Long).toString();
  return String(v);
}

const EMPTY_TABLE: Table = Object.freeze({
  prompts: Object.freeze([]) as unknown as Prompt[],
  log: Object.freeze([]) as unknown as LogEntry[],
  resigned: Object.freeze([]) as unknown as number[],
  moves: Object.freeze([]) as unknown as Table["moves"],
  moves_held: false,
});

/**
 * The view's Table, or an empty one: views of games not yet carrying the core part, and views
 * decoded before the table's first diff, read as "nothing asked, nothing logged".
 */
export function tableOf(view: unknown): Table {
  const t = (view as CoreView | null | undefined)?.table;
  return t ?? EMPTY_TABLE;
}

// The games' fixed option lists by id (ids are unique across games: "<game>.<name>").
const optionSets = new Map<string, PromptOption[]>();
let withSet = new WeakMap<Prompt, Prompt>();

/** Keeps the sets of a game list (GameInfo.option_sets) for the questions that name one. */
export function registerOptionSets(sets: readonly OptionSet[] | null | undefined): void {
  for (const s of sets ?? []) optionSets.set(s.id, s.options);
  withSet = new WeakMap();  // a question resolved before its set arrived is resolved again
}

/**
 * `p` with the options it offers: its own, or those of the set it names (none while the set is
 * unknown). The same question gives the same object, so components may compare by identity.
 */
export function withOptions(p: Prompt): Prompt {
  if (!p.option_set) return p;
  let r = withSet.get(p);
  if (!r) {
    // Keeps the decoded message's prototype, where protobufjs holds the unset fields' defaults.
    r = Object.assign(Object.create(Object.getPrototypeOf(p)) as Prompt, p,
      { options: optionSets.get(p.option_set) ?? [] });
    withSet.set(p, r);
  }
  return r;
}

/** The questions asked of `seat`, the one to answer now first (spectators: none), with options. */
export function promptsFor(table: Table, seat: number): Prompt[] {
  return seat < 0 ? [] : table.prompts.filter((p) => p.seat === seat).map(withOptions);
}

/** The question `seat` answers now, if any, with its options. */
export function currentPrompt(table: Table, seat: number): Prompt | null {
  if (seat < 0) return null;
  const p = table.prompts.find((q) => q.seat === seat);
  return p ? withOptions(p) : null;
}
