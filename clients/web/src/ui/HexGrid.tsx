// A hex map for any game: pointy-top hexes in axial coordinates (hex.ts), terrain fill and
// overlays (units, markers) drawn by the board through render props, the legal targets of the
// current prompt highlighted, region borders for region maps, pan (drag) and zoom (wheel, pinch,
// buttons, +/-), hover details, keyboard focus (arrows move, Enter/Space selects) and touch (tap
// selects, drag pans).
//
// Each cell is memoised on its data object, its place and its highlight: views are copy-on-write,
// so a diff touching one hex re-renders that hex only. The render props are read through a ref
// and not compared (a board passes fresh lambdas on every render); when what they draw depends
// on more than the cell's data, the board changes `renderKey`. Hover, focus and selection are
// drawn in a layer above the cells, so moving them re-renders no cell at all.
import { Component, type ComponentChildren } from "preact";
import { useMemo, useRef, useState } from "preact/hooks";
import {
  IDENTITY, TAP_SLOP, axialToPixel, bounds as hexBounds, clampViewport, edgeCorners, focusKey, hexCorners, hexKey,
  hexPolygon, keepInView, panBy, parseHexKey, pinchZoom, pixelToHex, regionBorders, toWorld, zoomAt,
  type Bounds, type FocusState, type Hex, type Point, type Viewport,
} from "./hex";

export interface HexGridProps<T> {
  /** One entry per hex of the map (for instance the view's hexes, as they are). */
  cells: readonly T[];
  /** Where a cell is; by default its own `q`/`r` or its `hex`. */
  hexOf?: (cell: T) => Hex;
  /** Circumradius of a hex in map units. */
  size?: number;
  /** The terrain colour of a cell. */
  fill?: (cell: T) => string;
  /** What sits on a cell (units, markers), drawn in map units around `center`. */
  renderCell?: (cell: T, center: Point, size: number) => ComponentChildren;
  /** Drawn above every cell (paths, arrows), in map units. */
  renderOverlay?: (project: (h: Hex) => Point) => ComponentChildren;
  /** Hex keys ("q,r", see hexKey) to highlight: the legal targets of the current prompt. */
  highlighted?: ReadonlySet<string>;
  /** For region maps: a cell's region, which draws region borders... */
  regionOf?: (cell: T) => string | undefined;
  /** ...and highlights every hex of these regions. */
  highlightedRegions?: ReadonlySet<string>;
  /** The selected hex's key. */
  selected?: string | null;
  /** A tap, click, Enter or Space on a hex (cell undefined: a hex off the map is never passed). */
  onSelect?: (hex: Hex, cell: T) => void;
  /** The pointer entered a cell, or left the map (null). */
  onHover?: (cell: T | null) => void;
  /** Details shown next to the pointer (or the keyboard focus). */
  renderTooltip?: (cell: T) => ComponentChildren;
  /** Words for a screen reader when the keyboard focus lands on a cell. */
  describe?: (cell: T) => string;
  /** Change it when the render props draw something new for unchanged cells. */
  renderKey?: unknown;
  minZoom?: number;
  maxZoom?: number;
  ariaLabel?: string;
  class?: string;
}

function defaultHexOf(cell: unknown): Hex {
  const c = cell as { q?: number; r?: number; hex?: Hex | null };
  if (c.hex) return c.hex;
  return { q: c.q ?? 0, r: c.r ?? 0 };
}

// ----- one cell -----

/** The grid's render props, over cells of any type (each is given back the cell it was made for). */
interface RenderFns {
  fill?: (cell: unknown) => string;
  renderCell?: (cell: unknown, center: Point, size: number) => ComponentChildren;
}

export interface CellProps {
  data: unknown;
  q: number;
  r: number;
  size: number;
  highlighted: boolean;
  /** Directions (0..5) of the edges on a region border, as "0,3"; "" for none. */
  borders: string;
  renderKey: unknown;
  /** Stable object holding the latest render props (not compared). */
  fns: { current: RenderFns };
}

/** Whether a cell would draw the same: what HexCell's shouldComponentUpdate compares. */
export function sameCell(a: CellProps, b: CellProps): boolean {
  return a.data === b.data && a.q === b.q && a.r === b.r && a.size === b.size && a.highlighted === b.highlighted
    && a.borders === b.borders && Object.is(a.renderKey, b.renderKey);
}

