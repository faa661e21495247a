// The violet barrier's world map: countries from world-atlas (ids are ISO 3166-1 numeric codes,
// the regions the question's options target), drawn with d3-geo. Only the regions offered can be
// selected, and a selection is only a selection: the board sends it when the player confirms, so
// a slip of the mouse is not a wrong answer. No country is ever named here (no title, label or
// tooltip, not even for the selected one): on a map question the name would be the answer.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { geoEqualEarth, geoPath } from "d3-geo";
import { feature } from "topojson-client";
import type { Topology } from "topojson-specification";
import type { Feature, FeatureCollection, Geometry, Polygon } from "geojson";
import {
  clickSelection, dragView, endDrag, frame, MAP_H, MAP_W, moveDrag, startDrag, viewBox, WHOLE_MAP, zoomAt,
  type Drag, type MapView, type Point,
} from "./mapView";

type Country = Feature<Geometry> & { id?: string | number };

let cache: Promise<Country[]> | null = null;
function loadCountries(): Promise<Country[]> {
  cache ??= import("world-atlas/countries-110m.json").then((m) => {
    // The JSON module itself, or under `default` as bundlers may wrap it.
    const wrapped = m as unknown as { default?: Topology };
    const topo = wrapped.default ?? (m as unknown as Topology);
    const fc = feature(topo, topo.objects.countries) as unknown as FeatureCollection<Geometry>;
    // Antarctica only gets in the way of a question about a country.
    return (fc.features as Country[]).filter((f) => f.id !== "010");
  });
  return cache;
}

interface Shape { id: string; d: string; country: Country }
type GeoPath = ReturnType<typeof geoPath>;

/**
 * Where a country mainly lies: its largest piece. Framing every piece would show France with
 * French Guiana, the United States with Alaska and Hawaii: the whole world, and no answer.
 */
function mainPart(path: GeoPath, c: Country): { bounds: [Point, Point]; centroid: Point } {
  let part: Feature<Geometry> | Polygon = c;
  if (c.geometry?.type === "MultiPolygon") {
    let best = -1;
    for (const coordinates of c.geometry.coordinates) {
      const poly: Polygon = { type: "Polygon", coordinates };
      const area = path.area(poly);
      if (area > best) { best = area; part = poly; }
    }
  }
  return { bounds: path.bounds(part) as [Point, Point], centroid: path.centroid(part) as Point };
}

const NO_REGIONS: ReadonlySet<string> = new Set();

