import { describe, expect, it } from "vitest";
import { applyDiff, DiffError } from "../src/diff";
import { Long, protobuf, type, ViewDiffType } from "../src/proto";

// A schema exercising every shape the differ can produce.
const SCHEMA = `
syntax = "proto3";
package t;
enum Color { NONE = 0; RED = 1; BLUE = 2; }
message Leaf { string name = 1; int32 n = 2; repeated uint32 tags = 3; }
message Mid { Leaf leaf = 1; repeated Leaf leaves = 2; Color color = 3; }
message Root {
  int32 i32 = 1; int64 i64 = 2; uint32 u32 = 3; uint64 u64 = 4; sint32 s32 = 5;
  double d = 6; float f = 7; bool b = 8; string s = 9; bytes by = 10; Color color = 11;
  Mid mid = 12; repeated Mid mids = 13; repeated int64 longs = 14; repeated string strs = 15;
  oneof choice { Leaf leaf_choice = 16; string text_choice = 17; int32 num_choice = 18; }
  optional int32 opt = 19;
}`;
const root = new protobuf.Root();
protobuf.parse(SCHEMA, root, { keepCase: true });
root.resolveAll();
const Root = root.lookupType("t.Root");
const Leaf = root.lookupType("t.Leaf");
const Mid = root.lookupType("t.Mid");
const ScalarValue = type("plateau.v1.ScalarValue");

const obj = (m: unknown) =>
  Root.toObject(m as protobuf.Message, { defaults: true, longs: String, bytes: String, enums: Number });

function make(o: Record<string, unknown>) {
  return Root.decode(Root.encode(Root.fromObject(o)).finish()) as any;
}

/** Builds ops the way the server sends them: through the wire format. */
function wireOps(ops: Record<string, unknown>[]) {
  const bytes = ViewDiffType.encode(ViewDiffType.fromObject({ from_version: 1, to_version: 2, ops })).finish();
  return (ViewDiffType.decode(bytes) as any).ops as any[];
}

function apply(base: Record<string, unknown>, ops: Record<string, unknown>[]) {
  return applyDiff(Root, make(base), wireOps(ops));
}

const enc = (t: protobuf.Type, o: Record<string, unknown>) => t.encode(t.fromObject(o)).finish();

