// Hex-grid math for pointy-top hexes in axial coordinates (q, r), as plateau.v1.Hex sends them,
// with the odd-r offset layout for rectangular maps (odd rows shoved half a hex right), and the
// pure parts of HexGrid: pan/zoom clamping and keyboard focus moves. No DOM here: unit-tested.
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

/** The hex a fractional axial position falls in (cube rounding). */
export function hexRound(f: { q: number; r: number }): Hex {
  const s = -f.q - f.r;
  let q = Math.round(f.q);
  let r = Math.round(f.r);
  const rs = Math.round(s);
  const dq = Math.abs(q - f.q);
  const dr = Math.abs(r - f.r);
  const ds = Math.abs(rs - s);
  // The coordinate that rounded furthest is rebuilt from the other two (q + r + s = 0).
  if (dq > dr && dq > ds) q = -r - rs;
  else if (dr > ds) r = -q - rs;
  // +0 turns a -0 into 0, so keys and equality do not see two zeros.
  return { q: q + 0, r: r + 0 };
}

/** The hex under a point. */
export function pixelToHex(p: Point, size: number): Hex {
  return hexRound(pixelToAxial(p, size));
}

/** The six directions, clockwise from east (pointy-top). */
export const DIRECTIONS: readonly Hex[] = [
  { q: 1, r: 0 }, { q: 0, r: 1 }, { q: -1, r: 1 }, { q: -1, r: 0 }, { q: 0, r: -1 }, { q: 1, r: -1 },
];

export function neighbour(h: Hex, direction: number): Hex {
  const d = DIRECTIONS[((direction % 6) + 6) % 6];
  return { q: h.q + d.q, r: h.r + d.r };
}

export function neighbours(h: Hex): Hex[] {
  return DIRECTIONS.map((d) => ({ q: h.q + d.q, r: h.r + d.r }));
}

/** Steps between two hexes. */
export function distance(a: Hex, b: Hex): number {
  const dq = a.q - b.q;
  const dr = a.r - b.r;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
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
