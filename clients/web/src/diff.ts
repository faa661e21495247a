// Applies plateau.v1.ViewDiff ops to a decoded protobufjs message, with the exact semantics of
// engine/core/view_diff.cc (ApplyOne): a path of field numbers, each repeated field followed by
// an element index; the last entry is a field number, optionally followed by an element index.
import { Long, protobuf } from "./proto";

export class DiffError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DiffError";
  }
}

type Msg = Record<string, any>;
type Scalar = Record<string, any>; // decoded plateau.v1.ScalarValue
type Op = Record<string, any>;     // decoded plateau.v1.DiffOp

const INT32 = new Set(["int32", "sint32", "sfixed32"]);
const INT64 = new Set(["int64", "sint64", "sfixed64"]);
const UINT32 = new Set(["uint32", "fixed32"]);
const UINT64 = new Set(["uint64", "fixed64"]);

function scalarCase(v: Scalar | null | undefined): string | undefined {
  if (!v) return undefined;
  if (typeof v.value === "string") return v.value;
  for (const k of ["int_value", "uint_value", "double_value", "bool_value", "string_value", "bytes_value"]) {
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
function convertScalar(field: protobuf.Field, v: Scalar): unknown {
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

/** Sets a singular field; a member of a oneof (or proto3 optional) evicts its siblings. */
function setSingular(m: Msg, field: protobuf.Field, value: unknown): void {
  const oneof = field.partOf;
  if (oneof) {
    for (const other of oneof.oneof) if (other !== field.name) delete m[other];
  }
  m[field.name] = value;
}

function clearField(m: Msg, field: protobuf.Field): void {
  if (field.repeated || field.map) {
    m[field.name] = field.map ? {} : [];
    return;
  }
  const oneof = field.partOf;
  if (oneof) {
    // Like Reflection::ClearField: a oneof is only cleared through its active member.
    if (m[field.name] != null && Object.prototype.hasOwnProperty.call(m, field.name)) {
      for (const name of oneof.oneof) delete m[name];
    }
    return;
  }
  delete m[field.name];
}

function decodeMessage(t: protobuf.Type, bytes: unknown): Msg {
  try {
    return t.decode(bytes as Uint8Array) as unknown as Msg;
  } catch (e) {
    throw new DiffError(`undecodable ${t.fullName}: ${(e as Error).message}`);
  }
}

function isSet(m: Msg, name: string): boolean {
  return m[name] != null && Object.prototype.hasOwnProperty.call(m, name);
}

function opCase(op: Op): string | undefined {
  if (typeof op.op === "string") return op.op;
  for (const k of ["set_scalar", "set_message", "clear", "truncate", "append_scalar", "append_message"]) {
    if (isSet(op, k)) return k;
  }
  return undefined;
}

function repeatedOf(m: Msg, field: protobuf.Field): unknown[] {
  let arr = m[field.name];
  if (!Array.isArray(arr)) {
    arr = [];
    m[field.name] = arr;
  }
  return arr;
}

export function applyOp(rootType: protobuf.Type, root: Msg, op: Op): void {
  const path: number[] = (op.path ?? []).map((p: unknown) => Number(p));
  if (path.length === 0) throw new DiffError("empty path");
  const kind = opCase(op);
  let t = rootType;
  let m = root;
  let i = 0;
  for (;;) {
    const field = t.fieldsById[path[i]];
    if (!field) throw new DiffError(`no field ${path[i]} in ${t.fullName}`);
    field.resolve();
    const remaining = path.length - i - 1;
    const sub = messageType(field);
    if (remaining === 0) {
      switch (kind) {
        case "set_scalar":
          if (field.repeated) throw new DiffError("set on a whole repeated field");
          setSingular(m, field, convertScalar(field, op.set_scalar));
          return;
        case "set_message":
          if (field.repeated || !sub) throw new DiffError("set_message on a non-message field");
          setSingular(m, field, decodeMessage(sub, op.set_message));
          return;
        case "clear":
          clearField(m, field);
          return;
        case "truncate": {
          if (!field.repeated) throw new DiffError("truncate on a singular field");
          const arr = repeatedOf(m, field);
          const n = Number(op.truncate);
          if (n > arr.length) throw new DiffError("truncate beyond size");
          arr.length = n;
          return;
        }
        case "append_scalar":
          if (!field.repeated) throw new DiffError("append on a singular field");
          {
            const value = convertScalar(field, op.append_scalar);
            repeatedOf(m, field).push(value);
          }
          return;
        case "append_message":
          if (!field.repeated || !sub) throw new DiffError("append_message on a non-message field");
          repeatedOf(m, field).push(decodeMessage(sub, op.append_message));
          return;
        default:
          throw new DiffError("op without a kind");
      }
    }
    if (field.repeated) {
      const arr = repeatedOf(m, field);
      const index = path[i + 1];
      if (index >= arr.length) throw new DiffError("index out of range");
      if (remaining === 1) {
        if (kind === "set_scalar") {
          arr[index] = convertScalar(field, op.set_scalar);
          return;
        }
        if (kind === "set_message" && sub) {
          arr[index] = decodeMessage(sub, op.set_message);
          return;
        }
        throw new DiffError("unsupported op on a repeated element");
      }
      if (!sub) throw new DiffError("path through a scalar");
      m = arr[index] as Msg;
      t = sub;
      i += 2;
    } else {
      if (!sub) throw new DiffError("path through a scalar");
      // Like Reflection::MutableMessage: walking into an absent message creates it (and, for a
      // oneof member, makes it the active one).
      if (!isSet(m, field.name)) setSingular(m, field, sub.create());
      m = m[field.name] as Msg;
      t = sub;
      i += 1;
    }
  }
}

/** Applies every op in order to `view` (mutated in place). Throws DiffError on a bad op. */
export function applyDiff(rootType: protobuf.Type, view: Msg, ops: Op[]): void {
  for (const op of ops) applyOp(rootType, view, op);
}

/** A deep copy of a decoded message (re-encoding keeps every protobufjs invariant). */
export function cloneMessage<T>(t: protobuf.Type, m: T): T {
  return t.decode(t.encode(m as any).finish()) as unknown as T;
}
