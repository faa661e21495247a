// Hex-grid math for pointy-top hexes in axial coordinates (q, r), as plateau.v1.Hex sends them:
// the mirror of the engine's engine/core/hex.h (same names, same results on the shared vectors in
// tests/geometry/vectors.json; conventions in docs/geometry.md), the odd-r offset layout for
// rectangular maps, and the pure parts of HexGrid: pixels, pan/zoom clamping and keyboard focus
// moves. No DOM here: unit-tested.
import type { Hex } from "../table";

export type { Hex };

export interface Point {
  x: number;
  y: number;
}

const SQRT3 = Math.sqrt(3);

/** A hex's key in sets and maps: "q,r". */
export function hexKey(h: Hex): string {
  return `${h.q},${h.r}`;
}

export function parseHexKey(key: string): Hex | null {
  const m = /^(-?\d+),(-?\d+)$/.exec(key);
  return m ? { q: Number(m[1]), r: Number(m[2]) } : null;
}

export function sameHex(a: Hex | null | undefined, b: Hex | null | undefined): boolean {
  return !!a && !!b && a.q === b.q && a.r === b.r;
}

/** The centre of a hex of circumradius `size` (corner to centre), the origin hex at (0, 0). */
export function axialToPixel(h: Hex, size: number): Point {
  return { x: size * SQRT3 * (h.q + h.r / 2), y: size * 1.5 * h.r };
}

/** The fractional axial coordinates of a point (see hexRound). */
export function pixelToAxial(p: Point, size: number): { q: number; r: number } {
  const q = ((SQRT3 / 3) * p.x - p.y / 3) / size;
  const r = ((2 / 3) * p.y) / size;
  return { q, r };
}

/** Half away from zero, like C++'s std::round (Math.round takes -0.5 to -0, not -1). */
function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/**
 * The hex a fractional cube position falls in: each coordinate rounded half away from zero, then
 * the one that moved most rebuilt from the other two (q first, then r, then s on equal moves).
 */
export function roundCube(fq: number, fr: number, fs: number): Hex {
  let q = roundHalfAway(fq);
  let r = roundHalfAway(fr);
  const s = roundHalfAway(fs);
  const dq = Math.abs(q - fq);
  const dr = Math.abs(r - fr);
  const ds = Math.abs(s - fs);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  // +0 turns a -0 into 0, so keys and equality do not see two zeros.
  return { q: q + 0, r: r + 0 };
}

/** The hex a fractional axial position falls in (cube rounding). */
export function hexRound(f: { q: number; r: number }): Hex {
  return roundCube(f.q, f.r, -f.q - f.r);
}

/** The hex under a point. */
export function pixelToHex(p: Point, size: number): Hex {
  return hexRound(pixelToAxial(p, size));
}

/** Hexes order by q, then r (the engine's operator<=>): every list below comes out that way. */
export function compareHex(a: Hex, b: Hex): number {
  return a.q - b.q || a.r - b.r;
}

export interface Cube {
  q: number;
  r: number;
  s: number;
}

export function toCube(h: Hex): Cube {
  return { q: h.q, r: h.r, s: -h.q - h.r + 0 };
}

/** Null when the three do not add up to zero. */
export function fromCube(c: Cube): Hex | null {
  return c.q + c.r + c.s === 0 ? { q: c.q, r: c.r } : null;
}

/** Direction indices, clockwise from east as drawn (r grows downwards). */
export const Direction = { EAST: 0, SOUTH_EAST: 1, SOUTH_WEST: 2, WEST: 3, NORTH_WEST: 4, NORTH_EAST: 5 } as const;

/** The six directions, clockwise from east (pointy-top); edge d is drawn by edgeCorners(d). */
export const DIRECTIONS: readonly Hex[] = [
  { q: 1, r: 0 }, { q: 0, r: 1 }, { q: -1, r: 1 }, { q: -1, r: 0 }, { q: 0, r: -1 }, { q: 1, r: -1 },
];

