import { describe, expect, it } from "vitest";
import {
  DIRECTIONS, IDENTITY, axialToOffset, axialToPixel, bounds, clampViewport, distance, edgeCorners, focusKey, hexCorners,
  hexKey, hexRound, keepInView, moveFocus, neighbour, neighbours, offsetToAxial, panBy, parseHexKey, pinchZoom,
  pixelToAxial, pixelToHex, rectangle, regionBorders, toWorld, zoomAt, type FocusState, type Hex,
} from "../src/ui/hex";
import { sameCell, type CellProps } from "../src/ui/HexGrid";

const SIZE = 30;
const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;

describe("axial coordinates", () => {
  it("converts to pixels and back, pointy-top", () => {
    expect(axialToPixel({ q: 0, r: 0 }, SIZE)).toEqual({ x: 0, y: 0 });
    // East is one hex width (sqrt 3 * size) away, the next row 1.5 sizes down and half a hex right.
    const e = axialToPixel({ q: 1, r: 0 }, SIZE);
    expect(close(e.x, Math.sqrt(3) * SIZE) && close(e.y, 0)).toBe(true);
    const se = axialToPixel({ q: 0, r: 1 }, SIZE);
    expect(close(se.x, (Math.sqrt(3) / 2) * SIZE) && close(se.y, 1.5 * SIZE)).toBe(true);
    for (const h of rectangle(20, 10)) {
      const p = axialToPixel(h, SIZE);
      const f = pixelToAxial(p, SIZE);
      expect(close(f.q, h.q) && close(f.r, h.r)).toBe(true);
      expect(pixelToHex(p, SIZE)).toEqual(h);
      // Anywhere well inside the hex rounds to it.
      for (const c of hexCorners(p, SIZE * 0.9)) expect(pixelToHex(c, SIZE)).toEqual(h);
    }
  });

  it("rounds fractional positions to the nearest hex, without -0", () => {
    // Cube (0.4, 0.3, -0.7): q rounded furthest, so it is rebuilt from r and s.
    expect(hexRound({ q: 0.4, r: 0.3 })).toEqual({ q: 1, r: 0 });
    expect(hexRound({ q: 0.3, r: 0.45 })).toEqual({ q: 0, r: 1 });
    expect(hexRound({ q: 0.2, r: 0.2 })).toEqual({ q: 0, r: 0 });
    expect(hexRound({ q: -0.6, r: 0.1 })).toEqual({ q: -1, r: 0 });
    const z = hexRound({ q: -0.1, r: -0.1 });
    expect(Object.is(z.q, -0) || Object.is(z.r, -0)).toBe(false);
    expect(hexKey(z)).toBe("0,0");
  });

  it("has six neighbours at distance one, and hex distances", () => {
    const h = { q: 3, r: -2 };
    const ns = neighbours(h);
    expect(new Set(ns.map(hexKey)).size).toBe(6);
    for (const n of ns) expect(distance(h, n)).toBe(1);
    expect(distance({ q: 0, r: 0 }, { q: 3, r: -3 })).toBe(3);
    expect(distance({ q: 0, r: 0 }, { q: 2, r: 2 })).toBe(4);
    expect(distance({ q: -1, r: 4 }, { q: 2, r: 0 })).toBe(distance({ q: 2, r: 0 }, { q: -1, r: 4 }));
    expect(neighbour(h, 6)).toEqual(neighbour(h, 0));
    expect(neighbour(h, -1)).toEqual(neighbour(h, 5));
  });

  it("keys hexes and reads the keys back", () => {
    expect(hexKey({ q: -3, r: 12 })).toBe("-3,12");
    expect(parseHexKey("-3,12")).toEqual({ q: -3, r: 12 });
    expect(parseHexKey("a,b")).toBeNull();
  });

  it("draws a shared edge with the same two corners from both sides", () => {
    const h = { q: 1, r: 1 };
    const mine = hexCorners(axialToPixel(h, SIZE), SIZE);
    for (let d = 0; d < 6; d++) {
      const n = neighbour(h, d);
      const theirs = hexCorners(axialToPixel(n, SIZE), SIZE);
      const [a, b] = edgeCorners(d);
      const [c, e] = edgeCorners(d + 3);
      const same = (p: { x: number; y: number }, q: { x: number; y: number }) => Math.hypot(p.x - q.x, p.y - q.y) < 1e-6;
      expect(same(mine[a], theirs[e]) && same(mine[b], theirs[c]), `direction ${d}`).toBe(true);
    }
  });
});