class HexCell extends Component<CellProps> {
  shouldComponentUpdate(next: CellProps): boolean {
    return !sameCell(this.props, next);
  }

  render() {
    const { data, q, r, size, highlighted, borders, fns } = this.props;
    const h = { q, r };
    const center = axialToPixel(h, size);
    const corners = borders ? hexCorners(center, size) : null;
    return (
      <g class={`hex ${highlighted ? "legal" : ""}`} data-hex={hexKey(h)}>
        <polygon class="hex-shape" points={hexPolygon(h, size)} style={{ fill: fns.current.fill?.(data) }} />
        {highlighted && <polygon class="hex-legal" points={hexPolygon(h, size * 0.86)} />}
        {corners && borders.split(",").map((d) => {
          const [a, b] = edgeCorners(Number(d));
          return <line key={d} class="hex-border" x1={corners[a].x} y1={corners[a].y} x2={corners[b].x} y2={corners[b].y} />;
        })}
        {fns.current.renderCell?.(data, center, size)}
      </g>
    );
  }
}

// ----- the grid -----

/** The SVG user coordinates (view box units) of a client point. */
function toUser(svg: SVGSVGElement, clientX: number, clientY: number): Point {
  const m = svg.getScreenCTM();
  if (!m) return { x: clientX, y: clientY };
  const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
  return { x: p.x, y: p.y };
}

interface Gesture {
  pointers: Map<number, Point>;
  /** Where the single pointer went down, and whether it has moved past the tap slop since. */
  start: Point | null;
  startClient: Point | null;
  moved: boolean;
}

