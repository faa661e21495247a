import { describe, expect, it } from "vitest";
import { buildRoot, decode, encode, type } from "../src/proto";
import {
  buildMove, choiceLabel, choicesForTarget, domainWords, fillParamPaths, inDomain, isLeaf, livePath, moveAt, moveKind, moveRoots, movesAfter, moveTargets,
  paramDomain, paramOf, paramValues, type ActionParam, type MoveChoice,
} from "../src/ui/kit/moves";
import type { Target } from "../src/table";

// A game's Action of the test's own, with what the published moves may set: nested messages, an
// enum, a boolean, a 64-bit number, a list of numbers (which a family's param may not go through)
// and a list of messages (a param through it sets every element).
const root = buildRoot({
  "t.proto": `
    syntax = "proto3";
    package kt;
    enum Side { SIDE_NONE = 0; SIDE_NORTH = 1; SIDE_SOUTH = 2; }
    message Fire { uint32 target = 1; Side side = 2; bool aimed = 3; int64 shots = 4; }
    message Move { string piece = 1; int32 q = 2; int32 r = 3; Fire fire = 4; repeated uint32 path = 5; repeated Fire volleys = 6; }
    message Action { oneof kind { Move move = 1; bool pass = 2; } }
  `,
});
const Action = root.lookupType("kt.Action");
const bytes = (o: object) => encode(Action, o);
const sent = (a: Record<string, unknown> | undefined) => Action.toObject(decode(Action, encode(Action, a!)), { longs: Number, enums: Number });

const label = (key: string) => ({ key, args: [] });
function node(key: string, over: Partial<MoveChoice> = {}): MoveChoice {
  return { key, label: label(`m.${key}`), target: null, action: new Uint8Array(), next: [], params: [], next_label: null, key_target: 0, next_paths: [], ...over };
}
function param(path: string, over: Partial<ActionParam> = {}): ActionParam {
  return { path, values: [], min: 0, max: 0, min_count: 0, max_count: 0, distinct: false, ...over };
}

// Two tanks: t1 moves to one of two hexes, then fires at a target and side picked from a family;
// t2 may only pass its turn through a plain leaf.
const tree: MoveChoice[] = [
  node("t1", {
    target: { piece: "p1" },
    next: [
      node("to:1,0", { target: { hex: { q: 1, r: 0 } }, action: bytes({ move: { piece: "p1", q: 1, r: 0 } }) }),
      node("to:0,1", {
        target: { hex: { q: 0, r: 1 } },
        action: bytes({ move: { piece: "p1", q: 0, r: 1 } }),
        params: [
          param("move.fire.target", { values: [3, 7] }),
          param("move.fire.side", { values: [1, 2] }),
          param("move.fire.aimed", { min: 0, max: 1 }),
          param("move.fire.shots", { min: 1, max: 3 }),
        ],
      }),
    ],
  }),
  node("pass", { target: { seat: 1 }, action: bytes({ pass: true }) }),
];