/** `direction` is taken modulo 6 (-1 is north-east). */
export function neighbour(h: Hex, direction: number): Hex {
  const d = DIRECTIONS[((direction % 6) + 6) % 6];
  return { q: h.q + d.q, r: h.r + d.r };
}

/** In direction order. */
export function neighbours(h: Hex): Hex[] {
  return DIRECTIONS.map((d) => ({ q: h.q + d.q, r: h.r + d.r }));
}

/** Steps between two hexes. */
export function distance(a: Hex, b: Hex): number {
  const dq = a.q - b.q;
  const dr = a.r - b.r;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}

/**
 * Which way a line leans where it runs exactly along an edge: both ends are nudged by
 * (+1, +2, -3) × LINE_NUDGE in cube coordinates ("positive") or by its opposite ("negative").
 */
export type LineSide = "positive" | "negative";
export const LINE_NUDGE = 1e-6;

/** The distance(a, b) + 1 hexes from a to b, one per step (the engine's Line). */
export function line(a: Hex, b: Hex, side: LineSide = "positive"): Hex[] {
  const n = distance(a, b);
  if (n === 0) return [{ q: a.q, r: a.r }];
  const k = side === "positive" ? LINE_NUDGE : -LINE_NUDGE;
  // The same operations in the same order as the engine, so the doubles match bit for bit.
  const aq = a.q + 1 * k, ar = a.r + 2 * k, as = (-a.q - a.r) - 3 * k;
  const bq = b.q + 1 * k, br = b.r + 2 * k, bs = (-b.q - b.r) - 3 * k;
  const out: Hex[] = [];
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    out.push(roundCube(aq + (bq - aq) * t, ar + (br - ar) * t, as + (bs - as) * t));
  }
  return out;
}

/** Every hex at most n steps from center (none when n < 0), ordered by q then r. */
export function withinRange(center: Hex, n: number): Hex[] {
  const out: Hex[] = [];
  for (let dq = -n; dq <= n; dq++) {
    for (let dr = Math.max(-n, -dq - n); dr <= Math.min(n, -dq + n); dr++) {
      out.push({ q: center.q + dq, r: center.r + dr });
    }
  }
  return out;
}

/** The hexes exactly `radius` steps away, from `radius` steps east, clockwise (south-west first). */
export function ring(center: Hex, radius: number): Hex[] {
  if (radius < 0) return [];
  if (radius === 0) return [{ q: center.q, r: center.r }];
  const out: Hex[] = [];
  let h: Hex = { q: center.q + radius, r: center.r };
  for (let side = 0; side < 6; side++) {
    for (let step = 0; step < radius; step++) {
      out.push(h);
      h = neighbour(h, Direction.SOUTH_WEST + side);
    }
  }
  return out;
}

/** The hexes a board has, ordered by q then r; duplicates count once. */
export class HexMap {
  readonly hexes: readonly Hex[];
  private readonly keys: ReadonlySet<string>;

  private constructor(hexes: Hex[]) {
    const keys = new Set<string>();
    const unique: Hex[] = [];
    for (const h of hexes) {
      const k = hexKey(h);
      if (!keys.has(k)) {
        keys.add(k);
        unique.push({ q: h.q, r: h.r });
      }
    }
    this.hexes = unique.sort(compareHex);
    this.keys = keys;
  }

  static fromHexes(hexes: readonly Hex[]): HexMap {
    return new HexMap([...hexes]);
  }

  /** width × height in the odd-r offset layout. */
  static rectangle(width: number, height: number): HexMap {
    return new HexMap(rectangle(width, height));
  }

  contains(h: Hex): boolean {
    return this.keys.has(hexKey(h));
  }

  get size(): number {
    return this.hexes.length;
  }
}

function keySet(hexes: Iterable<Hex> | undefined): Set<string> {
  const out = new Set<string>();
  if (hexes) for (const h of hexes) out.add(hexKey(h));
  return out;
}

function clearBetween(hexes: Hex[], blocking: Set<string>): boolean {
  for (let i = 1; i + 1 < hexes.length; i++) if (blocking.has(hexKey(hexes[i]))) return false;
  return true;
}

