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

export function encode(t: protobuf.Type, obj: Record<string, unknown>): Uint8Array {
  const err = t.verify(obj);
  if (err) throw new Error(`${t.fullName}: ${err}`);
  return t.encode(t.fromObject(obj)).finish();
}

export function decode<T = any>(t: protobuf.Type, bytes: Uint8Array): T {
  return t.decode(bytes) as unknown as T;
}

/**
 * A game's static data (GameInfo.static_type / static_data) decoded, or undefined if it has none,
 * this client does not know its type or the bytes do not decode (its boards then show the ids
 * views carry).
 */
export function decodeStaticData(info: { static_type?: string; static_data?: Uint8Array }): any {
  if (!info.static_type || !info.static_data) return undefined;
  try {
    return type(info.static_type).decode(info.static_data);
  } catch {
    return undefined;  // an unknown type or bad bytes: this game's board shows ids
  }
}

export { protobuf, Long };