export function WorldMap({ regions = NO_REGIONS, selected, onSelect, disabled, highlight, still, testid = "world-map", class: cls = "" }: {
  /** The map ids that may be selected (the prompt's region targets); none: nothing selectable. */
  regions?: ReadonlySet<string>;
  /** The map id selected (or already sent as the answer). */
  selected?: string;
  /** A click on an offered region: the new selection (undefined when it was taken back). */
  onSelect?: (mapId: string | undefined) => void;
  disabled?: boolean;
  /** A country to outline: a settled question's answer, never the one being asked. */
  highlight?: string;
  /** A small picture of an answer: framed on `highlight`, no selection, no controls. */
  still?: boolean;
  testid?: string;
  class?: string;
}) {
  const [countries, setCountries] = useState<Country[] | null>(null);
  const [view, setView] = useState<MapView>(WHOLE_MAP);
  const drag = useRef<Drag | null>(null);
  // A drag that ends over a country still fires a click there: this swallows it.
  const dragged = useRef(false);
  useEffect(() => {
    let alive = true;
    void loadCountries().then((c) => alive && setCountries(c));
    return () => { alive = false; };
  }, []);
  const geo = useMemo<{ path: GeoPath | null; shapes: Shape[] }>(() => {
    if (!countries) return { path: null, shapes: [] };
    const projection = geoEqualEarth().fitExtent([[8, 8], [MAP_W - 8, MAP_H - 8]], { type: "FeatureCollection", features: countries });
    const path = geoPath(projection);
    return { path, shapes: countries.map((c) => ({ id: c.id == null ? "" : String(c.id), d: path(c) ?? "", country: c })) };
  }, [countries]);
  const shapes = geo.shapes;
  const target = useMemo(() => {
    const s = still && highlight && geo.path ? geo.shapes.find((x) => x.id === highlight) : undefined;
    return s ? mainPart(geo.path!, s.country) : undefined;
  }, [geo, still, highlight]);
  if (!countries) return <div class={`gl-map loading ${cls}`}>Unrolling the map…</div>;
  // A still map always shows its country; only a live one is moved by the player.
  const shown = still ? (target ? frame(target.bounds) : WHOLE_MAP) : view;
  const [vx, vy, vw, vh] = viewBox(shown);
  const selectable = !disabled && !!onSelect;
  const live = !still;
  // A country smaller than a fingertip on screen gets a ring, or the answer could not be seen.
  const ring = target && Math.max(target.bounds[1][0] - target.bounds[0][0], target.bounds[1][1] - target.bounds[0][1]) * shown.zoom < 40;

  const onPointerDown = (e: PointerEvent) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    dragged.current = false;
    drag.current = startDrag(e.pointerId, e.clientX, e.clientY, view);
  };
  const onPointerMove = (e: PointerEvent) => {
    const d = drag.current;
    if (!d || d.pointer !== e.pointerId) return;
    const next = moveDrag(d, e.clientX, e.clientY);
    drag.current = next;
    if (!next.panning) return;
    const svg = e.currentTarget as SVGSVGElement;
    // Captured only once it is a drag: capturing at once would send the click to the svg, not to
    // the country under the pointer.
    if (!d.panning && !svg.hasPointerCapture(e.pointerId)) svg.setPointerCapture(e.pointerId);
    const r = svg.getBoundingClientRect();
    if (r.width > 0) setView(dragView(next, e.clientX, e.clientY, MAP_W / next.from.zoom / r.width));
  };
  const onPointerEnd = (e: PointerEvent) => {
    const d = drag.current;
    if (!d || d.pointer !== e.pointerId) return;
    drag.current = null;
    dragged.current = e.type === "pointercancel" || endDrag(d, e.clientX, e.clientY) === "drag";
  };
  const onClick = (e: MouseEvent) => {
    if (dragged.current) { dragged.current = false; return; }
    if (!selectable) return;
    const id = (e.target as Element | null)?.closest?.("path[data-id]")?.getAttribute("data-id") ?? undefined;
    const next = clickSelection(selected, id, regions);
    if (next !== selected) onSelect!(next);
  };

  return (
    <div class={`gl-map ${disabled ? "disabled" : ""} ${still ? "still" : ""} ${cls}`}>
      <svg viewBox={`${vx} ${vy} ${vw} ${vh}`} data-testid={testid} role="img" aria-label="World map"
        data-zoom={shown.zoom.toFixed(2)}
        onPointerDown={live ? onPointerDown : undefined} onPointerMove={live ? onPointerMove : undefined}
        onPointerUp={live ? onPointerEnd : undefined} onPointerCancel={live ? onPointerEnd : undefined}
        onClick={live ? onClick : undefined}
        onWheel={live ? (e) => {
          e.preventDefault();
          const r = (e.currentTarget as SVGSVGElement).getBoundingClientRect();
          if (r.width <= 0 || r.height <= 0) return;
          const fx = (e.clientX - r.left) / r.width, fy = (e.clientY - r.top) / r.height;
          setView((v) => zoomAt(v, e.deltaY < 0 ? 1.4 : 1 / 1.4, fx, fy));
        } : undefined}>
        <rect x={0} y={0} width={MAP_W} height={MAP_H} class="gl-sea" />
        {shapes.map((s, i) => {
          const option = !!s.id && regions.has(s.id);
          const isSelected = !!s.id && s.id === selected;
          return (
            <path key={i} d={s.d} data-id={s.id} data-selected={isSelected ? "true" : undefined}
              class={`gl-country ${option ? "option" : ""} ${isSelected ? "selected" : ""} ${s.id && s.id === highlight ? "answer" : ""}`} />
          );
        })}
        {/* Drawn last so no neighbour hides the outline. */}
        {shapes.filter((s) => s.id && (s.id === selected || s.id === highlight)).map((s) => (
          <path key={`top-${s.id}`} d={s.d} class={`gl-country-outline ${s.id === highlight ? "answer" : "selected"}`} aria-hidden="true" />
        ))}
        {ring && <circle cx={target!.centroid[0]} cy={target!.centroid[1]} r={30 / shown.zoom} class="gl-answer-ring" aria-hidden="true" />}
      </svg>
      {live && (
        <div class="gl-map-bar">
          <span class="gl-map-hint" data-testid="map-hint">
            {selectable ? "Click a country to select it · drag to move · wheel or +/− to zoom"
              : "Countries are not named: the name would give the answer away."}
          </span>
          <span class="gl-map-zoom">
            <button type="button" class="btn small ghost" onClick={() => setView((v) => zoomAt(v, 1.5))} aria-label="Zoom in">+</button>
            <button type="button" class="btn small ghost" onClick={() => setView((v) => zoomAt(v, 1 / 1.5))} aria-label="Zoom out">−</button>
            <button type="button" class="btn small ghost" onClick={() => setView(WHOLE_MAP)}>Reset</button>
          </span>
        </div>
      )}
    </div>
  );
}