/**
 * Whether `to` can be seen from `from` past `blocking` hexes: the ends never block, and a line
 * running exactly along an edge goes through when either side of it is clear (the engine's rule).
 */
export function lineOfSight(from: Hex, to: Hex, blocking: Iterable<Hex>): boolean {
  const set = keySet(blocking);
  return clearBetween(line(from, to, "positive"), set) || clearBetween(line(from, to, "negative"), set);
}

/**
 * What moving costs for one kind of piece (the engine's MoveRules): entering a hex costs
 * entryCost.get(hexKey(hex)) when listed, else defaultCost (1); blocked hexes cannot be entered;
 * passOnly hexes can be crossed but not stopped on.
 */
export interface MoveRules {
  entryCost?: ReadonlyMap<string, number>;
  defaultCost?: number;
  blocked?: Iterable<Hex>;
  passOnly?: Iterable<Hex>;
}

export interface HexPath {
  found: boolean;
  cost: number;
  hexes: Hex[];
}

export interface Reach {
  hex: Hex;
  cost: number;
}

interface Settled {
  cost: number;
  steps: number;
  from: Hex;
}

type Key = [cost: number, steps: number, q: number, r: number];

function lessKey(a: Key, b: Key): boolean {
  for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/** A binary min-heap of keys: pops in the engine's (cost, steps, q, r) order. */
class KeyHeap {
  private items: Key[] = [];
  get size(): number {
    return this.items.length;
  }
  push(k: Key): void {
    const a = this.items;
    a.push(k);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!lessKey(a[i], a[p])) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }
  pop(): Key {
    const a = this.items;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && lessKey(a[l], a[m])) m = l;
        if (r < a.length && lessKey(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}

function costOf(rules: MoveRules, h: Hex): number {
  const c = rules.entryCost?.get(hexKey(h)) ?? rules.defaultCost ?? 1;
  if (c < 0) throw new Error(`negative entry cost ${c} at ${hexKey(h)}`);
  return c;
}

/** The engine's Dijkstra: settled in (cost, steps, q, r) order, neighbours in direction order. */
function explore(map: HexMap, rules: MoveRules, from: Hex, to: Hex | null, budget: number | null): Map<string, Settled> {
  const settled = new Map<string, Settled>();
  if (!map.contains(from)) return settled;
  const blocked = keySet(rules.blocked);
  const best = new Map<string, Settled>([[hexKey(from), { cost: 0, steps: 0, from }]]);
  const open = new KeyHeap();
  open.push([0, 0, from.q, from.r]);
  while (open.size) {
    const [cost, steps, q, r] = open.pop();
    const h = { q, r };
    const key = hexKey(h);
    const b = best.get(key)!;
    if (b.cost !== cost || b.steps !== steps || settled.has(key)) continue;
    settled.set(key, b);
    if (to && sameHex(h, to)) break;
    for (const n of neighbours(h)) {
      const nk = hexKey(n);
      if (!map.contains(n) || blocked.has(nk) || settled.has(nk)) continue;
      const c = cost + costOf(rules, n);
      if (budget !== null && c > budget) continue;
      const old = best.get(nk);
      if (!old || c < old.cost || (c === old.cost && steps + 1 < old.steps)) {
        best.set(nk, { cost: c, steps: steps + 1, from: h });
        open.push([c, steps + 1, n.q, n.r]);
      }
    }
  }
  return settled;
}

/** The cheapest way from `from` to `to` (the engine's ShortestPath, same tie-breaking). */
export function shortestPath(map: HexMap, rules: MoveRules, from: Hex, to: Hex): HexPath {
  const none: HexPath = { found: false, cost: 0, hexes: [] };
  if (!map.contains(from) || !map.contains(to)) return none;
  if (!sameHex(from, to) && (keySet(rules.blocked).has(hexKey(to)) || keySet(rules.passOnly).has(hexKey(to)))) {
    return none;
  }
  const settled = explore(map, rules, from, to, null);
  const end = settled.get(hexKey(to));
  if (!end) return none;
  const hexes: Hex[] = [];
  for (let h = to; ; h = settled.get(hexKey(h))!.from) {
    hexes.push({ q: h.q, r: h.r });
    if (sameHex(h, from)) break;
  }
  return { found: true, cost: end.cost, hexes: hexes.reverse() };
}

/** Every hex a piece at `from` can stop on for at most `budget`, ordered by q then r. */
export function reachable(map: HexMap, rules: MoveRules, from: Hex, budget: number): Reach[] {
  if (budget < 0) return [];
  const passOnly = keySet(rules.passOnly);
  const out: Reach[] = [];
  for (const [key, s] of explore(map, rules, from, null, budget)) {
    const hex = parseHexKey(key)!;
    if (!sameHex(hex, from) && passOnly.has(key)) continue;
    out.push({ hex, cost: s.cost });
  }
  return out.sort((a, b) => compareHex(a.hex, b.hex));
}

/** The groups of `hexes` that touch each other, each ordered, ordered by their first hex. */
export function connectedAreas(hexes: readonly Hex[]): Hex[][] {
  const all = HexMap.fromHexes(hexes);
  const seen = new Set<string>();
  const areas: Hex[][] = [];
  for (const start of all.hexes) {
    if (seen.has(hexKey(start))) continue;
    const area: Hex[] = [start];
    seen.add(hexKey(start));
    for (let i = 0; i < area.length; i++) {
      for (const n of neighbours(area[i])) {
        if (all.contains(n) && !seen.has(hexKey(n))) {
          seen.add(hexKey(n));
          area.push(n);
        }
      }
    }
    areas.push(area.sort(compareHex));
  }
  return areas;
}

/** The six corners of a hex, clockwise from the top one. */
export function hexCorners(center: Point, size: number): Point[] {
  const out: Point[] = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 90);
    out.push({ x: center.x + size * Math.cos(a), y: center.y + size * Math.sin(a) });
  }
  return out;
}

