// The pure side of WorldMap: which part of the map is in view (zoom, pan, always inside the map),
// when a press on the map is a click rather than a drag, and what a click does to the selection.
// Kept apart from the component so it can be tested without a DOM.

/** The map's own coordinate space (the svg viewBox at zoom 1). */
export const MAP_W = 960;
export const MAP_H = 470;
export const MIN_ZOOM = 1;
export const MAX_ZOOM = 8;
/**
 * How far (screen pixels) a press may wander and still be a click. A hand on a touch screen or a
 * mouse moved while clicking shifts a little; beyond this the player meant to move the map, and
 * selecting the country where the drag ended would be a surprise.
 */
export const DRAG_SLOP = 4;

export type Point = readonly [number, number];

export interface MapView {
  zoom: number;
  /** The centre of the view, in map units, always such that the view stays inside the map. */
  center: Point;
}

export const WHOLE_MAP: MapView = { zoom: 1, center: [MAP_W / 2, MAP_H / 2] };

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

/** The view with its zoom within bounds and its centre moved so no sea beyond the map shows. */
export function clampView(v: MapView): MapView {
  const zoom = clamp(Number.isFinite(v.zoom) ? v.zoom : 1, MIN_ZOOM, MAX_ZOOM);
  const hw = MAP_W / zoom / 2, hh = MAP_H / zoom / 2;
  return { zoom, center: [clamp(v.center[0], hw, MAP_W - hw), clamp(v.center[1], hh, MAP_H - hh)] };
}

/** The svg viewBox of a view: x, y, width, height. */
export function viewBox(v: MapView): [number, number, number, number] {
  const c = clampView(v);
  const w = MAP_W / c.zoom, h = MAP_H / c.zoom;
  return [c.center[0] - w / 2, c.center[1] - h / 2, w, h];
}

/**
 * Zooms by `factor` keeping the map point under (fx, fy) where it is: fractions of the view's
 * width and height, 0.5 being its middle (the buttons), the pointer's place for the wheel. Zooming
 * to the pointer without this would make the country being looked at jump away.
 */
export function zoomAt(v: MapView, factor: number, fx = 0.5, fy = 0.5): MapView {
  const [x, y, w, h] = viewBox(v);
  const zoom = clamp(v.zoom * factor, MIN_ZOOM, MAX_ZOOM);
  const px = x + fx * w, py = y + fy * h;
  const nw = MAP_W / zoom, nh = MAP_H / zoom;
  return clampView({ zoom, center: [px - fx * nw + nw / 2, py - fy * nh + nh / 2] });
}

/** A press on the map being followed: where it started, and the view then. */
export interface Drag {
  pointer: number;
  x: number;
  y: number;
  from: MapView;
  /** Once true it stays true: coming back near the start does not make it a click again. */
  panning: boolean;
}

export function startDrag(pointer: number, x: number, y: number, from: MapView): Drag {
  return { pointer, x, y, from: clampView(from), panning: false };
}

/** The drag after the pointer moved to (x, y), screen pixels. */
export function moveDrag(d: Drag, x: number, y: number): Drag {
  if (d.panning || Math.hypot(x - d.x, y - d.y) <= DRAG_SLOP) return d;
  return { ...d, panning: true };
}

/**
 * The view while dragging: the map follows the pointer. `unitsPerPixel` converts screen pixels to
 * map units at the drag's zoom (the view's width in map units over its width on screen).
 */
export function dragView(d: Drag, x: number, y: number, unitsPerPixel: number): MapView {
  if (!d.panning) return d.from;
  const [cx, cy] = d.from.center;
  return clampView({ zoom: d.from.zoom, center: [cx - (x - d.x) * unitsPerPixel, cy - (y - d.y) * unitsPerPixel] });
}

/** What the press ending at (x, y) was. */
export function endDrag(d: Drag, x: number, y: number): "click" | "drag" {
  return moveDrag(d, x, y).panning ? "drag" : "click";
}

/**
 * The selection after a click on the region `id` (undefined: outside every country). Only the
 * regions offered can be selected; a second click on the selected one takes it back; a click
 * elsewhere leaves the selection alone, as a stray click on the sea should not lose it.
 */
export function clickSelection(selected: string | undefined, id: string | undefined, offered: ReadonlySet<string>): string | undefined {
  if (!id || !offered.has(id)) return selected;
  return id === selected ? undefined : id;
}

/**
 * A view framing a shape whose bounds (map units) are given, with room around it so the player
 * sees where on Earth it lies, and never closer than `maxZoom` (a tiny island alone says nothing).
 */
export function frame(bounds: readonly [Point, Point], maxZoom = 4): MapView {
  const [[x0, y0], [x1, y1]] = bounds;
  const w = Math.max(1, x1 - x0), h = Math.max(1, y1 - y0);
  const zoom = clamp(Math.min(MAP_W / (w * 3), MAP_H / (h * 3)), MIN_ZOOM, Math.min(maxZoom, MAX_ZOOM));
  return clampView({ zoom, center: [(x0 + x1) / 2, (y0 + y1) / 2] });
}