describe("rectangular maps", () => {
  it("converts offset (odd-r) to axial and back", () => {
    for (let row = -3; row < 12; row++) {
      for (let col = -2; col < 22; col++) expect(axialToOffset(offsetToAxial({ col, row }))).toEqual({ col, row });
    }
    expect(offsetToAxial({ col: 0, row: 2 })).toEqual({ q: -1, r: 2 });
    expect(offsetToAxial({ col: 0, row: 1 })).toEqual({ q: 0, r: 1 });
  });

  it("lays a 20 × 10 map out row by row as a rectangle", () => {
    const map = rectangle(20, 10);
    expect(map).toHaveLength(200);
    expect(new Set(map.map(hexKey)).size).toBe(200);
    expect(map[0]).toEqual({ q: 0, r: 0 });
    expect(map[19]).toEqual({ q: 19, r: 0 });
    expect(map[20]).toEqual({ q: 0, r: 1 });
    // Every row starts at the same x, give or take the half-hex shove of odd rows.
    const xs = [0, 20, 40, 60].map((i) => axialToPixel(map[i], SIZE).x);
    expect(close(xs[0], xs[2])).toBe(true);
    expect(close(xs[1] - xs[0], (Math.sqrt(3) / 2) * SIZE)).toBe(true);
    const b = bounds(map, SIZE);
    const w = Math.sqrt(3) * SIZE;
    expect(close(b.maxX - b.minX, 20 * w + w / 2)).toBe(true);
    expect(close(b.maxY - b.minY, 9 * 1.5 * SIZE + 2 * SIZE)).toBe(true);
  });
});

describe("regions", () => {
  it("finds the edges between regions and at the map's edge", () => {
    const map = rectangle(4, 1);
    const region = (h: Hex) => (h.q < 2 ? "west" : "east");
    const b = regionBorders(map, region);
    // (1,0) touches (2,0) to the east: a border; inner edge (0,0)-(1,0) is not.
    expect(b.get("1,0")).toContain(0);
    expect(b.get("0,0")).not.toContain(0);
    expect(b.get("2,0")).toContain(3);
    // One row: every hex borders the map above and below.
    for (const k of ["0,0", "1,0", "2,0", "3,0"]) for (const d of [1, 2, 4, 5]) expect(b.get(k)).toContain(d);
    // Hexes without a region draw none.
    expect(regionBorders(map, () => undefined).size).toBe(0);
  });
});

describe("pan and zoom", () => {
  const limits = { minZoom: 0.5, maxZoom: 4 };

  it("zooms about a point, which stays in place, and clamps the zoom", () => {
    const at = { x: 100, y: 40 };
    const v = zoomAt(IDENTITY, 2, at, limits);
    expect(v.k).toBe(2);
    const world = toWorld(IDENTITY, at);
    expect(toWorld(v, at)).toEqual(world);
    expect(zoomAt(v, 10, at, limits).k).toBe(4);
    expect(zoomAt(IDENTITY, 0.01, at, limits).k).toBe(0.5);
  });

  it("pinches: fingers moving apart zoom in, about their midpoint", () => {
    const v = pinchZoom(IDENTITY, [{ x: 90, y: 0 }, { x: 110, y: 0 }], [{ x: 80, y: 0 }, { x: 120, y: 0 }], limits);
    expect(v.k).toBe(2);
    expect(toWorld(v, { x: 100, y: 0 })).toEqual({ x: 100, y: 0 });
    // Both fingers sliding: a pan.
    const p = pinchZoom(IDENTITY, [{ x: 0, y: 0 }, { x: 10, y: 0 }], [{ x: 5, y: 7 }, { x: 15, y: 7 }], limits);
    expect(p).toEqual({ k: 1, x: 5, y: 7 });
  });

  it("keeps a part of the map in the frame however far it is dragged", () => {
    const map = { minX: 0, minY: 0, maxX: 1000, maxY: 500 };
    const far = clampViewport(panBy(IDENTITY, 5000, -5000), map, map);
    expect(far.x).toBeLessThan(1000);
    expect(far.y).toBeGreaterThan(-500);
    // Some of the map is still drawn in the frame.
    expect(far.x + 0).toBeLessThanOrEqual(1000 - 250);
    expect(clampViewport(panBy(IDENTITY, 10, 10), map, map)).toEqual({ k: 1, x: 10, y: 10 });
  });

  it("pans just enough to bring a focused hex into view", () => {
    const frame = { minX: 0, minY: 0, maxX: 100, maxY: 100 };
    expect(keepInView(IDENTITY, { x: 50, y: 50 }, frame, 10)).toBe(IDENTITY);
    expect(keepInView(IDENTITY, { x: 150, y: 50 }, frame, 10)).toEqual({ k: 1, x: -60, y: 0 });
    expect(keepInView({ k: 2, x: 0, y: 0 }, { x: -5, y: 60 }, frame, 10)).toEqual({ k: 2, x: 20, y: -30 });
  });
});