/** The `points` attribute of an SVG polygon for a hex. */
export function hexPolygon(h: Hex, size: number): string {
  return hexCorners(axialToPixel(h, size), size).map((p) => `${round2(p.x)},${round2(p.y)}`).join(" ");
}

function round2(n: number): number {
  return Math.round(n * 100) / 100 + 0;
}

/**
 * The corner indices (see hexCorners) of the edge a hex shares with its neighbour in
 * `direction` (see DIRECTIONS).
 */
export function edgeCorners(direction: number): [number, number] {
  const d = ((direction % 6) + 6) % 6;
  // East is between corners 1 and 2, south-east between 2 and 3, and so on clockwise.
  return [(d + 1) % 6, (d + 2) % 6];
}

// ----- rectangular maps (odd-r offset layout) -----

export interface Offset {
  col: number;
  row: number;
}

export function offsetToAxial(o: Offset): Hex {
  return { q: o.col - (o.row - (o.row & 1)) / 2, r: o.row };
}

export function axialToOffset(h: Hex): Offset {
  return { col: h.q + (h.r - (h.r & 1)) / 2, row: h.r };
}

/** The hexes of a width × height map, row by row (a 20 × 10 map is rectangle(20, 10)). */
export function rectangle(width: number, height: number): Hex[] {
  const out: Hex[] = [];
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) out.push(offsetToAxial({ col, row }));
  }
  return out;
}

export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** The box the hexes cover (with their corners), padded by `pad`. */
export function bounds(hexes: readonly Hex[], size: number, pad = 0): Bounds {
  if (!hexes.length) return { minX: -pad, minY: -pad, maxX: pad, maxY: pad };
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const hw = (SQRT3 / 2) * size;
  for (const h of hexes) {
    const c = axialToPixel(h, size);
    minX = Math.min(minX, c.x - hw);
    maxX = Math.max(maxX, c.x + hw);
    minY = Math.min(minY, c.y - size);
    maxY = Math.max(maxY, c.y + size);
  }
  return { minX: minX - pad, minY: minY - pad, maxX: maxX + pad, maxY: maxY + pad };
}