describe("reading the tree", () => {
  it("reads the roots from the view's table, none without one", () => {
    expect(moveRoots({ table: { prompts: [], log: [], resigned: [], moves: tree } })).toBe(tree);
    expect(moveRoots({})).toEqual([]);
    expect(moveRoots(null)).toEqual([]);
  });

  it("finds a node and its children by a path of keys", () => {
    expect(moveAt(tree, ["t1"])?.key).toBe("t1");
    expect(moveAt(tree, ["t1", "to:0,1"])?.key).toBe("to:0,1");
    expect(moveAt(tree, ["t1", "nowhere"])).toBeNull();
    expect(moveAt(tree, ["pass", "t1"])).toBeNull();
    expect(movesAfter(tree, []).map((c) => c.key)).toEqual(["t1", "pass"]);
    expect(movesAfter(tree, ["t1"]).map((c) => c.key)).toEqual(["to:1,0", "to:0,1"]);
    expect(movesAfter(tree, ["pass"])).toEqual([]);
    expect(movesAfter(tree, ["gone"])).toEqual([]);
  });

  it("keeps the part of a path still open", () => {
    expect(livePath(tree, ["t1", "to:0,1"])).toEqual(["t1", "to:0,1"]);
    expect(livePath(tree, ["t1", "to:5,5"])).toEqual(["t1"]);
    expect(livePath([tree[1]], ["t1", "to:0,1"])).toEqual([]);
  });

  it("tells steps, leaves and families apart", () => {
    expect(moveKind(tree[0])).toBe("step");
    expect(moveKind(tree[1])).toBe("leaf");
    expect(moveKind(tree[0].next[1])).toBe("family");
    expect(isLeaf(tree[0])).toBe(false);
    expect(isLeaf(tree[0].next[1])).toBe(true);
  });

  it("gives a family param's domain: listed values or a range", () => {
    const fam = tree[0].next[1];
    expect(paramDomain(paramOf(fam, "move.fire.target")!)).toEqual({ kind: "values", values: [3, 7] });
    expect(paramDomain(paramOf(fam, "move.fire.shots")!)).toEqual({ kind: "range", min: 1, max: 3 });
    expect(paramValues(paramOf(fam, "move.fire.shots")!)).toEqual([1, 2, 3]);
    expect(paramValues(paramOf(fam, "move.fire.target")!)).toEqual([3, 7]);
    expect(inDomain(paramOf(fam, "move.fire.target")!, 5)).toBe(false);
    expect(inDomain(paramOf(fam, "move.fire.shots")!, 2)).toBe(true);
    expect(inDomain(paramOf(fam, "move.fire.shots")!, 4)).toBe(false);
    expect(inDomain(paramOf(fam, "move.fire.shots")!, 1.5)).toBe(false);
    expect(domainWords(paramOf(fam, "move.fire.target")!)).toBe("one of 3, 7");
    expect(paramOf(fam, "move.nope")).toBeUndefined();
  });

  it("finds the choices a click stands for, and what to highlight", () => {
    expect(choicesForTarget(tree, { piece: "p1" }).map((c) => c.key)).toEqual(["t1"]);
    expect(choicesForTarget(tree, "seat:1").map((c) => c.key)).toEqual(["pass"]);
    expect(choicesForTarget(tree[0].next, { hex: { q: 0, r: 1 } } as Target).map((c) => c.key)).toEqual(["to:0,1"]);
    expect(choicesForTarget(tree, { piece: "p2" })).toEqual([]);
    expect(choicesForTarget(tree, null)).toEqual([]);
    const t = moveTargets(tree[0].next);
    expect([...t.hexes]).toEqual(["1,0", "0,1"]);
    expect(moveTargets(tree[0].next)).toBe(t);  // computed once per list
    expect([...moveTargets(tree).pieces]).toEqual(["p1"]);
    expect([...moveTargets(tree).seats]).toEqual([1]);
  });
});

