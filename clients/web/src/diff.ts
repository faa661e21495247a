// Applies plateau.v1.ViewDiff ops to a decoded protobufjs message, with the exact semantics of
// engine/core/view_diff.cc (ApplyOne): a path of field numbers, each repeated field followed by
// an element index; the last entry is a field number, optionally followed by an element index.
import type * as pb from "./gen/plateau/v1/diff";
import { Long, protobuf, type Msg } from "./proto";

export class DiffError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DiffError";
  }
}

/** A decoded message walked by field name: what a field holds is known from its descriptor. */
type Fields = Record<string, unknown>;
/** A decoded plateau.v1.ScalarValue; `value` names its set member. */
type Scalar = Msg<pb.ScalarValue> & { value?: keyof pb.ScalarValue };
/** A decoded plateau.v1.DiffOp; `op` names its set member. */
export type Op = Msg<pb.DiffOp> & { op?: keyof pb.DiffOp };

const INT32 = new Set(["int32", "sint32", "sfixed32"]);
const INT64 = new Set(["int64", "sint64", "sfixed64"]);
const UINT32 = new Set(["uint32", "fixed32"]);
const UINT64 = new Set(["uint64", "fixed64"]);

const SCALAR_CASES = [
  "int_value", "uint_value", "double_value", "bool_value", "string_value", "bytes_value",
] as const satisfies readonly (keyof pb.ScalarValue)[];

function scalarCase(v: Scalar | null | undefined): string | undefined {
  if (!v) return undefined;
  if (typeof v.value === "string") return v.value;
  for (const k of SCALAR_CASES) {
    if (v[k] != null && Object.prototype.hasOwnProperty.call(v, k)) return k;
  }
  return undefined;
}

function toLong(x: unknown, unsigned: boolean): Long {
  if (Long.isLong(x)) {
    const l = x as Long;
    return Long.fromBits(l.low, l.high, unsigned);
  }
  if (typeof x === "string") return Long.fromString(x, unsigned);
  return Long.fromNumber(Number(x ?? 0), unsigned);
}

/** Converts a ScalarValue into the JS value protobufjs uses for `field` (checking its kind). */
function convertScalar(field: protobuf.Field, value: Scalar | null | undefined): unknown {
  const v: Scalar = value ?? {};  // no value: its kind matches no field
  const kind = scalarCase(v);
  const mismatch = () => new DiffError(`value kind ${kind ?? "none"} does not match field ${field.fullName}`);
  const t = field.type;
  if (field.resolvedType instanceof protobuf.Enum) {
    if (kind !== "int_value") throw mismatch();
    return toLong(v.int_value, false).low; // static_cast<int>
  }
  if (field.resolvedType instanceof protobuf.Type) {
    throw new DiffError(`scalar value for message field ${field.fullName}`);
  }
  if (INT32.has(t)) {
    if (kind !== "int_value") throw mismatch();
    return toLong(v.int_value, false).low; // low 32 bits, signed
  }
  if (INT64.has(t)) {
    if (kind !== "int_value") throw mismatch();
    return toLong(v.int_value, false);
  }
  if (UINT32.has(t)) {
    if (kind !== "uint_value") throw mismatch();
    return toLong(v.uint_value, true).low >>> 0;
  }
  if (UINT64.has(t)) {
    if (kind !== "uint_value") throw mismatch();
    return toLong(v.uint_value, true);
  }
  if (t === "double") {
    if (kind !== "double_value") throw mismatch();
    return Number(v.double_value);
  }
  if (t === "float") {
    if (kind !== "double_value") throw mismatch();
    return Math.fround(Number(v.double_value));
  }
  if (t === "bool") {
    if (kind !== "bool_value") throw mismatch();
    return Boolean(v.bool_value);
  }
  if (t === "string") {
    if (kind !== "string_value") throw mismatch();
    return String(v.string_value);
  }
  if (t === "bytes") {
    if (kind !== "bytes_value") throw mismatch();
    return v.bytes_value instanceof Uint8Array ? v.bytes_value : new Uint8Array(v.bytes_value ?? []);
  }
  throw new DiffError(`unsupported field type ${t} (${field.fullName})`);
}

function messageType(field: protobuf.Field): protobuf.Type | null {
  return field.resolvedType instanceof protobuf.Type ? field.resolvedType : null;
}

/**
 * The copies one diff has made. Applying is copy-on-write so memoised components can tell a
 * changed subtree from an unchanged one by identity: every message and array on the path of a
 * change is copied once per diff (later ops of the same diff write into that copy), everything
 * else is shared with the previous view, which is never written to.
 */
class Copies {
  private readonly fresh = new WeakSet<object>();