describe("applyDiff on hand-made cases", () => {
  it("sets scalars of every kind", () => {
    const m = apply({}, [
      { path: [1], set_scalar: { int_value: -7 } },
      { path: [3], set_scalar: { uint_value: 4000000000 } },
      { path: [5], set_scalar: { int_value: -3 } },
      { path: [6], set_scalar: { double_value: 2.5 } },
      { path: [7], set_scalar: { double_value: 0.1 } },
      { path: [8], set_scalar: { bool_value: true } },
      { path: [9], set_scalar: { string_value: "héllo" } },
      { path: [10], set_scalar: { bytes_value: new Uint8Array([1, 2, 255]) } },
      { path: [11], set_scalar: { int_value: 2 } },
    ]);
    const o = obj(m);
    expect(o.i32).toBe(-7);
    expect(o.u32).toBe(4000000000);
    expect(o.s32).toBe(-3);
    expect(o.d).toBe(2.5);
    expect(o.f).toBe(Math.fround(0.1));
    expect(o.b).toBe(true);
    expect(o.s).toBe("héllo");
    expect(o.by).toBe("AQL/");
    expect(o.color).toBe(2);
  });

  it("keeps 64-bit values exact, signed and unsigned", () => {
    const m = apply({ i64: "5" }, [
      { path: [2], set_scalar: { int_value: Long.fromString("-9007199254740993") } },
      { path: [4], set_scalar: { uint_value: Long.fromString("18446744073709551615", true) } },
      { path: [14], append_scalar: { int_value: Long.fromString("9223372036854775807") } },
      { path: [14], append_scalar: { int_value: Long.fromString("-9223372036854775808") } },
    ]);
    const o = obj(m);
    expect(o.i64).toBe("-9007199254740993");
    expect(o.u64).toBe("18446744073709551615");
    expect(o.longs).toEqual(["9223372036854775807", "-9223372036854775808"]);
    // And survives a re-encode.
    expect(obj(Root.decode(Root.encode(m).finish()))).toEqual(o);
  });

  it("truncates int32 values like static_cast<int32_t>", () => {
    const m = apply({}, [{ path: [1], set_scalar: { int_value: Long.fromString("4294967297") } }]);
    expect(m.i32).toBe(1);
  });

  it("walks nested and repeated messages", () => {
    const base = {
      mid: { leaf: { name: "a", n: 1 } },
      mids: [{ leaf: { name: "x" } }, { leaves: [{ name: "p" }, { name: "q", tags: [1, 2, 3] }] }],
    };
    const m = apply(base, [
      { path: [12, 1, 2], set_scalar: { int_value: 42 } },
      { path: [13, 1, 2, 1, 3, 0], set_scalar: { uint_value: 9 } },
      { path: [13, 1, 2, 1, 3], truncate: 2 },
      { path: [13, 1, 2, 1, 3], append_scalar: { uint_value: 10 } },
      { path: [13, 0, 1], set_message: enc(Leaf, { name: "y", n: 5 }) },
      { path: [13, 1, 2, 0], set_message: enc(Leaf, { name: "P" }) },
      { path: [13], append_message: enc(Mid, { color: 1 }) },
      { path: [13, 2, 1, 1], set_scalar: { string_value: "created" } },
    ]);
    expect(obj(m)).toEqual(
      obj(
        make({
          mid: { leaf: { name: "a", n: 42 } },
          mids: [
            { leaf: { name: "y", n: 5 } },
            { leaves: [{ name: "P" }, { name: "q", tags: [9, 2, 10] }] },
            { color: 1, leaf: { name: "created" } },
          ],
        }),
      ),
    );
  });

  it("set_message replaces rather than merges", () => {
    const m = apply({ mid: { leaf: { name: "a", n: 3, tags: [1] }, color: 2 } }, [
      { path: [12, 1], set_message: enc(Leaf, { name: "b" }) },
    ]);
    expect(obj(m).mid).toEqual({ leaf: { name: "b", n: 0, tags: [] }, leaves: [], color: 2 });
  });

  it("truncates to zero and appends strings", () => {
    const m = apply({ strs: ["a", "b", "c"] }, [
      { path: [15], truncate: 0 },
      { path: [15], append_scalar: { string_value: "z" } },
      { path: [15, 0], set_scalar: { string_value: "y" } },
    ]);
    expect(m.strs).toEqual(["y"]);
  });

  it("drops the first elements of a repeated field, then appends", () => {
    const m = apply({ strs: ["a", "b", "c"] }, [
      { path: [15], drop_first: 2 },
      { path: [15], append_scalar: { string_value: "d" } },
    ]);
    expect(m.strs).toEqual(["c", "d"]);
    expect(apply({ strs: ["a"] }, [{ path: [15], drop_first: 1 }]).strs).toEqual([]);
  });

  it("removes and inserts elements in the middle of a repeated field", () => {
    const m = apply({ mids: [{ color: 1 }, { color: 2 }, { color: 1, leaf: { name: "c" } }] }, [
      { path: [13, 1], remove: true },
      { path: [13, 0], insert_message: enc(Mid, { leaf: { name: "new" } }) },
      { path: [13, 3], insert_message: enc(Mid, { color: 2 }) },
      { path: [13, 2, 1, 2], set_scalar: { int_value: 5 } },
    ]);
    expect(obj(m).mids.map((x: any) => [x.leaf?.name ?? null, x.leaf?.n ?? null, x.color])).toEqual([
      ["new", 0, 0],
      [null, null, 1],
      ["c", 5, 1],
      [null, null, 2],
    ]);
    expect(apply({ strs: ["a", "b", "c"] }, [{ path: [15, 0], remove: true }]).strs).toEqual(["b", "c"]);
  });

  it("switches oneof members and clears the oneof", () => {
    let m = apply({ leaf_choice: { name: "L" } }, [{ path: [17], set_scalar: { string_value: "T" } }]);
    expect(m.choice).toBe("text_choice");
    expect(obj(m).leaf_choice).toBeUndefined();
    expect(obj(Root.decode(Root.encode(m).finish())).text_choice).toBe("T");

    m = apply({ text_choice: "T" }, [{ path: [16, 2], set_scalar: { int_value: 8 } }]);
    expect(m.choice).toBe("leaf_choice");
    expect(obj(m).text_choice).toBeUndefined();
    expect(obj(m).leaf_choice).toEqual({ name: "", n: 8, tags: [] });

    m = apply({ num_choice: 0 }, [{ path: [16], set_message: enc(Leaf, { name: "M" }) }]);
    expect(m.choice).toBe("leaf_choice");

    m = apply({ text_choice: "T" }, [{ path: [17], clear: true }]);
    expect(m.choice).toBeUndefined();
    // Clearing an inactive member leaves the active one alone (Reflection::ClearField).
    m = apply({ text_choice: "T" }, [{ path: [18], clear: true }]);
    expect(m.choice).toBe("text_choice");
  });

  it("clears singular messages, scalars and proto3 optionals", () => {
    const m = apply({ mid: { color: 1 }, s: "x", opt: 0 }, [
      { path: [12], clear: true },
      { path: [9], clear: true },
      { path: [19], clear: true },
    ]);
    const o = obj(m);
    expect(o.mid).toBeNull();
    expect(o.s).toBe("");
    expect(Object.prototype.hasOwnProperty.call(m, "opt")).toBe(false);
    const n = apply({}, [{ path: [19], set_scalar: { int_value: 0 } }]);
    expect(Object.prototype.hasOwnProperty.call(Root.toObject(Root.decode(Root.encode(n).finish())), "opt")).toBe(true);
  });

  it("rejects malformed ops like the C++ applier", () => {
    const bad: [Record<string, unknown>, Record<string, unknown>][] = [
      [{}, { path: [], clear: true }],
      [{}, { path: [99], clear: true }],
      [{}, { path: [1], set_scalar: { uint_value: 1 } }],
      [{}, { path: [9], set_scalar: { bytes_value: new Uint8Array([1]) } }],
      [{}, { path: [13], set_scalar: { int_value: 1 } }],
      [{ strs: ["a"] }, { path: [15], truncate: 2 }],
      [{ strs: ["a"] }, { path: [15], drop_first: 2 }],
      [{}, { path: [9], drop_first: 1 }],
      [{ strs: ["a"] }, { path: [15, 1], set_scalar: { string_value: "b" } }],
      [{}, { path: [9], append_scalar: { string_value: "b" } }],
      [{}, { path: [1, 0], clear: true }],
      [{}, { path: [12], set_scalar: { int_value: 1 } }],
      [{}, { path: [12], set_message: new Uint8Array([0xff, 0xff, 0xff]) }],
      [{}, { path: [1] }],
      [{ mids: [{}] }, { path: [13], remove: true }],
      [{ mids: [{}] }, { path: [13, 1], remove: true }],
      [{ mids: [{}] }, { path: [13], insert_message: enc(Mid, {}) }],
      [{ mids: [{}] }, { path: [13, 2], insert_message: enc(Mid, {}) }],
      [{ strs: ["a"] }, { path: [15, 0], insert_message: enc(Mid, {}) }],
      [{ mids: [{}] }, { path: [13, 0], insert_message: new Uint8Array([0xff, 0xff, 0xff]) }],
    ];
    for (const [base, op] of bad) {
      expect(() => apply(base, [op]), JSON.stringify(op)).toThrow(DiffError);
    }
  });

  it("reads ScalarValue kinds from the wire", () => {
    const v = ScalarValue.decode(ScalarValue.encode(ScalarValue.fromObject({ bool_value: false })).finish()) as any;
    expect(v.value).toBe("bool_value");
  });
});

