// Loads the wire protocol and every game's messages from the .proto files of the repository
// (imported as raw text at build time, so proto/ stays the single source of truth) and exposes
// the types by name through protobufjs runtime reflection.
import protobuf from "protobufjs";
import Long from "long";

// 64-bit fields must round-trip exactly: make protobufjs decode them as Long instances.
protobuf.util.Long = Long as unknown as typeof protobuf.util.Long;
protobuf.configure();

// options.proto is left out: it extends protobuf's own descriptor, which the client does not
// load. What it marks steers the server's diffs and tells the terminal client which fields hold
// seats; this client knows each game's seats by the game's own fields. (The marks are still
// kept on the parsed fields, e.g. `options["(plateau.v1.seat)"]`, should a generic use come.)
const sources = import.meta.glob(["../../../proto/**/*.proto", "!../../../proto/plateau/v1/options.proto"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

export function buildRoot(files: Record<string, string>): protobuf.Root {
  const root = new protobuf.Root();
  // Parse order does not matter: references are resolved once everything is in the root.
  for (const name of Object.keys(files).sort()) {
    protobuf.parse(files[name], root, { keepCase: true });
  }
  root.resolveAll();
  return root;
}

export const root = buildRoot(sources);

export function type(name: string): protobuf.Type {
  return root.lookupType(name.startsWith(".") ? name.slice(1) : name);
}

export const ClientMessage = type("plateau.v1.ClientMessage");
export const ServerMessage = type("plateau.v1.ServerMessage");
export const ViewDiffType = type("plateau.v1.ViewDiff");
export const GameRecordType = type("plateau.v1.GameRecord");

/** Turns a Long / number / string into a JS number (exact below 2^53, which is all we display). */
export function num(v: unknown): number {
  if (v == null) return 0;
  if (typeof v === "number") return v;
  if (typeof v === "string") return Number(v);
  if (Long.isLong(v)) return (v as Long).toNumber();
  return Number(v);
}

export function encode(t: protobuf.Type, obj: object): Uint8Array {
  const fields = obj as Record<string, unknown>;
  const err = t.verify(fields);
  if (err) throw new Error(`${t.fullName}: ${err}`);
  return t.encode(t.fromObject(fields)).finish();
}

export function decode<T>(t: protobuf.Type, bytes: Uint8Array): T {
  return t.decode(bytes) as unknown as T;
}

// The generated types (src/gen) say what each message holds; these say in which shape the client
// holds it.

/**
 * A message decoded by protobufjs (64-bit fields as Long), or built by hand in that shape with
 * plain numbers (tests, and what `encode` takes): the client reads both through `num`.
 */
export type Msg<T> = T extends Long ? Long | number
  : T extends Uint8Array ? T
  : T extends readonly (infer U)[] ? Msg<U>[]
  : T extends object ? { [K in keyof T]: Msg<T[K]> }
  : T;

/**
 * A message to encode, as `encode` takes it (protobufjs fromObject): any field may be left out
 * (it is then its default) or null, and 64-bit fields may be numbers.
 */
export type Draft<T> = T extends Long ? Long | number
  : T extends Uint8Array ? T
  : T extends readonly (infer U)[] ? Draft<U>[]
  : T extends object ? { [K in keyof T]?: Draft<T[K]> | null }
  : T;

/** A message turned into a plain object with 64-bit fields as numbers (toObject, `longs: Number`). */
export type Plain<T> = T extends Long ? number
  : T extends Uint8Array ? T
  : T extends readonly (infer U)[] ? Plain<U>[]
  : T extends object ? { [K in keyof T]: Plain<T[K]> }
  : T;

/**
 * A game's static data (GameInfo.static_type / static_data) decoded, or undefined if it has none,
 * this client does not know its type or the bytes do not decode (its boards then show the ids
 * views carry).
 */
export function decodeStaticData(info: { static_type?: string; static_data?: Uint8Array }): unknown {
  if (!info.static_type || !info.static_data) return undefined;
  try {
    return type(info.static_type).decode(info.static_data);
  } catch {
    return undefined;  // an unknown type or bad bytes: this game's board shows ids
  }
}

export { protobuf, Long };