  /** `m` itself when this diff made it, otherwise a shallow copy (prototype and all). */
  message(m: Fields): Fields {
    if (this.fresh.has(m)) return m;
    // Keeping the prototype keeps protobufjs's defaults, $type and oneof getters (which read
    // the own keys), so the copy encodes and reads exactly like the original.
    const c = Object.create(Object.getPrototypeOf(m)) as Fields;
    for (const k of Object.keys(m)) c[k] = m[k];
    return this.made(c);
  }

  /** `a` itself when this diff made it, otherwise a copy (an empty one for a missing array). */
  array(a: unknown): unknown[] {
    // A repeated field a message does not own reads protobufjs's prototype default, one frozen
    // array shared by every message of the type: it is copied like any other.
    if (!Array.isArray(a)) return this.made([]);
    return this.fresh.has(a) ? a : this.made(a.slice());
  }

  made<T extends object>(x: T): T {
    this.fresh.add(x);
    return x;
  }
}

/** The repeated field `name` of `m`, if it holds an array. */
function arrayAt(m: Fields, name: string): unknown[] | undefined {
  const v = m[name];
  return Array.isArray(v) ? v : undefined;
}

/** Sets a singular field; a member of a oneof (or proto3 optional) evicts its siblings. */
function setSingular(m: Fields, field: protobuf.Field, value: unknown): void {
  const oneof = field.partOf;
  if (oneof) {
    for (const other of oneof.oneof) if (other !== field.name) delete m[other];
  }
  m[field.name] = value;
}

/** Whether clearing `field` changes `m` at all (then `m` need not be copied). */
function clearChanges(m: Fields, field: protobuf.Field): boolean {
  if (field.map) return !(isOwn(m, field.name) && Object.keys(m[field.name] ?? {}).length === 0);
  if (field.repeated) return !(isOwn(m, field.name) && arrayAt(m, field.name)?.length === 0);
  // Like Reflection::ClearField: a oneof is only cleared through its active member.
  if (field.partOf) return isSet(m, field.name);
  return isOwn(m, field.name);
}

function clearField(m: Fields, field: protobuf.Field): void {
  if (field.repeated || field.map) {
    m[field.name] = field.map ? {} : [];
    return;
  }
  const oneof = field.partOf;
  if (oneof) {
    if (isSet(m, field.name)) {
      for (const name of oneof.oneof) delete m[name];
    }
    return;
  }
  delete m[field.name];
}

function decodeMessage(copies: Copies, t: protobuf.Type, bytes: unknown): Fields {
  try {
    return copies.made(t.decode(bytes as Uint8Array) as unknown as Fields);
  } catch (e) {
    throw new DiffError(`undecodable ${t.fullName}: ${(e as Error).message}`);
  }
}

function isOwn(m: Fields, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(m, name);
}

function isSet(m: Fields, name: string): boolean {
  return m[name] != null && isOwn(m, name);
}

function opCase(op: Op): string | undefined {
  if (typeof op.op === "string") return op.op;
  for (const k of ["set_scalar", "set_message", "clear", "truncate", "append_scalar", "append_message", "drop_first", "remove", "insert_message"]) {
    if (isSet(op, k)) return k;
  }
  return undefined;
}

/**
 * Applies the op whose path continues at `path[i]` to message `m` of type `t`. Returns `m` when
 * nothing changes, otherwise a copy of it (see Copies) holding the change.
 */