// ----- regions -----

/**
 * For region maps: the edges of each hex that border another region or the map's edge, as
 * direction indices. `regionOf` gives a hex's region ("" or undefined: no region).
 */
export function regionBorders(hexes: readonly Hex[], regionOf: (h: Hex) => string | undefined): Map<string, number[]> {
  const region = new Map<string, string>();
  for (const h of hexes) region.set(hexKey(h), regionOf(h) ?? "");
  const out = new Map<string, number[]>();
  for (const h of hexes) {
    const mine = region.get(hexKey(h)) ?? "";
    if (!mine) continue;
    const edges: number[] = [];
    for (let d = 0; d < 6; d++) {
      if (region.get(hexKey(neighbour(h, d))) !== mine) edges.push(d);
    }
    if (edges.length) out.set(hexKey(h), edges);
  }
  return out;
}

// ----- pan and zoom -----

/** A view of the map: world point p is drawn at (p.x * k + x, p.y * k + y). */
export interface Viewport {
  x: number;
  y: number;
  k: number;
}

export const IDENTITY: Viewport = { x: 0, y: 0, k: 1 };

export interface ZoomLimits {
  minZoom: number;
  maxZoom: number;
}

export function clampZoom(k: number, limits: ZoomLimits): number {
  return Math.max(limits.minZoom, Math.min(limits.maxZoom, k));
}

/** Zooms by `factor` keeping the drawn point `at` (in screen units of the view box) in place. */
export function zoomAt(v: Viewport, factor: number, at: Point, limits: ZoomLimits): Viewport {
  const k = clampZoom(v.k * factor, limits);
  const f = k / v.k;
  return { k, x: at.x - (at.x - v.x) * f, y: at.y - (at.y - v.y) * f };
}

export function panBy(v: Viewport, dx: number, dy: number): Viewport {
  return { ...v, x: v.x + dx, y: v.y + dy };
}

/**
 * Keeps the map from being dragged out of sight: at least `keep` (a share of the frame, 0..1) of
 * the frame stays covered by the map, or the map stays whole in the frame when smaller.
 */
export function clampViewport(v: Viewport, map: Bounds, frame: Bounds, keep = 0.25): Viewport {
  const clampAxis = (t: number, lo: number, hi: number, flo: number, fhi: number) => {
    const size = (hi - lo) * v.k;
    const span = fhi - flo;
    const margin = Math.min(size, span) * keep;
    // Drawn extent: [lo * k + t, hi * k + t] must overlap [flo, fhi] by `margin`.
    const min = flo + margin - hi * v.k;
    const max = fhi - margin - lo * v.k;
    return Math.max(min, Math.min(max, t));
  };
  return {
    k: v.k,
    x: clampAxis(v.x, map.minX, map.maxX, frame.minX, frame.maxX),
    y: clampAxis(v.y, map.minY, map.maxY, frame.minY, frame.maxY),
  };
}

/** Where a drawn point lies in world coordinates. */
export function toWorld(v: Viewport, p: Point): Point {
  return { x: (p.x - v.x) / v.k, y: (p.y - v.y) / v.k };
}

/** Pans the least needed for a world point to be at least `margin` inside the frame. */
export function keepInView(v: Viewport, p: Point, frame: Bounds, margin: number): Viewport {
  const sx = p.x * v.k + v.x;
  const sy = p.y * v.k + v.y;
  let dx = 0, dy = 0;
  if (sx < frame.minX + margin) dx = frame.minX + margin - sx;
  else if (sx > frame.maxX - margin) dx = frame.maxX - margin - sx;
  if (sy < frame.minY + margin) dy = frame.minY + margin - sy;
  else if (sy > frame.maxY - margin) dy = frame.maxY - margin - sy;
  return dx || dy ? panBy(v, dx, dy) : v;
}

// ----- keyboard -----

