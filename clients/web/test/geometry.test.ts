// The web client's hex and region geometry against the shared vectors the engine wrote
// (tests/geometry/vectors.json, checked on the C++ side by core_test): the board and the engine
// must never disagree on a hex.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DIRECTIONS, HexMap, axialToOffset, connectedAreas, distance, fromCube, line, lineOfSight, neighbour, neighbours,
  offsetToAxial, reachable, rectangle, ring, roundCube, shortestPath, toCube, withinRange, hexKey,
  type Hex, type LineSide, type MoveRules,
} from "../src/ui/hex";
import { RegionGraph } from "../src/ui/region_graph";

type Pair = [number, number];
interface Case {
  fn: string;
  in: any;
  out: unknown;
}

const file = JSON.parse(readFileSync(new URL("../../../tests/geometry/vectors.json", import.meta.url), "utf8")) as {
  cases: Case[];
};

const hex = (p: Pair): Hex => ({ q: p[0], r: p[1] });
const hexes = (ps: Pair[]): Hex[] => ps.map(hex);
const pair = (h: Hex): Pair => [h.q, h.r];
const pairs = (hs: readonly Hex[]): Pair[] => hs.map(pair);

function toMap(m: { rectangle?: Pair; hexes?: Pair[] }): HexMap {
  return m.rectangle ? HexMap.rectangle(m.rectangle[0], m.rectangle[1]) : HexMap.fromHexes(hexes(m.hexes ?? []));
}

function toRules(r: { costs?: [number, number, number][]; default_cost?: number; blocked?: Pair[]; pass_only?: Pair[] }): MoveRules {
  return {
    entryCost: new Map((r.costs ?? []).map(([q, rr, c]) => [hexKey({ q, r: rr }), c] as [string, number])),
    defaultCost: r.default_cost,
    blocked: hexes(r.blocked ?? []),
    passOnly: hexes(r.pass_only ?? []),
  };
}

function regionGraph(i: { regions: string[]; edges: [string, string][]; steps: number }): unknown {
  let g: RegionGraph;
  try {
    g = RegionGraph.build(i.regions, i.edges);
  } catch (e) {
    return { error: (e as Error).message };
  }
  const all = [...Array(g.size).keys()];
  const names = (rs: readonly number[]) => rs.map((r) => g.id(r));
  return {
    neighbours: all.map((a) => names(g.neighbours(a))),
    adjacent: all.map((a) => all.map((b) => g.adjacent(a, b))),
    distances: all.map((a) => g.distances(a)),
    paths: all.map((a) => all.map((b) => names(g.shortestPath(a, b)))),
    within: all.map((a) => names(g.withinSteps(a, i.steps))),
    components: g.components().map(names),
    find_unknown: g.find("no such region"),
  };
}

/** What the web client answers for a case, in the file's shape ([q, r] for a hex). */
function evaluate(fn: string, i: any): unknown {
  switch (fn) {
    case "directions": return pairs(DIRECTIONS);
    case "neighbour": return pair(neighbour(hex(i.hex), i.direction));
    case "neighbours": return pairs(neighbours(hex(i.hex)));
    case "distance": return distance(hex(i.a), hex(i.b));
    case "to_cube": {
      const c = toCube(hex(i.hex));
      return [c.q, c.r, c.s];
    }
    case "from_cube": {
      const h = fromCube({ q: i.cube[0], r: i.cube[1], s: i.cube[2] });
      return h ? pair(h) : null;
    }
    case "round_cube": return pair(roundCube(i.q, i.r, i.s));
    case "line": return pairs(line(hex(i.a), hex(i.b), i.side as LineSide));
    case "within_range": return pairs(withinRange(hex(i.center), i.n));
    case "ring": return pairs(ring(hex(i.center), i.radius));
    case "offset": {
      const h = offsetToAxial({ col: i.offset[0], row: i.offset[1] });
      const back = axialToOffset(h);
      return { hex: pair(h), back: [back.col, back.row] };
    }
    case "rectangle": return pairs(HexMap.rectangle(i.width, i.height).hexes);
    case "map_contains": {
      const map = toMap(i.map);
      return { hexes: pairs(map.hexes), contains: hexes(i.probes).map((h) => map.contains(h)) };
    }
    case "line_of_sight": return lineOfSight(hex(i.from), hex(i.to), hexes(i.blocking));
    case "shortest_path": {
      const p = shortestPath(toMap(i.map), toRules(i.rules), hex(i.from), hex(i.to));
      return { found: p.found, cost: p.cost, hexes: pairs(p.hexes) };
    }
    case "reachable":
      return reachable(toMap(i.map), toRules(i.rules), hex(i.from), i.budget).map((r) => [r.hex.q, r.hex.r, r.cost]);
    case "connected_areas": return connectedAreas(hexes(i.hexes)).map(pairs);
    case "region_graph": return regionGraph(i);
    default: throw new Error(`no such function in the web client: ${fn}`);
  }
}

describe("shared geometry vectors", () => {
  it("cover every function, in both sides of a tie", () => {
    const fns = new Set(file.cases.map((c) => c.fn));
    for (const fn of ["directions", "neighbour", "neighbours", "distance", "to_cube", "from_cube", "round_cube", "line",
      "within_range", "ring", "offset", "rectangle", "map_contains", "line_of_sight", "shortest_path", "reachable",
      "connected_areas", "region_graph"]) {
      expect(fns.has(fn), fn).toBe(true);
    }
    const sides = file.cases.filter((c) => c.fn === "line").map((c) => c.in.side);
    expect(new Set(sides)).toEqual(new Set(["positive", "negative"]));
  });

  file.cases.forEach((c, n) => {
    it(`case ${n + 1}: ${c.fn} ${JSON.stringify(c.in)}`, () => {
      // Through JSON, as the file was: -0 and 0 are one number there.
      expect(JSON.parse(JSON.stringify(evaluate(c.fn, c.in)))).toEqual(c.out);
    });
  });
});

describe("web-only helpers agree with the mirror", () => {
  it("a rectangle's hexes are the map's, in reading order", () => {
    const rows = rectangle(5, 4);
    expect(HexMap.rectangle(5, 4).hexes).toEqual([...rows].sort((a, b) => a.q - b.q || a.r - b.r));
  });

  it("a negative entry cost is refused, as the engine aborts on it", () => {
    const rules: MoveRules = { entryCost: new Map([["1,0", -1]]) };
    expect(() => shortestPath(HexMap.rectangle(3, 3), rules, { q: 0, r: 0 }, { q: 2, r: 0 })).toThrow("negative entry cost");
  });

  it("a region graph refuses an index it does not have", () => {
    const g = RegionGraph.build(["a", "b"], [["a", "b"]]);
    expect(() => g.neighbours(2)).toThrow("no region 2");
    expect(g.find("b")).toBe(1);
  });
});