function applyAt(copies: Copies, t: protobuf.Type, m: Fields, path: number[], i: number, kind: string | undefined, op: Op): Fields {
  const field = t.fieldsById[path[i]];
  if (!field) throw new DiffError(`no field ${path[i]} in ${t.fullName}`);
  field.resolve();
  const remaining = path.length - i - 1;
  const sub = messageType(field);
  if (remaining === 0) {
    switch (kind) {
      case "set_scalar": {
        if (field.repeated) throw new DiffError("set on a whole repeated field");
        const value = convertScalar(field, op.set_scalar);
        const c = copies.message(m);
        setSingular(c, field, value);
        return c;
      }
      case "set_message": {
        if (field.repeated || !sub) throw new DiffError("set_message on a non-message field");
        const value = decodeMessage(copies, sub, op.set_message);
        const c = copies.message(m);
        setSingular(c, field, value);
        return c;
      }
      case "clear": {
        if (!clearChanges(m, field)) return m;
        const c = copies.message(m);
        clearField(c, field);
        return c;
      }
      case "truncate": {
        if (!field.repeated) throw new DiffError("truncate on a singular field");
        const arr = arrayAt(m, field.name) ?? [];
        const n = Number(op.truncate);
        if (n > arr.length) throw new DiffError("truncate beyond size");
        if (n === arr.length && isOwn(m, field.name)) return m;
        const c = copies.message(m);
        const out = copies.array(arr);
        out.length = n;
        c[field.name] = out;
        return c;
      }
      case "drop_first": {
        if (!field.repeated) throw new DiffError("drop_first on a singular field");
        const arr = arrayAt(m, field.name) ?? [];
        const n = Number(op.drop_first);
        if (n > arr.length) throw new DiffError("drop_first beyond size");
        if (n === 0 && isOwn(m, field.name)) return m;
        const c = copies.message(m);
        c[field.name] = copies.made(arr.slice(n));
        return c;
      }
      case "append_scalar": {
        if (!field.repeated) throw new DiffError("append on a singular field");
        const value = convertScalar(field, op.append_scalar);
        const c = copies.message(m);
        const out = copies.array(m[field.name]);
        out.push(value);
        c[field.name] = out;
        return c;
      }
      case "append_message": {
        if (!field.repeated || !sub) throw new DiffError("append_message on a non-message field");
        const value = decodeMessage(copies, sub, op.append_message);
        const c = copies.message(m);
        const out = copies.array(m[field.name]);
        out.push(value);
        c[field.name] = out;
        return c;
      }
      case "remove":
      case "insert_message":
        throw new DiffError("remove and insert_message need an element index");
      default:
        throw new DiffError("op without a kind");
    }
  }
  if (field.repeated) {
    const arr = arrayAt(m, field.name) ?? [];
    const index = path[i + 1];
    if (remaining === 1 && kind === "insert_message") {
      if (!sub) throw new DiffError("insert_message on a non-message field");
      if (index > arr.length) throw new DiffError("index out of range");
      const value = decodeMessage(copies, sub, op.insert_message);
      const c = copies.message(m);
      const out = copies.array(arr);
      out.splice(index, 0, value);
      c[field.name] = out;
      return c;
    }
    if (index >= arr.length) throw new DiffError("index out of range");
    if (remaining === 1 && kind === "remove") {
      const c = copies.message(m);
      const out = copies.array(arr);
      out.splice(index, 1);
      c[field.name] = out;
      return c;
    }
    let value: unknown;
    if (remaining === 1) {
      if (kind === "set_scalar") value = convertScalar(field, op.set_scalar);
      else if (kind === "set_message" && sub) value = decodeMessage(copies, sub, op.set_message);
      else throw new DiffError("unsupported op on a repeated element");
    } else {
      if (!sub) throw new DiffError("path through a scalar");
      const element = arr[index] as Fields;
      value = applyAt(copies, sub, element, path, i + 2, kind, op);
      if (value === element) return m;
    }
    const c = copies.message(m);
    const out = copies.array(arr);
    out[index] = value;
    c[field.name] = out;
    return c;
  }
  if (!sub) throw new DiffError("path through a scalar");
  // Like Reflection::MutableMessage: walking into an absent message creates it (and, for a
  // oneof member, makes it the active one), a change even when the op then changes nothing.
  const present = isSet(m, field.name);
  const child = present ? (m[field.name] as Fields) : copies.made(sub.create() as unknown as Fields);
  const next = applyAt(copies, sub, child, path, i + 1, kind, op);
  if (present && next === child) return m;
  const c = copies.message(m);
  if (present) c[field.name] = next;
  else setSingular(c, field, next);
  return c;
}

function applyWith(copies: Copies, rootType: protobuf.Type, root: Fields, op: Op): Fields {
  const path: number[] = (op.path ?? []).map((p: unknown) => Number(p));
  if (path.length === 0) throw new DiffError("empty path");
  return applyAt(copies, rootType, root, path, 0, opCase(op), op);
}

/**
 * Applies one op; returns the new root (`root` itself when the op changes nothing). `root` is
 * never written to. Throws DiffError on a bad op.
 */
export function applyOp<T extends object>(rootType: protobuf.Type, root: T, op: Op): T {
  return applyWith(new Copies(), rootType, root as Fields, op) as T;
}

/**
 * Applies every op in order and returns the new view: the messages and arrays on the path of a
 * change are new objects, every other subtree is the very object of `view` (so a memoised
 * component given an unchanged part skips its render), and `view` itself is left untouched, even
 * when an op fails halfway. Returns `view` when nothing changes. Throws DiffError on a bad op.
 */
export function applyDiff<T extends object>(rootType: protobuf.Type, view: T, ops: Op[]): T {
  const copies = new Copies();
  let root = view as Fields;
  for (const op of ops) root = applyWith(copies, rootType, root, op);
  return root as T;
}

/** A deep copy of a decoded message (re-encoding keeps every protobufjs invariant). */
export function cloneMessage<T>(t: protobuf.Type, m: T): T {
  return t.decode(t.encode(m as protobuf.Message).finish()) as unknown as T;
}