describe("applyDiff on a game view", () => {
  const View = type("plateau.games.globalissimo.View");
  it("updates a Globalissimo view", () => {
    const from = View.decode(
      View.encode(
        View.fromObject({ you: 0, round: 1, players: [{ seat: 0, placed_slot: -1 }, { seat: 1, placed_slot: -1 }] }),
      ).finish(),
    ) as any;
    const to = applyDiff(View, from, wireOps([
      { path: [9, 0, 6], set_scalar: { int_value: 2 } },
      { path: [6], set_scalar: { int_value: 1 } },
      // View.table (17), its log (2): the core's part every game's view carries.
      { path: [17, 2], append_message: enc(type("plateau.v1.LogEntry"), { seq: 4, text: { key: "k", args: [{ seat: 1 }] } }) },
    ]));
    expect(to.players[0].placed_slot).toBe(2);
    expect(to.to_act).toBe(1);
    expect(to.table.log[0].text.key).toBe("k");
    expect(to.table.log[0].text.args[0].value).toBe("seat");
    expect(to.players[1]).toBe(from.players[1]);
    expect(from.table).toBeNull();
    expect(from.players[0].placed_slot).toBe(-1);
  });
});

/** Freezes a decoded message and everything under it: any write to it then throws a TypeError. */
function deepFreeze<T>(x: T): T {
  if (x && typeof x === "object" && !ArrayBuffer.isView(x) && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const k of Object.keys(x)) deepFreeze((x as Record<string, unknown>)[k]);
  }
  return x;
}