export type GridKey = "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown" | "Home" | "End" | "Enter" | " ";

/**
 * The hex the focus moves to for an arrow key, or null when it cannot move. Left/right stay on the
 * row; up/down go to the row above/below at the same column of the offset layout (the hex drawn
 * closest above/below), then to the other of the two hexes touching that side. On a region map
 * with holes, a move skips over hexes that are not on the map, up to `reach` steps.
 */
export function moveFocus(from: Hex, key: string, has: (h: Hex) => boolean, reach = 8): Hex | null {
  const tryPath = (step: (h: Hex) => Hex): Hex | null => {
    let h = from;
    for (let i = 0; i < reach; i++) {
      h = step(h);
      if (has(h)) return h;
    }
    return null;
  };
  const vertical = (dr: number) => (h: Hex) => {
    const o = axialToOffset(h);
    return offsetToAxial({ col: o.col, row: o.row + dr });
  };
  switch (key) {
    case "ArrowLeft": return tryPath((h) => neighbour(h, 3));
    case "ArrowRight": return tryPath((h) => neighbour(h, 0));
    case "ArrowUp": {
      const straight = vertical(-1)(from);
      if (has(straight)) return straight;
      for (const d of [4, 5]) if (has(neighbour(from, d))) return neighbour(from, d);
      return tryPath(vertical(-1));
    }
    case "ArrowDown": {
      const straight = vertical(1)(from);
      if (has(straight)) return straight;
      for (const d of [2, 1]) if (has(neighbour(from, d))) return neighbour(from, d);
      return tryPath(vertical(1));
    }
    default: return null;
  }
}

export interface FocusState {
  /** The focused hex's key, or null before the first key. */
  focus: string | null;
}

export type FocusResult = { state: FocusState; select?: Hex; handled: boolean };

/**
 * The grid's keyboard reducer: arrows move the focus among `keys` (the map's hex keys, in reading
 * order), Home/End jump to the first/last hex, Enter or Space selects the focused hex. The first
 * arrow press focuses `start` (the first highlighted hex, say) or the first hex.
 */
export function focusKey(state: FocusState, key: string, keys: readonly string[], start?: string | null): FocusResult {
  if (!keys.length) return { state, handled: false };
  const onMap = new Set(keys);
  const current = state.focus != null && onMap.has(state.focus) ? state.focus : null;
  const initial = start != null && onMap.has(start) ? start : keys[0];
  switch (key) {
    case "Enter":
    case " ": {
      if (current == null) return { state: { focus: initial }, handled: true };
      const h = parseHexKey(current);
      return h ? { state, select: h, handled: true } : { state, handled: false };
    }
    case "Home": return { state: { focus: keys[0] }, handled: true };
    case "End": return { state: { focus: keys[keys.length - 1] }, handled: true };
    case "ArrowLeft":
    case "ArrowRight":
    case "ArrowUp":
    case "ArrowDown": {
      if (current == null) return { state: { focus: initial }, handled: true };
      const from = parseHexKey(current)!;
      const to = moveFocus(from, key, (h) => onMap.has(hexKey(h)));
      // At the map's edge the key is still ours: the page must not scroll under the grid.
      return { state: to ? { focus: hexKey(to) } : state, handled: true };
    }
    default: return { state, handled: false };
  }
}

// ----- pointer gestures -----

/** A pointer that moved less than this (screen pixels) since it went down was a tap. */
export const TAP_SLOP = 6;

export function pinchZoom(v: Viewport, before: [Point, Point], after: [Point, Point], limits: ZoomLimits): Viewport {
  const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y) || 1;
  const mid = (a: Point, b: Point) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
  const m0 = mid(before[0], before[1]);
  const m1 = mid(after[0], after[1]);
  // Zoom about the old midpoint, then follow the fingers' midpoint.
  const zoomed = zoomAt(v, dist(after[0], after[1]) / dist(before[0], before[1]), m0, limits);
  return panBy(zoomed, m1.x - m0.x, m1.y - m0.y);
}