describe("the action to send", () => {
  it("sends a leaf's action as published", () => {
    expect(sent(buildMove(Action, tree[1]).action)).toEqual({ pass: true });
    expect(sent(buildMove(Action, tree[0].next[0]).action)).toEqual({ move: { piece: "p1", q: 1 } });
  });

  it("puts a leaf's action together from the parts on its path", () => {
    // As the engine sends it: the piece once, on its node; each leaf adds only where it goes.
    const parts: MoveChoice[] = [
      node("t1", {
        action: bytes({ move: { piece: "p1" } }),
        next: [
          node("a", { action: bytes({ move: { q: 1 } }) }),
          node("b", { action: bytes({ move: { r: 1 } }), params: [param("move.fire.target", { values: [3, 7] })] }),
        ],
      }),
    ];
    expect(sent(buildMove(Action, moveAt(parts, ["t1", "a"])).action)).toEqual({ move: { piece: "p1", q: 1 } });
    expect(sent(buildMove(Action, moveAt(parts, ["t1", "b"]), { "move.fire.target": 7 }).action))
      .toEqual({ move: { piece: "p1", r: 1, fire: { target: 7 } } });
    // A lower level read as a tree of its own does not lose the part above it.
    expect(sent(buildMove(Action, moveAt(parts[0].next, ["a"])).action)).toEqual({ move: { piece: "p1", q: 1 } });
  });

  it("names a choice with the words its step shares, and its own args", () => {
    const shared: MoveChoice[] = [
      node("g", {
        next_label: { key: "m.discard", args: [] },
        next: [
          node("mafia", { label: { key: "", args: [{ name: "Mafia" }] }, action: bytes({ pass: true }) }),
          node("own", { label: label("m.own"), action: bytes({ move: { q: 2 } }) }),
        ],
      }),
    ];
    expect(choiceLabel(moveAt(shared, ["g", "mafia"])!)).toEqual({ key: "m.discard", args: [{ name: "Mafia" }] });
    expect(choiceLabel(moveAt(shared, ["g", "own"])!)).toEqual(label("m.own"));
    expect(choiceLabel(moveAt(shared, ["g"])!)).toEqual(label("m.g"));
  });

  it("sets a family's dotted fields on its base action: numbers, enums, booleans, 64-bit", () => {
    const b = buildMove(Action, tree[0].next[1], { "move.fire.target": 7, "move.fire.side": 2, "move.fire.aimed": 1, "move.fire.shots": 3 });
    expect(b.error).toBeUndefined();
    expect(sent(b.action)).toEqual({ move: { piece: "p1", r: 1, fire: { target: 7, side: 2, aimed: true, shots: 3 } } });
  });

  it("refuses a value outside a param's domain, or a missing one, in words and with no action", () => {
    const fam = tree[0].next[1];
    const ok = { "move.fire.target": 3, "move.fire.side": 1, "move.fire.aimed": 0, "move.fire.shots": 1 };
    expect(buildMove(Action, fam, ok).action).toBeDefined();
    const bad = buildMove(Action, fam, { ...ok, "move.fire.target": 5 });
    expect(bad).toEqual({ error: "5 is not allowed for move.fire.target: one of 3, 7." });
    expect(buildMove(Action, fam, { ...ok, "move.fire.shots": 4 }).error).toBe("4 is not allowed for move.fire.shots: from 1 to 3.");
    const { ["move.fire.side"]: _side, ...missing } = ok;
    expect(buildMove(Action, fam, missing).error).toBe("Choose a value for move.fire.side.");
  });

  it("refuses a step, a lost node, and a path the Action lacks or that goes through a list", () => {
    expect(buildMove(Action, tree[0]).error).toBe("Choose how to go on first.");
    expect(buildMove(Action, null).error).toBe("That move is no longer open.");
    const wrong = node("x", { action: bytes({ move: {} }), params: [param("move.speed", { values: [1] })] });
    expect(buildMove(Action, wrong, { "move.speed": 1 }).error).toBe("The action has no field move.speed.");
    const list = node("y", { action: bytes({ move: {} }), params: [param("move.path", { values: [1] })] });
    expect(buildMove(Action, list, { "move.path": 1 }).error).toBe("move.path goes through a list, which this client cannot set.");
    const none = node("v", { action: bytes({ move: {} }), params: [param("move.volleys.shots", { values: [1] })] });
    expect(buildMove(Action, none, { "move.volleys.shots": 1 }).error).toBe("move.volleys.shots goes through a list the action leaves empty.");
    const through = node("z", { action: bytes({ move: {} }), params: [param("move.q.x", { values: [1] })] });
    expect(buildMove(Action, through, { "move.q.x": 1 }).error).toBe("move.q.x goes through a number.");
  });
});

describe("a param through a list of messages", () => {
  it("sets the field in every element of the base action (LIMIT's transaction quantity)", () => {
    const one = node("q", { action: bytes({ move: { piece: "p", volleys: [{ target: 4, side: 2 }] } }), params: [param("move.volleys.shots", { min: 1, max: 5 })] });
    const b = buildMove(Action, one, { "move.volleys.shots": 3 });
    expect(b.error).toBeUndefined();
    expect(sent(b.action)).toEqual({ move: { piece: "p", volleys: [{ target: 4, side: 2, shots: 3 }] } });
    expect(buildMove(Action, one, { "move.volleys.shots": 6 }).error).toBe("6 is not allowed for move.volleys.shots: from 1 to 5.");
  });

  it("sets it in the one element an index names, the others kept (LIMIT's second transaction)", () => {
    // As the engine sends it: the first volley set on the step, the second added by the leaf.
    const steps: MoveChoice[] = [
      node("first", {
        action: bytes({ move: { piece: "p", volleys: [{ target: 4, side: 2 }] } }),
        next: [node("second", { action: bytes({ move: { volleys: [{ side: 1 }] } }), params: [param("move.volleys.1.target", { min: 5, max: 7 })] })],
      }),
    ];
    const b = buildMove(Action, moveAt(steps, ["first", "second"]), { "move.volleys.1.target": 7 });
    expect(b.error).toBeUndefined();
    expect(sent(b.action)).toEqual({ move: { piece: "p", volleys: [{ target: 4, side: 2 }, { target: 7, side: 1 }] } });
    const beyond = node("x", { action: bytes({ move: { volleys: [{ side: 1 }] } }), params: [param("move.volleys.1.target", { min: 5, max: 7 })] });
    expect(buildMove(Action, beyond, { "move.volleys.1.target": 5 }).error).toBe("move.volleys.1.target names an element the action lacks.");
  });
});

