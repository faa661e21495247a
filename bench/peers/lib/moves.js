// Choosing a move from what a seat's view offers: the seat's open question answered with a drawn
// answer of the right shape, otherwise one of the moves the view publishes (Table.moves, a tree of
// plateau.v1.MoveChoice), drawn uniformly at each level of the tree (plateau-load's easy bots
// weight each move by its members instead), a family leaf's params each drawn from its domain. The action is built from the leaf's parts and the drawn
// values and encoded with the game's Action type.
import protobuf from "protobufjs";

const pick = (n) => Math.floor(Math.random() * n);
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

export class GameTypes {
  // `info`: the game's plateau.v1.GameInfo (ListGames), `lookup`: a type by its full name.
  constructor(info, lookup) {
    this.view = lookup(info.view_type);
    this.action = lookup(info.action_type);
    this.tableField = this.view.fieldsArray.find((f) => f.type === "plateau.v1.Table" || f.resolvedType?.fullName === ".plateau.v1.Table");
    this.coreField = this.action.fieldsArray.find((f) => f.resolvedType?.fullName === ".plateau.v1.CoreAction");
    if (!this.tableField || !this.coreField) throw new Error(`${info.id}: no Table in its View or no CoreAction in its Action`);
    this.optionSets = new Map();
    for (const set of info.option_sets ?? []) this.optionSets.set(set.id, set.options);
  }

  table(view) {
    return view[this.tableField.name] ?? null;
  }

  // The moves to try for `seat`, best first (the first is sent; the others after refusals are
  // drawn afresh by calling again). Null when the view offers the seat nothing.
  choose(view, seat) {
    const table = this.table(view);
    if (!table) return null;
    for (const prompt of table.prompts ?? []) {
      if (prompt.seat !== seat) continue;
      return this.encode({ [this.coreField.name]: { answer: this.drawAnswer(prompt) } });
    }
    if (table.moves_held) return null;
    const roots = table.moves ?? [];
    if (roots.length === 0) return null;
    // A random walk down the tree to a leaf: each step a random choice among its siblings.
    const parts = [];
    let level = roots;
    let parent = null;
    for (;;) {
      const node = level[pick(level.length)];
      parts.push(node.action);
      if ((node.params ?? []).length > 0) return this.familyMember(parts, node, parent);
      if ((node.next ?? []).length === 0) return this.fromParts(parts);
      parent = node;
      level = node.next;
    }
  }

  drawAnswer(prompt) {
    const answer = { prompt_id: prompt.id };
    const min = Number(prompt.min), max = Number(prompt.max);
    const options = (prompt.options ?? []).length > 0 ? prompt.options : (this.optionSets.get(prompt.option_set) ?? []);
    switch (prompt.kind) {
      case 1: {  // PROMPT_CHOOSE: from min to max distinct options
        const hi = Math.min(max, options.length);
        const lo = Math.min(Math.max(0, min), hi);
        const k = lo + pick(hi - lo + 1);
        answer.options = shuffled(options.map((o) => o.id)).slice(0, k);
        break;
      }
      case 2:  // PROMPT_NUMBER
        answer.number = max < min ? min : min + pick(max - min + 1);
        break;
      case 3:  // PROMPT_ORDER: every option, in an order
        answer.options = shuffled(options.map((o) => o.id));
        break;
      case 4:  // PROMPT_YES_NO
        answer.yes = Math.random() < 0.5;
        break;
      case 5: {  // PROMPT_TEXT: a few letters
        const lo = Math.max(min, 1);
        const len = lo + pick(Math.max(0, Math.min(max, 12) - lo) + 1);
        let text = "";
        for (let i = 0; i < len; i++) text += LETTERS[pick(26)];
        answer.text = text;
        break;
      }
      default:
        break;
    }
    return answer;
  }

  // A leaf's action: its path's parts, root first, read as protobuf reads their concatenation
  // (a merge: later scalars win, messages merge, lists add up).
  merged(parts) {
    const out = this.action.create();
    for (const part of parts) {
      if (part && part.length > 0) mergeInto(this.action, out, this.action.decode(part));
    }
    return out;
  }

  fromParts(parts) {
    return this.action.encode(this.merged(parts)).finish();
  }

  familyMember(parts, leaf, parent) {
    const action = this.merged(parts);
    const shared = parent?.next_paths ?? [];
    leaf.params.forEach((param, i) => {
      const path = param.path || shared[i];
      if (!path) throw new Error("a family param without a path");
      setPath(this.action, action, path.split("."), 0, param);
    });
    return this.action.encode(action).finish();
  }

  encode(obj) {
    return this.action.encode(obj).finish();
  }
}

function shuffled(a) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

const own = (m, name) => m[name] != null && Object.prototype.hasOwnProperty.call(m, name);

function mergeInto(type, into, from) {
  for (const f of type.fieldsArray) {
    if (!own(from, f.name)) continue;
    if (!f.resolved) f.resolve();
    const sub = f.resolvedType instanceof protobuf.Type ? f.resolvedType : null;
    const v = from[f.name];
    if (f.repeated) {
      if (v.length > 0) into[f.name] = (own(into, f.name) ? into[f.name] : []).concat(v);
    } else if (sub && own(into, f.name)) {
      mergeInto(sub, into[f.name], v);
    } else {
      if (f.partOf) for (const other of f.partOf.oneof) if (other !== f.name) delete into[other];
      into[f.name] = v;
    }
  }
}

// One value of a param's domain: one of its listed values, or a number from min to max.
function drawValue(param) {
  const values = param.values ?? [];
  if (values.length > 0) return Number(values[pick(values.length)]);
  const min = Number(param.min), max = Number(param.max);
  return max < min ? min : min + pick(max - min + 1);
}

// Sets the field at `names` (from index i) in message `m` of `type` to a drawn member of `param`'s
// domain, creating the messages on the way. Through a repeated message the field is set in every
// element (the leaf's action holds one, made here when it holds none). A repeated scalar field
// gets min_count..max_count values, distinct when the param says so.
function setPath(type, m, names, i, param) {
  const f = type.fields[names[i]];
  if (!f) throw new Error(`no field ${names.join(".")} in ${type.fullName}`);
  if (!f.resolved) f.resolve();
  const sub = f.resolvedType instanceof protobuf.Type ? f.resolvedType : null;
  const last = i === names.length - 1;
  if (!last) {
    if (!sub) throw new Error(`${names.join(".")} goes through a scalar`);
    if (f.repeated) {
      if (!own(m, f.name) || m[f.name].length === 0) m[f.name] = [sub.create()];
      for (const el of m[f.name]) setPath(sub, el, names, i + 1, param);
      return;
    }
    if (!own(m, f.name)) {
      if (f.partOf) for (const other of f.partOf.oneof) if (other !== f.name) delete m[other];
      m[f.name] = sub.create();
    }
    setPath(sub, m[f.name], names, i + 1, param);
    return;
  }
  const asField = (v) => (f.type === "bool" ? v !== 0 : v);
  if (f.repeated) {
    const lo = Number(param.min_count ?? 0), hi = Math.max(lo, Number(param.max_count ?? lo));
    const count = lo + pick(hi - lo + 1);
    const out = [];
    for (let tries = 0; out.length < count && tries < 100 * (count + 1); tries++) {
      const v = drawValue(param);
      if (param.distinct && out.includes(v)) continue;
      out.push(v);
    }
    m[f.name] = out.map(asField);
    return;
  }
  if (f.partOf) for (const other of f.partOf.oneof) if (other !== f.name) delete m[other];
  m[f.name] = asField(drawValue(param));
}