describe("keyboard focus", () => {
  const map = rectangle(20, 10);
  const keys = map.map(hexKey);
  const at = (col: number, row: number) => hexKey(offsetToAxial({ col, row }));
  const press = (s: FocusState, ...seq: string[]) => {
    let st = s;
    let selected: Hex | undefined;
    for (const k of seq) {
      const r = focusKey(st, k, keys);
      st = r.state;
      if (r.select) selected = r.select;
    }
    return { st, selected };
  };

  it("focuses the start hex on the first key, then moves with the arrows", () => {
    expect(focusKey({ focus: null }, "ArrowRight", keys, at(3, 3)).state.focus).toBe(at(3, 3));
    expect(focusKey({ focus: null }, "ArrowRight", keys).state.focus).toBe(at(0, 0));
    expect(press({ focus: at(0, 0) }, "ArrowRight", "ArrowRight").st.focus).toBe(at(2, 0));
    expect(press({ focus: at(5, 4) }, "ArrowDown").st.focus).toBe(at(5, 5));
    expect(press({ focus: at(5, 5) }, "ArrowUp", "ArrowUp").st.focus).toBe(at(5, 3));
    expect(press({ focus: at(5, 5) }, "ArrowLeft").st.focus).toBe(at(4, 5));
  });

  it("stays at the map's edges but keeps the key (the page must not scroll)", () => {
    const r = focusKey({ focus: at(0, 0) }, "ArrowUp", keys);
    expect(r).toEqual({ state: { focus: at(0, 0) }, handled: true });
    expect(focusKey({ focus: at(19, 9) }, "ArrowRight", keys).state.focus).toBe(at(19, 9));
    expect(focusKey({ focus: at(19, 9) }, "ArrowDown", keys).state.focus).toBe(at(19, 9));
  });

  it("selects the focused hex with Enter or Space", () => {
    expect(press({ focus: at(2, 1) }, "ArrowRight", "Enter").selected).toEqual(offsetToAxial({ col: 3, row: 1 }));
    expect(press({ focus: at(2, 1) }, " ").selected).toEqual(offsetToAxial({ col: 2, row: 1 }));
    // Before any focus, Enter only focuses.
    const first = focusKey({ focus: null }, "Enter", keys);
    expect(first.select).toBeUndefined();
    expect(first.state.focus).toBe(at(0, 0));
  });

  it("jumps with Home and End, and leaves other keys alone", () => {
    expect(focusKey({ focus: at(4, 4) }, "Home", keys).state.focus).toBe(at(0, 0));
    expect(focusKey({ focus: at(4, 4) }, "End", keys).state.focus).toBe(at(19, 9));
    expect(focusKey({ focus: at(4, 4) }, "a", keys).handled).toBe(false);
    expect(focusKey({ focus: null }, "ArrowLeft", []).handled).toBe(false);
  });

  it("skips holes of a region map, and moves diagonally when straight up is off the map", () => {
    const has = (set: Set<string>) => (h: Hex) => set.has(hexKey(h));
    const holed = new Set(["0,0", "3,0"]);
    expect(moveFocus({ q: 0, r: 0 }, "ArrowRight", has(holed))).toEqual({ q: 3, r: 0 });
    expect(moveFocus({ q: 0, r: 0 }, "ArrowLeft", has(holed))).toBeNull();
    // (0,1) straight up (odd-r) is (0,0), missing: its other upper neighbour (1,0) is taken.
    const diag = new Set(["0,1", "1,0"]);
    expect(moveFocus({ q: 0, r: 1 }, "ArrowUp", has(diag))).toEqual({ q: 1, r: 0 });
    expect(DIRECTIONS).toHaveLength(6);
  });
});

describe("hex cells are memoised", () => {
  const fns = { current: {} };
  const base: CellProps = { data: { terrain: "forest" }, q: 1, r: 2, size: 30, highlighted: false, borders: "", renderKey: 0, fns };

  it("skip a render only when data, place, highlight, borders and renderKey are the same", () => {
    expect(sameCell(base, { ...base })).toBe(true);
    // Fresh render props every parent render do not count: they are read through the ref.
    expect(sameCell(base, { ...base, fns: { current: { fill: () => "red" } } })).toBe(true);
    expect(sameCell(base, { ...base, data: { terrain: "forest" } })).toBe(false);
    expect(sameCell(base, { ...base, highlighted: true })).toBe(false);
    expect(sameCell(base, { ...base, borders: "0" })).toBe(false);
    expect(sameCell(base, { ...base, renderKey: 1 })).toBe(false);
    expect(sameCell(base, { ...base, q: 2 })).toBe(false);
  });
});
