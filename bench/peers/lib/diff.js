// Applying a plateau.v1.ViewDiff to a view decoded by protobufjs, in place, with the meaning the
// server gives each op (engine/core/view_diff.cc, ApplyOne): `path` is field numbers from the
// view's root, a repeated field's number followed by an element's index; its last entry is a
// field number, or a repeated field's number and an index when the op names one element.
//
// The view is this client's own copy and nobody else reads it, so ops write straight into it.
import protobuf from "protobufjs";

export class DiffError extends Error {}

const SIGNED32 = new Set(["int32", "sint32", "sfixed32"]);
const SIGNED64 = new Set(["int64", "sint64", "sfixed64"]);
const UNSIGNED32 = new Set(["uint32", "fixed32"]);
const UNSIGNED64 = new Set(["uint64", "fixed64"]);

const has = (m, name) => m[name] != null && Object.prototype.hasOwnProperty.call(m, name);

function scalarKind(v) {
  if (!v) return undefined;
  if (typeof v.value === "string") return v.value;  // protobufjs's oneof getter
  for (const k of ["int_value", "uint_value", "double_value", "bool_value", "string_value", "bytes_value"]) {
    if (has(v, k)) return k;
  }
  return undefined;
}

// A ScalarValue as the JS value protobufjs keeps in `field`, its kind checked against the field's.
function scalarFor(field, v) {
  const kind = scalarKind(v);
  const want = (k) => {
    if (kind !== k) throw new DiffError(`a ${kind ?? "missing"} value for ${field.fullName}`);
    return v[k];
  };
  if (field.resolvedType instanceof protobuf.Enum) return Number(want("int_value")) | 0;
  if (field.resolvedType instanceof protobuf.Type) throw new DiffError(`a scalar for message field ${field.fullName}`);
  const t = field.type;
  if (SIGNED32.has(t)) return Number(want("int_value")) | 0;
  if (SIGNED64.has(t)) return Number(want("int_value"));
  if (UNSIGNED32.has(t)) return Number(want("uint_value")) >>> 0;
  if (UNSIGNED64.has(t)) return Number(want("uint_value"));
  if (t === "double") return Number(want("double_value"));
  if (t === "float") return Math.fround(Number(want("double_value")));
  if (t === "bool") return Boolean(want("bool_value"));
  if (t === "string") return String(want("string_value"));
  if (t === "bytes") return want("bytes_value");
  throw new DiffError(`field type ${t} (${field.fullName})`);
}

function parse(type, bytes) {
  try {
    return type.decode(bytes);
  } catch (e) {
    throw new DiffError(`undecodable ${type.fullName}: ${e.message}`);
  }
}

// Sets a singular field; a oneof member (or a proto3 optional) drops the members beside it.
function setOne(m, field, value) {
  if (field.partOf) {
    for (const other of field.partOf.oneof) {
      if (other !== field.name && Object.prototype.hasOwnProperty.call(m, other)) delete m[other];
    }
  }
  m[field.name] = value;
}

// The array of a repeated field, owned by `m` (never protobufjs's shared empty default).
function list(m, field) {
  let a = m[field.name];
  if (!Array.isArray(a) || !Object.prototype.hasOwnProperty.call(m, field.name) || Object.isFrozen(a)) {
    a = Array.isArray(a) ? a.slice() : [];
    m[field.name] = a;
  }
  return a;
}

function fieldOf(type, number) {
  const f = type.fieldsById[number];
  if (!f) throw new DiffError(`no field ${number} in ${type.fullName}`);
  if (!f.resolved) f.resolve();
  return f;
}

function messageTypeOf(f) {
  return f.resolvedType instanceof protobuf.Type ? f.resolvedType : null;
}