describe("applyDiff is copy-on-write", () => {
  const base = () =>
    make({
      i32: 1,
      mid: { leaf: { name: "a", n: 1, tags: [1] } },
      mids: [{ leaf: { name: "x" } }, { leaves: [{ name: "p" }, { name: "q", tags: [1, 2, 3] }] }, { color: 2 }],
      strs: ["a", "b"],
      longs: ["7"],
      text_choice: "T",
    });

  it("gives fresh objects on the path of a change and keeps every other subtree", () => {
    const from = base();
    const to = applyDiff(Root, from, wireOps([{ path: [13, 1, 2, 1, 2], set_scalar: { int_value: 5 } }]));
    expect(to).not.toBe(from);
    expect(to.mids).not.toBe(from.mids);
    expect(to.mids[1]).not.toBe(from.mids[1]);
    expect(to.mids[1].leaves).not.toBe(from.mids[1].leaves);
    expect(to.mids[1].leaves[1]).not.toBe(from.mids[1].leaves[1]);
    expect(to.mids[1].leaves[1].n).toBe(5);
    // Off the path: the very same objects.
    expect(to.mid).toBe(from.mid);
    expect(to.mids[0]).toBe(from.mids[0]);
    expect(to.mids[2]).toBe(from.mids[2]);
    expect(to.mids[1].leaves[0]).toBe(from.mids[1].leaves[0]);
    expect(to.mids[1].leaves[1].tags).toBe(from.mids[1].leaves[1].tags);
    expect(to.strs).toBe(from.strs);
    expect(to.longs).toBe(from.longs);
    expect(from.mids[1].leaves[1].n).toBe(0);
  });

  it("copies an array it appends to or truncates, and nothing beside it", () => {
    const from = base();
    const to = applyDiff(Root, from, wireOps([
      { path: [15], append_scalar: { string_value: "c" } },
      { path: [12, 1, 3], truncate: 0 },
    ]));
    expect(to.strs).not.toBe(from.strs);
    expect(to.strs).toEqual(["a", "b", "c"]);
    expect(from.strs).toEqual(["a", "b"]);
    expect(to.mid.leaf).not.toBe(from.mid.leaf);
    expect(to.mid.leaf.tags).toEqual([]);
    expect(from.mid.leaf.tags).toEqual([1]);
    expect(to.mids).toBe(from.mids);
  });

  it("never writes to the previous view, whatever the ops", () => {
    const from = deepFreeze(base());
    const snapshot = obj(from);
    const to = applyDiff(Root, from, wireOps([
      { path: [1], set_scalar: { int_value: 9 } },
      { path: [12, 1, 2], set_scalar: { int_value: 42 } },
      { path: [12, 1, 3, 0], set_scalar: { uint_value: 8 } },
      { path: [12, 1, 3], append_scalar: { uint_value: 9 } },
      { path: [13, 1, 2, 1, 3], truncate: 1 },
      { path: [13, 0, 1], set_message: enc(Leaf, { name: "y" }) },
      { path: [13, 1, 2, 0], set_message: enc(Leaf, { name: "P" }) },
      { path: [13], append_message: enc(Mid, { color: 1 }) },
      { path: [13, 3, 1, 1], set_scalar: { string_value: "created" } },
      { path: [13, 2, 3], clear: true },
      { path: [15], truncate: 0 },
      { path: [14], clear: true },
      { path: [16, 1], set_scalar: { string_value: "switched" } },
      { path: [19], set_scalar: { int_value: 3 } },
      { path: [13, 0], remove: true },
      { path: [13, 0], insert_message: enc(Mid, { color: 2 }) },
    ]));
    expect(obj(from)).toEqual(snapshot);
    expect(from.choice).toBe("text_choice");
    const o = obj(to);
    expect(o.i32).toBe(9);
    expect(o.mid.leaf).toEqual({ name: "a", n: 42, tags: [8, 9] });
    expect(o.mids.map((m: any) => m.leaf?.name ?? null)).toEqual([null, null, null, "created"]);
    expect(o.mids[0].color).toBe(2);
    expect(o.mids[1].leaves).toEqual([{ name: "P", n: 0, tags: [] }, { name: "q", n: 0, tags: [1] }]);
    expect(o.mids[2].color).toBe(0);
    expect(o.strs).toEqual([]);
    expect(o.longs).toEqual([]);
    expect(to.choice).toBe("leaf_choice");
    expect(o.text_choice).toBeUndefined();
    expect(o.opt).toBe(3);
  });

  it("leaves the previous view whole when an op fails halfway", () => {
    const from = deepFreeze(base());
    const snapshot = obj(from);
    // A write into the frozen view would throw a TypeError, not the DiffError of the bad op.
    expect(() => applyDiff(Root, from, wireOps([
      { path: [13, 1, 2, 0, 1], set_scalar: { string_value: "ok" } },
      { path: [15, 5], set_scalar: { string_value: "out of range" } },
    ]))).toThrow(DiffError);
    expect(obj(from)).toEqual(snapshot);
  });

  it("returns the same view when nothing changes", () => {
    const from = base();
    expect(applyDiff(Root, from, [])).toBe(from);
    // Clearing a oneof member that is not the active one is no change (Reflection::ClearField).
    expect(applyDiff(Root, from, wireOps([{ path: [18], clear: true }]))).toBe(from);
    expect(applyDiff(Root, from, wireOps([{ path: [12, 2], clear: true }]))).toBe(from);
  });

  it("keeps the copies protobufjs messages", () => {
    const from = base();
    const to = applyDiff(Root, from, wireOps([
      { path: [13, 1, 2, 1, 1], set_scalar: { string_value: "Q" } },
      { path: [18], set_scalar: { int_value: 4 } },
    ]));
    expect(to).toBeInstanceOf(Root.ctor);
    expect(to.mids[1]).toBeInstanceOf(Mid.ctor);
    expect(to.mids[1].leaves[1]).toBeInstanceOf(Leaf.ctor);
    expect(to.choice).toBe("num_choice");
    // Prototype defaults still read through.
    expect(to.mids[1].color).toBe(0);
    expect(obj(Root.decode(Root.encode(to).finish()))).toEqual(obj(to));
  });

  it("copies a path once per diff, so later ops see the earlier ones", () => {
    const from = base();
    const to = applyDiff(Root, from, wireOps([
      { path: [13, 1, 2, 1, 3], append_scalar: { uint_value: 4 } },
      { path: [13, 1, 2, 1, 3], append_scalar: { uint_value: 5 } },
      { path: [13, 1, 2, 1, 3, 0], set_scalar: { uint_value: 0 } },
    ]));
    expect(to.mids[1].leaves[1].tags).toEqual([0, 2, 3, 4, 5]);
    expect(from.mids[1].leaves[1].tags).toEqual([1, 2, 3]);
  });
});
