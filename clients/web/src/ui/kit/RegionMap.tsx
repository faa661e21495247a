// The kit's region map: regions as labelled nodes at the places the game's static data gives them,
// their borders (a RegionGraph, ui/region_graph.ts) as lines, the pieces a seat sees in each
// region counted per owner, the targets of the current move choices highlighted, and a click or
// Enter on a region reported as its target.
import type { Target } from "../../table";
import { seatColor } from "../common";
import type { RegionGraph } from "../region_graph";
import type { PieceView } from "./HexBoard";
import { moveTargets, type MoveChoice } from "./moves";

/** A region as the map draws it: its id (the engine's), its name, and where it sits. */
export interface RegionSpot {
  id: string;
  label: string;
  x: number;
  y: number;
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

export function RegionMap({ regions, graph, pieces = [], choices = [], fill, onTarget, ariaLabel = "Map" }: RegionMapProps) {
  const targets = moveTargets(choices).regions;
  const at = new Map(regions.map((r) => [r.id, r]));
  const counts = piecesPerRegion(pieces);
  const xs = regions.map((r) => r.x), ys = regions.map((r) => r.y);
  const minX = Math.min(0, ...xs) - R * 2, minY = Math.min(0, ...ys) - R * 2;
  const w = Math.max(0, ...xs) - minX + R * 2, h = Math.max(0, ...ys) - minY + R * 2;
  return (
    <svg class="kit-regionmap" data-testid="region-map" viewBox={`${minX} ${minY} ${w} ${h}`} role="group" aria-label={ariaLabel}>
      {borderPairs(regions, graph).map(([a, b]) => {
        const p = at.get(a)!, q = at.get(b);
        return q && <line key={`${a}|${b}`} class="kit-border" data-testid="region-border" x1={p.x} y1={p.y} x2={q.x} y2={q.y} />;
      })}
      {regions.map((r) => {
        const target = targets.has(r.id);
        const click = target && onTarget ? () => onTarget({ region: r.id }) : undefined;
        const owners = [...(counts.get(r.id) ?? new Map<number, number>()).entries()];
        return (
          <g key={r.id} class={`kit-region ${target ? "target" : ""}`} data-testid="region" data-region={r.id}
            data-target={target ? "true" : "false"} transform={`translate(${r.x},${r.y})`}
            role={click ? "button" : undefined} tabindex={click ? 0 : undefined} aria-label={r.label}
            onClick={click} onKeyDown={click && ((e: KeyboardEvent) => {
              if (e.key === "Enter" || e.key === " ") { e.preventDefault(); click(); }
            })}>
            <circle r={R} class="kit-region-area" style={{ fill: fill?.(r.id) }} />
            <text class="kit-region-label" y={4} text-anchor="middle">{r.label}</text>
            {owners.map(([owner, n], i) => (
              <g key={owner} class="kit-region-pieces" data-testid="region-pieces" data-owner={owner} data-count={n}
                transform={`translate(${(i - (owners.length - 1) / 2) * 16},${R + 10})`}>
                <circle r={7} fill={owner >= 0 ? seatColor(owner) : "#888"} />
                <text y={3} text-anchor="middle" class="kit-region-count">{n}</text>
              </g>
            ))}
          </g>
        );
      })}
    </svg>
  );
}
