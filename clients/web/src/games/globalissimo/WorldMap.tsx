// The violet barrier's world map: countries from world-atlas (ids are ISO 3166-1 numeric codes,
// the regions the question's options target), drawn with d3-geo. Only the regions offered are
// clickable; a click answers. No country is ever named here: on a map question the name would be
// the answer.
import { useEffect, useMemo, useState } from "preact/hooks";
import { geoEqualEarth, geoPath } from "d3-geo";
import { feature } from "topojson-client";
import type { Feature, FeatureCollection, Geometry } from "geojson";

type Country = Feature<Geometry> & { id?: string | number };

let cache: Promise<Country[]> | null = null;
function loadCountries(): Promise<Country[]> {
  cache ??= import("world-atlas/countries-110m.json").then((m) => {
    const topo = (m as any).default ?? m;
    const fc = feature(topo, topo.objects.countries) as unknown as FeatureCollection<Geometry>;
    // Antarctica only gets in the way of a question about a country.
    return (fc.features as Country[]).filter((f) => f.id !== "010");
  });
  return cache;
}

const W = 960;
const H = 470;

const NO_REGIONS: ReadonlySet<string> = new Set();

export function WorldMap({ onPick, disabled, regions = NO_REGIONS, picked, highlight }: {
  onPick?: (mapId: string) => void;
  disabled?: boolean;
  /** The map ids a click may answer with (the prompt's region targets); none: nothing clickable. */
  regions?: ReadonlySet<string>;
  /** The map id of the answer given (shown until the question changes). */
  picked?: string;
  /** A country to outline (e.g. the answer, once known). */
  highlight?: string;
}) {
  const [countries, setCountries] = useState<Country[] | null>(null);
  const [zoom, setZoom] = useState(1);
  const [center, setCenter] = useState<[number, number]>([W / 2, H / 2]);
  useEffect(() => {
    let alive = true;
    void loadCountries().then((c) => alive && setCountries(c));
    return () => { alive = false; };
  }, []);
  const paths = useMemo(() => {
    if (!countries) return [];
    const projection = geoEqualEarth().fitExtent([[8, 8], [W - 8, H - 8]], { type: "FeatureCollection", features: countries });
    const path = geoPath(projection);
    return countries.map((c) => ({ id: c.id == null ? "" : String(c.id), d: path(c) ?? "" }));
  }, [countries]);
  if (!countries) return <div class="gl-map loading">Unrolling the map…</div>;
  const vw = W / zoom, vh = H / zoom;
  const vx = Math.max(0, Math.min(W - vw, center[0] - vw / 2));
  const vy = Math.max(0, Math.min(H - vh, center[1] - vh / 2));
  const zoomAt = (factor: number, x = center[0], y = center[1]) => {
    const z = Math.max(1, Math.min(8, zoom * factor));
    setZoom(z);
    setCenter([x, y]);
  };
  return (
    <div class={`gl-map ${disabled ? "disabled" : ""}`}>
      <svg viewBox={`${vx} ${vy} ${vw} ${vh}`} data-testid="world-map" role="img" aria-label="World map"
        onWheel={(e) => {
          e.preventDefault();
          const svg = e.currentTarget as SVGSVGElement;
          const r = svg.getBoundingClientRect();
          const x = vx + ((e.clientX - r.left) / r.width) * vw;
          const y = vy + ((e.clientY - r.top) / r.height) * vh;
          zoomAt(e.deltaY < 0 ? 1.4 : 1 / 1.4, x, y);
        }}>
        <rect x={0} y={0} width={W} height={H} class="gl-sea" />
        {paths.map((p, i) => {
          const option = !!p.id && regions.has(p.id);
          return (
            <path key={i} d={p.d} data-id={p.id}
              class={`gl-country ${option ? "option" : ""} ${p.id && p.id === picked ? "picked" : ""} ${p.id && p.id === highlight ? "answer" : ""}`}
              onClick={() => {
                if (disabled || !onPick || !option) return;
                onPick(p.id);
              }} />
          );
        })}
      </svg>
      <div class="gl-map-bar">
        <span class="gl-map-hover" data-testid="map-hover">
          {disabled ? "Countries are not named: the name would give the answer away." : "Click the country: that is your answer."}
        </span>
        <span class="gl-map-zoom">
          <button type="button" class="btn small ghost" onClick={() => zoomAt(1.5)} aria-label="Zoom in">+</button>
          <button type="button" class="btn small ghost" onClick={() => zoomAt(1 / 1.5)} aria-label="Zoom out">−</button>
          <button type="button" class="btn small ghost" onClick={() => { setZoom(1); setCenter([W / 2, H / 2]); }}>Reset</button>
        </span>
      </div>
    </div>
  );
}