function applyOne(rootType, root, op) {
  const p = op.path ?? [];
  if (p.length === 0) throw new DiffError("empty path");
  const kind = typeof op.op === "string" ? op.op : undefined;
  let type = rootType;
  let m = root;
  let i = 0;
  for (;;) {
    const f = fieldOf(type, p[i]);
    const sub = messageTypeOf(f);
    const remaining = p.length - i - 1;
    if (remaining === 0) {
      switch (kind) {
        case "set_scalar":
          if (f.repeated) throw new DiffError("set on a whole repeated field");
          setOne(m, f, scalarFor(f, op.set_scalar));
          return;
        case "set_message":
          if (f.repeated || !sub) throw new DiffError("set_message on a non-message field");
          setOne(m, f, parse(sub, op.set_message));
          return;
        case "clear":
          if (f.repeated || f.map) m[f.name] = f.map ? {} : [];
          else if (f.partOf) { if (has(m, f.name)) for (const n of f.partOf.oneof) delete m[n]; }
          else delete m[f.name];
          return;
        case "truncate": {
          if (!f.repeated) throw new DiffError("truncate on a singular field");
          const a = list(m, f);
          if (op.truncate > a.length) throw new DiffError("truncate beyond size");
          a.length = op.truncate;
          return;
        }
        case "drop_first": {
          if (!f.repeated) throw new DiffError("drop_first on a singular field");
          const a = list(m, f);
          if (op.drop_first > a.length) throw new DiffError("drop_first beyond size");
          a.splice(0, op.drop_first);
          return;
        }
        case "append_scalar":
          if (!f.repeated) throw new DiffError("append on a singular field");
          list(m, f).push(scalarFor(f, op.append_scalar));
          return;
        case "append_message":
          if (!f.repeated || !sub) throw new DiffError("append_message on a non-message field");
          list(m, f).push(parse(sub, op.append_message));
          return;
        case "remove":
        case "insert_message":
          throw new DiffError(`${kind} needs an element index`);
        default:
          throw new DiffError("an op of no kind");
      }
    }
    if (f.repeated) {
      const a = list(m, f);
      const index = p[i + 1];
      if (remaining === 1 && kind === "insert_message") {
        if (!sub) throw new DiffError("insert_message on a non-message field");
        if (index > a.length) throw new DiffError("index out of range");
        a.splice(index, 0, parse(sub, op.insert_message));
        return;
      }
      if (index >= a.length) throw new DiffError("index out of range");
      if (remaining === 1) {
        if (kind === "remove") a.splice(index, 1);
        else if (kind === "set_scalar") a[index] = scalarFor(f, op.set_scalar);
        else if (kind === "set_message" && sub) a[index] = parse(sub, op.set_message);
        else throw new DiffError("an op a repeated element cannot take");
        return;
      }
      if (!sub) throw new DiffError("a path through a scalar");
      m = a[index];
      type = sub;
      i += 2;
    } else {
      if (!sub) throw new DiffError("a path through a scalar");
      // As the server's MutableMessage: walking into an absent message creates it.
      if (!has(m, f.name)) setOne(m, f, sub.create());
      m = m[f.name];
      type = sub;
      i += 1;
    }
  }
}

// Applies the ops in order to `view` (of protobufjs type `type`). Throws DiffError on an op the
// view cannot take; the ops before it stay applied (only a fresh snapshot can be trusted then).
export function applyDiff(type, view, ops) {
  for (const op of ops) applyOne(type, view, op);
}

// A decoded message as plain data with every default left out, so that two copies of one view
// compare equal however they were built (decoded from a snapshot, or grown by Diffs).
export function canonical(type, m) {
  const out = {};
  for (const f of type.fieldsArray) {
    if (!f.resolved) f.resolve();
    const sub = messageTypeOf(f);
    const v = m[f.name];
    if (v == null) continue;
    if (f.repeated) {
      if (!Array.isArray(v) || v.length === 0) continue;
      out[f.name] = v.map((x) => (sub ? canonical(sub, x) : plainScalar(x)));
    } else if (sub) {
      if (!Object.prototype.hasOwnProperty.call(m, f.name)) continue;
      out[f.name] = canonical(sub, v);
    } else {
      const s = plainScalar(v);
      if (!f.partOf && (s === 0 || s === "" || s === false)) continue;
      if (f.partOf && !Object.prototype.hasOwnProperty.call(m, f.name)) continue;
      out[f.name] = s;
    }
  }
  return out;
}

function plainScalar(v) {
  if (v instanceof Uint8Array) return Buffer.from(v).toString("base64");
  return v;
}
