// The kit's region map: regions as labelled nodes at the places the game's static data gives them,
// or as shapes when the game gives their outlines (touching where they share an edge), their
// borders (a RegionGraph, ui/region_graph.ts) as lines or as the shared edges, the pieces a seat
// sees in each region counted per owner (or the game's own drawing inside each region), the
// targets of the current move choices highlighted, and a click or Enter on a region reported as
// its target.
import type { ComponentChildren } from "preact";
import type { Target } from "../../table";
import { seatColor } from "../common";
import type { Point } from "../hex";
import type { RegionGraph } from "../region_graph";
import type { PieceView } from "./HexBoard";
import { moveTargets, type MoveChoice } from "./moves";

/** A region as the map draws it: its id (the engine's), its name, and where it sits. */
export interface RegionSpot {
  id: string;
  label: string;
  x: number;
  y: number;
  /** Its shape's corners, relative to (x, y), in order; a circle without it. */
  outline?: readonly Point[];
}

export interface RegionMapProps {
  regions: readonly RegionSpot[];
  /** The borders; none drawn without it. */
  graph?: RegionGraph;
  /** The pieces the viewer sees; those placed in a region are counted there per owner. */
  pieces?: readonly PieceView[];
  /** The choices open now: their region targets are highlighted and clickable. */
  choices?: readonly MoveChoice[];
  /** A region's fill (its controller's colour, say). */
  fill?: (id: string) => string | undefined;
  /** What a region shows inside, around its centre, in place of its name and pieces. */
  body?: (r: RegionSpot) => ComponentChildren;
  onTarget?: (t: Target) => void;
  ariaLabel?: string;
}

const R = 26;

/** The borders to draw, each once, as pairs of region ids. */
export function borderPairs(regions: readonly RegionSpot[], graph: RegionGraph | undefined): [string, string][] {
  if (!graph) return [];
  const out: [string, string][] = [];
  for (const a of regions) {
    const ia = graph.find(a.id);
    if (ia < 0) continue;
    for (const ib of graph.neighbours(ia)) if (ib > ia) out.push([a.id, graph.id(ib)]);
  }
  return out;
}

/** Per region, how many pieces each owner has there (owner -1: nobody's). */
export function piecesPerRegion(pieces: readonly PieceView[]): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  for (const p of pieces) {
    const r = p.place?.region;
    if (!r) continue;
    const counts = out.get(r) ?? new Map<number, number>();
    counts.set(p.owner, (counts.get(p.owner) ?? 0) + 1);
    out.set(r, counts);
  }
  return out;
}

export type Segment = readonly [Point, Point];

/** The edges of the regions' outlines: those two regions share (by pair "a|b") and the coast. */
export interface OutlineEdges {
  shared: Map<string, Segment[]>;
  coast: Segment[];
}

// Corners computed from two centres differ in the last bits; two decimals of a map unit match them.
const at2 = (p: Point) => `${Math.round(p.x * 100)},${Math.round(p.y * 100)}`;

/** Which outline edges two regions share and which face no region, in absolute coordinates. */
export function outlineEdges(regions: readonly RegionSpot[]): OutlineEdges {
  const owners = new Map<string, { seg: Segment; ids: string[] }>();
  for (const r of regions) {
    const pts = (r.outline ?? []).map((p) => ({ x: r.x + p.x, y: r.y + p.y }));
    pts.forEach((p, k) => {
      const q = pts[(k + 1) % pts.length];
      const key = [at2(p), at2(q)].sort().join("|");
      const e = owners.get(key) ?? { seg: [p, q] as Segment, ids: [] };
      e.ids.push(r.id);
      owners.set(key, e);
    });
  }
  const shared = new Map<string, Segment[]>(), coast: Segment[] = [];
  for (const { seg, ids } of owners.values()) {
    if (ids.length < 2) {
      coast.push(seg);
      continue;
    }
    const pair = [ids[0], ids[1]].sort().join("|");
    shared.set(pair, [...(shared.get(pair) ?? []), seg]);
  }
  return { shared, coast };
}

const pathOf = (segs: readonly Segment[]) => segs.map(([p, q]) => `M${p.x.toFixed(1)},${p.y.toFixed(1)}L${q.x.toFixed(1)},${q.y.toFixed(1)}`).join("");