describe("a target named by its key", () => {
  it("reads a card, a seat or a region from the key (key_target), for clicks and highlights", () => {
    const keyed: MoveChoice[] = [
      node("mafia", { key_target: 1, action: bytes({ pass: true }) }),
      node("2", { key_target: 2, action: bytes({ move: { q: 2 } }) }),
      node("f1", { key_target: 3, action: bytes({ move: { q: 1 } }) }),
    ];
    expect(choicesForTarget(keyed, "card:mafia").map((c) => c.key)).toEqual(["mafia"]);
    expect(choicesForTarget(keyed, { seat: 2 } as Target).map((c) => c.key)).toEqual(["2"]);
    expect([...moveTargets(keyed).cards]).toEqual(["mafia"]);
    expect([...moveTargets(keyed).seats]).toEqual([2]);
    expect([...moveTargets(keyed).regions]).toEqual(["f1"]);
  });
});

describe("Globalissimo's published placement", () => {
  const GAction = type("plateau.games.globalissimo.Action");
  // As the engine publishes it: one family leaf over the free slots and every rank.
  const place = node("place", {
    label: label("globalissimo.move.place"),
    action: encode(GAction, { place: {} }),
    params: [param("place.slot", { values: [0, 2, 3] }), param("place.position", { min: 1, max: 5 })],
  });

  it("builds the placement the player picked, by the game's Action type name", () => {
    const b = buildMove("plateau.games.globalissimo.Action", place, { "place.slot": 2, "place.position": 4 });
    expect(b.error).toBeUndefined();
    const back = GAction.toObject(decode(GAction, encode(GAction, b.action!)));
    expect(back).toEqual({ place: { slot: 2, position: 4 } });
  });

  it("never builds a placement on a taken slot or a rank past the display", () => {
    expect(buildMove(GAction, place, { "place.slot": 1, "place.position": 4 }).error).toBe("1 is not allowed for place.slot: one of 0, 2, 3.");
    expect(buildMove(GAction, place, { "place.slot": 0, "place.position": 6 }).error).toBe("6 is not allowed for place.position: from 1 to 5.");
    expect(buildMove(GAction, place, { "place.slot": 0, "place.position": 0 }).error).toBe("0 is not allowed for place.position: from 1 to 5.");
  });

  it("reads a view decoded from the wire", () => {
    const View = type("plateau.games.globalissimo.View");
    const v = decode<object>(View, encode(View, { table: { moves: [place] } }));
    const [root0] = moveRoots(v);
    expect(root0.key).toBe("place");
    expect(paramValues(paramOf(root0, "place.slot")!)).toEqual([0, 2, 3]);
    expect(paramValues(paramOf(root0, "place.position")!)).toEqual([1, 2, 3, 4, 5]);
    const b = buildMove(GAction, root0, { "place.slot": 3, "place.position": 1 });
    expect(GAction.toObject(decode(GAction, encode(GAction, b.action!)))).toEqual({ place: { slot: 3, position: 1 } });
  });
});

describe("param paths sent once", () => {
  it("gives family leaves the paths their parent names (next_paths), and nothing else", () => {
    const tree: MoveChoice[] = [
      node("card", {
        next_paths: ["move.fire.shots"],
        next: [
          node("none", { action: bytes({ pass: true }) }),
          node("b1", { params: [param("", { min: 1, max: 3 })] }),
          node("b2", { params: [param("", { min: 1, max: 2 })] }),
          node("own", { params: [param("move.q", { min: 0, max: 1 })] }),
        ],
      }),
    ];
    fillParamPaths(tree);
    const [none, b1, b2, own] = tree[0].next;
    expect(none.params).toEqual([]);
    expect(paramOf(b1, "move.fire.shots")?.max).toBe(3);
    expect(paramOf(b2, "move.fire.shots")?.max).toBe(2);
    expect(own.params[0].path).toBe("move.q");
    expect(() => fillParamPaths(null)).not.toThrow();
  });
});