export function HexGrid<T>(props: HexGridProps<T>) {
  const {
    cells, size = 32, highlighted, highlightedRegions, selected = null, onSelect, onHover, renderTooltip, describe,
    renderKey, minZoom = 0.5, maxZoom = 4, ariaLabel = "Map", class: cls,
  } = props;
  const hexOf = props.hexOf ?? defaultHexOf;
  const fns = useRef<RenderFns>({});
  const { fill, renderCell } = props;
  fns.current = {
    fill: fill && ((cell) => fill(cell as T)),
    renderCell: renderCell && ((cell, center, s) => renderCell(cell as T, center, s)),
  };
  const regionOf = props.regionOf;

  // The map's geometry changes only with the cells (a new array once a diff touched any).
  const geo = useMemo(() => {
    const hexes = cells.map((c) => hexOf(c));
    const keys = hexes.map(hexKey);
    const byKey = new Map<string, T>();
    keys.forEach((k, i) => byKey.set(k, cells[i]));
    const box = hexBounds(hexes, size, size * 0.5);
    return { hexes, keys, byKey, box };
  }, [cells, size]);
  const borders = useMemo(() => {
    if (!regionOf) return null;
    const region = new Map<string, string | undefined>();
    geo.keys.forEach((k, i) => region.set(k, regionOf(cells[i])));
    const edges = regionBorders(geo.hexes, (h) => region.get(hexKey(h)));
    const out = new Map<string, string>();
    for (const [k, list] of edges) out.set(k, list.join(","));
    return out;
    // Region borders follow the cells; a board whose regions change otherwise sets renderKey.
  }, [geo, !!regionOf, renderKey]);

  const limits = { minZoom, maxZoom };
  const [view, setViewState] = useState<Viewport>(IDENTITY);
  const viewRef = useRef(view);
  viewRef.current = view;
  const frame: Bounds = geo.box;
  const setView = (v: Viewport) => {
    const c = clampViewport(v, geo.box, frame);
    viewRef.current = c;
    setViewState(c);
  };

  const [hover, setHover] = useState<{ key: string; at: Point } | null>(null);
  const [focus, setFocus] = useState<FocusState>({ focus: null });
  const [hasFocus, setHasFocus] = useState(false);
  const svgRef = useRef<SVGSVGElement>(null);
  const wrapRef = useRef<HTMLDivElement>(null);
  const gesture = useRef<Gesture>({ pointers: new Map(), start: null, startClient: null, moved: false });

  const isHighlighted = (key: string, cell: T) =>
    !!highlighted?.has(key) || (!!regionOf && !!highlightedRegions?.size && highlightedRegions.has(regionOf(cell) ?? ""));

  const cellAt = (user: Point): { hex: Hex; cell: T } | null => {
    const hex = pixelToHex(toWorld(viewRef.current, user), size);
    const cell = geo.byKey.get(hexKey(hex));
    return cell === undefined ? null : { hex, cell };
  };

  const hoverAt = (user: Point | null, client: Point | null) => {
    const hit = user ? cellAt(user) : null;
    const key = hit ? hexKey(hit.hex) : null;
    if ((hover?.key ?? null) !== key) onHover?.(hit ? hit.cell : null);
    const wrap = wrapRef.current?.getBoundingClientRect();
    setHover(key && client && wrap ? { key, at: { x: client.x - wrap.left, y: client.y - wrap.top } } : null);
  };

  const select = (hex: Hex) => {
    const cell = geo.byKey.get(hexKey(hex));
    if (cell !== undefined) onSelect?.(hex, cell);
  };

  const onPointerDown = (e: PointerEvent) => {
    const svg = svgRef.current;
    if (!svg) return;
    svg.setPointerCapture?.(e.pointerId);
    const g = gesture.current;
    const p = toUser(svg, e.clientX, e.clientY);
    g.pointers.set(e.pointerId, p);
    if (g.pointers.size === 1) {
      g.start = p;
      g.startClient = { x: e.clientX, y: e.clientY };
      g.moved = false;
    } else {
      // A second finger: a pinch, never a tap.
      g.moved = true;
    }
  };

  const onPointerMove = (e: PointerEvent) => {
    const svg = svgRef.current;
    if (!svg) return;
    const g = gesture.current;
    const p = toUser(svg, e.clientX, e.clientY);
    const prev = g.pointers.get(e.pointerId);
    if (!prev) {
      if (e.pointerType === "mouse") hoverAt(p, { x: e.clientX, y: e.clientY });
      return;
    }
    if (g.pointers.size >= 2) {
      const ids = [...g.pointers.keys()].slice(0, 2);
      const before = ids.map((id) => g.pointers.get(id)!) as [Point, Point];
      g.pointers.set(e.pointerId, p);
      const after = ids.map((id) => g.pointers.get(id)!) as [Point, Point];
      setView(pinchZoom(viewRef.current, before, after, limits));
      return;
    }
    g.pointers.set(e.pointerId, p);
    if (!g.moved && g.startClient && Math.hypot(e.clientX - g.startClient.x, e.clientY - g.startClient.y) > TAP_SLOP) {
      g.moved = true;
      setHover(null);
    }
    if (g.moved) setView(panBy(viewRef.current, p.x - prev.x, p.y - prev.y));
  };

  const onPointerUp = (e: PointerEvent) => {
    const svg = svgRef.current;
    const g = gesture.current;
    const had = g.pointers.delete(e.pointerId);
    if (!had || !svg) return;
    if (g.pointers.size === 0) {
      if (!g.moved && e.type === "pointerup") {
        const hit = cellAt(toUser(svg, e.clientX, e.clientY));
        if (hit) {
          setFocus({ focus: hexKey(hit.hex) });
          select(hit.hex);
        }
      }
      g.start = null;
      g.startClient = null;
    } else {
      // One finger left of a pinch: carry on as a pan from where it is.
      g.moved = true;
    }
  };

  const onWheel = (e: WheelEvent) => {
    const svg = svgRef.current;
    if (!svg) return;
    e.preventDefault();
    // Trackpads send many small deltas, mouse wheels a few large ones: scale by the delta.
    const factor = Math.exp(-Math.max(-100, Math.min(100, e.deltaY)) / 300);
    setView(zoomAt(viewRef.current, factor, toUser(svg, e.clientX, e.clientY), limits));
  };

  const center: Point = { x: (frame.minX + frame.maxX) / 2, y: (frame.minY + frame.maxY) / 2 };
  const zoomBy = (factor: number) => setView(zoomAt(viewRef.current, factor, center, limits));

  const startKey = (): string | null => {
    if (selected && geo.byKey.has(selected)) return selected;
    return geo.keys.find((k) => isHighlighted(k, geo.byKey.get(k)!)) ?? null;
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "+" || e.key === "=") { e.preventDefault(); zoomBy(1.25); return; }
    if (e.key === "-") { e.preventDefault(); zoomBy(0.8); return; }
    if (e.key === "0") { e.preventDefault(); setView(IDENTITY); return; }
    const r = focusKey(focus, e.key, geo.keys, startKey());
    if (!r.handled) return;
    e.preventDefault();
    setFocus(r.state);
    if (r.state.focus && r.state.focus !== focus.focus) {
      const h = parseHexKey(r.state.focus);
      if (h) setView(keepInView(viewRef.current, axialToPixel(h, size), frame, size * 1.5));
    }
    if (r.select) select(r.select);
  };

  const vb = `${frame.minX} ${frame.minY} ${frame.maxX - frame.minX} ${frame.maxY - frame.minY}`;
  const focusCell = focus.focus ? geo.byKey.get(focus.focus) : undefined;
  const hoverCell = hover ? geo.byKey.get(hover.key) : undefined;
  const tipCell = hoverCell ?? (hasFocus ? focusCell : undefined);
  const mark = (key: string | null | undefined, klass: string) => {
    const h = key ? parseHexKey(key) : null;
    return h && geo.byKey.has(key!) ? <polygon class={klass} points={hexPolygon(h, size)} /> : null;
  };
  const focusWords = focusCell !== undefined && focus.focus
    ? `${describe ? describe(focusCell) : `Hex ${focus.focus}`}${isHighlighted(focus.focus, focusCell) ? ", can be chosen" : ""}`
    : "";

  return (
    <div class={`hexgrid ${cls ?? ""}`} ref={wrapRef} data-testid="hexgrid">
      <svg ref={svgRef} viewBox={vb} class="hexgrid-svg" tabIndex={0} role="application" aria-roledescription="hex map"
        aria-label={`${ariaLabel}. Arrow keys move, Enter or Space chooses, + and - zoom.`}
        onPointerDown={onPointerDown} onPointerMove={onPointerMove} onPointerUp={onPointerUp} onPointerCancel={onPointerUp}
        onPointerLeave={(e) => { if (e.pointerType === "mouse") hoverAt(null, null); }}
        onWheel={onWheel} onKeyDown={onKeyDown}
        onFocus={() => setHasFocus(true)} onBlur={() => setHasFocus(false)}>
        <g transform={`translate(${view.x} ${view.y}) scale(${view.k})`}>
          <g class="hex-cells">
            {cells.map((c, i) => {
              const h = geo.hexes[i];
              const key = geo.keys[i];
              return (
                <HexCell key={key} data={c} q={h.q} r={h.r} size={size} highlighted={isHighlighted(key, c)}
                  borders={borders?.get(key) ?? ""} renderKey={renderKey} fns={fns} />
              );
            })}
          </g>
          {props.renderOverlay && <g class="hex-overlay">{props.renderOverlay((h) => axialToPixel(h, size))}</g>}
          <g class="hex-marks" pointer-events="none">
            {mark(selected, "hex-selected")}
            {hover && mark(hover.key, "hex-hover")}
            {hasFocus && mark(focus.focus, "hex-focus")}
          </g>
        </g>
      </svg>
      <div class="hexgrid-zoom">
        <button type="button" class="btn small ghost" onClick={() => zoomBy(1.25)} aria-label="Zoom in">+</button>
        <button type="button" class="btn small ghost" onClick={() => zoomBy(0.8)} aria-label="Zoom out">−</button>
        <button type="button" class="btn small ghost" onClick={() => setView(IDENTITY)}>Reset</button>
      </div>
      {renderTooltip && tipCell !== undefined && (
        <div class={`hexgrid-tip ${hoverCell !== undefined ? "" : "pinned"}`} role="tooltip"
          style={hoverCell !== undefined && hover ? { left: `${hover.at.x + 14}px`, top: `${hover.at.y + 14}px` } : undefined}>
          {renderTooltip(tipCell)}
        </div>
      )}
      <span class="sr-only" aria-live="polite">{hasFocus ? focusWords : ""}</span>
    </div>
  );
}