/** The box the map covers: every outline's corners, or a circle and its counts around a centre. */
function viewBox(regions: readonly RegionSpot[]): string {
  const xs: number[] = [], ys: number[] = [];
  for (const r of regions) {
    if (r.outline?.length) {
      for (const p of r.outline) { xs.push(r.x + p.x); ys.push(r.y + p.y); }
    } else {
      xs.push(r.x - R * 2, r.x + R * 2);
      ys.push(r.y - R * 2, r.y + R * 2);
    }
  }
  if (!xs.length) return `${-R * 2} ${-R * 2} ${R * 4} ${R * 4}`;
  const pad = 4, minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
  return `${minX} ${minY} ${Math.max(...xs) + pad - minX} ${Math.max(...ys) + pad - minY}`;
}

/** The outline drawn a little inside itself, where a target's ring goes. */
function inset(outline: readonly Point[], k: number): string {
  return outline.map((p) => `${(p.x * k).toFixed(1)},${(p.y * k).toFixed(1)}`).join(" ");
}

export function RegionMap({ regions, graph, pieces = [], choices = [], fill, body, onTarget, ariaLabel = "Map" }: RegionMapProps) {
  const targets = moveTargets(choices).regions;
  const at = new Map(regions.map((r) => [r.id, r]));
  const counts = piecesPerRegion(pieces);
  const edges = outlineEdges(regions);
  const pairs = borderPairs(regions, graph);
  const bordering = new Set(pairs.map((p) => [...p].sort().join("|")));
  // A border along the edge the two shapes share; between centres where they do not touch.
  const along = pairs.filter((p) => edges.shared.has([...p].sort().join("|")));
  const across = pairs.filter((p) => !edges.shared.has([...p].sort().join("|")));
  // Shapes that touch without a border: a sea or a mountain range between them.
  const barriers = [...edges.shared.keys()].filter((k) => !bordering.has(k));
  return (
    <svg class="kit-regionmap" data-testid="region-map" viewBox={viewBox(regions)} role="group" aria-label={ariaLabel}>
      {across.map(([a, b]) => {
        const p = at.get(a)!, q = at.get(b);
        return q && <line key={`${a}|${b}`} class="kit-border" data-testid="region-border" x1={p.x} y1={p.y} x2={q.x} y2={q.y} />;
      })}
      {regions.map((r) => {
        const target = targets.has(r.id);
        const click = target && onTarget ? () => onTarget({ region: r.id }) : undefined;
        const owners = [...(counts.get(r.id) ?? new Map<number, number>()).entries()];
        const shape = r.outline?.length ? r.outline : undefined;
        return (
          <g key={r.id} class={`kit-region ${target ? "target" : ""}`} data-testid="region" data-region={r.id}
            data-target={target ? "true" : "false"} transform={`translate(${r.x},${r.y})`}
            role={click ? "button" : undefined} tabindex={click ? 0 : undefined} aria-label={r.label}
            onClick={click} onKeyDown={click && ((e: KeyboardEvent) => {
              if (e.key === "Enter" || e.key === " ") { e.preventDefault(); click(); }
            })}>
            {shape ? <polygon points={inset(shape, 1)} class="kit-region-area" style={{ fill: fill?.(r.id) }} />
              : <circle r={R} class="kit-region-area" style={{ fill: fill?.(r.id) }} />}
            {shape && target && <polygon points={inset(shape, 0.9)} class="kit-region-ring" />}
            {body ? body(r) : (
              <>
                <text class="kit-region-label" y={4} text-anchor="middle">{r.label}</text>
                {owners.map(([owner, n], i) => (
                  <g key={owner} class="kit-region-pieces" data-testid="region-pieces" data-owner={owner} data-count={n}
                    transform={`translate(${(i - (owners.length - 1) / 2) * 16},${R + 10})`}>
                    <circle r={7} fill={owner >= 0 ? seatColor(owner) : "#888"} />
                    <text y={3} text-anchor="middle" class="kit-region-count">{n}</text>
                  </g>
                ))}
              </>
            )}
          </g>
        );
      })}
      {edges.coast.length > 0 && <path class="kit-coast" d={pathOf(edges.coast)} />}
      {barriers.map((k) => (
        <path key={k} class="kit-barrier" data-testid="region-barrier" data-regions={k} d={pathOf(edges.shared.get(k)!)} />
      ))}
      {along.map(([a, b]) => {
        const k = [a, b].sort().join("|");
        return <path key={k} class="kit-border along" data-testid="region-border" data-regions={k} d={pathOf(edges.shared.get(k)!)} />;
      })}
    </svg>
  );
}
