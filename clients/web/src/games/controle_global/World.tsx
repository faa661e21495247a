// Contrôle Global's world: the map of regions as touching hexes (each with its name, development, stock and every player's cubes by category), its legend, and the regions one by one beside it; region targets of the published moves are clickable on both.
import { useState } from "preact/hooks";
import type { MovePick } from "../../ui/kit/MovePicker";
import { moveTargets } from "../../ui/kit/moves";
import { RegionMap, type RegionSpot } from "../../ui/kit/RegionMap";
import { useLastMove } from "../../ui/LastMove";
import { seatColor } from "../../ui/common";
import { useTextScope, type TextScope } from "../../ui/TextRender";
import type { Target } from "../../table";
import {
  CATEGORIES, CATEGORY_SLUG, Phase, RESOURCES, RESOURCE_SLUG, categoryWord, cubeTotal, nameLines, playerName, regionName, regionSpots,
  resourceWord, shortName, worldGraph, type RegionView, type StaticData, type View,
} from "./model";

type Data = StaticData | undefined;

export const RESOURCE_ICON: Readonly<Record<string, string>> = { raw_materials: "⛏", energy: "⚡", food: "🌾" };
const icon = (res: number) => RESOURCE_ICON[RESOURCE_SLUG[res]] ?? "•";

export function Resources({ amounts, testid }: { amounts: readonly number[]; testid: string }) {
  const scope = useTextScope();
  return (
    <span class="cg-res" data-testid={testid}>
      {RESOURCES.map((r, i) => (
        <span key={r} class={`cg-res-one r-${RESOURCE_SLUG[r]}`} data-resource={RESOURCE_SLUG[r]} data-count={amounts[i] ?? 0}
          title={`${amounts[i] ?? 0} ${resourceWord(scope, r)}`}>
          <i aria-hidden="true">{icon(r)}</i>{amounts[i] ?? 0}
        </span>
      ))}
    </span>
  );
}

/** The seats with cubes in a region, in seat order, and what they hold there by category. */
function presentIn(r: RegionView) {
  return (r.cubes ?? []).map((c, seat) => ({ seat, by: CATEGORIES.map((_, k) => c.by_category?.[k] ?? 0), total: cubeTotal(c) }))
    .filter((p) => p.total > 0);
}

function cubesWords(scope: TextScope, by: readonly number[]): string {
  return CATEGORIES.map((c, k) => (by[k] ? `${by[k]} ${categoryWord(scope, c)}` : "")).filter(Boolean).join(", ");
}

// Map units (a cell's corner is CELL = 100 from its centre): a row of cubes is a player's marker
// and one square per category held, so six rows of six fit above the bottom edge.
const CUBE_W = 18, ROWS_TOP = -22, ROWS_SPACE = 102;

/** Inside a region on the map: all of it on a wide screen, its name, development and totals on a phone (CSS picks one). */
function RegionBody({ r, i, data, names }: { r: RegionView; i: number; data: Data; names: string[] }) {
  const scope = useTextScope();
  const name = regionName(data, r, i);
  const lines = nameLines(name);
  const present = presentIn(r);
  const rowH = Math.min(18, ROWS_SPACE / Math.max(1, present.length));
  const top = Math.max(ROWS_TOP, 28 - (present.length * rowH) / 2);
  const h = rowH - 2;
  return (
    <g class="cg-map-body">
      <g class="cg-map-full">
        {lines.map((l, k) => (
          <text key={k} class="cg-map-name" y={lines.length === 1 ? -54 : -64 + k * 15} text-anchor="middle">{l}</text>
        ))}
        <text class="cg-map-stats" y={-33} text-anchor="middle">
          <tspan class="cg-map-dev">◆{r.development}</tspan>
          {RESOURCES.map((res, k) => <tspan key={res} dx={7}>{icon(res)}{r.stock?.[k] ?? 0}</tspan>)}
        </text>
        {present.map(({ seat, by, total }, k) => {
          const held = CATEGORIES.map((c, j) => ({ c, n: by[j] })).filter((x) => x.n > 0);
          const x0 = -(14 + held.length * CUBE_W) / 2;
          return (
            <g key={seat} class="cg-map-row" data-testid="region-pieces" data-owner={seat} data-count={total}
              transform={`translate(0,${(top + (k + 0.5) * rowH).toFixed(1)})`}>
              <title>{`${playerName(names, seat)}: ${cubesWords(scope, by)}`}</title>
              <circle cx={x0 + 6} r={Math.min(7, h / 2 + 0.5)} fill={seatColor(seat)} />
              <text class="cg-map-initial" x={x0 + 6} y={3} text-anchor="middle">{playerName(names, seat).charAt(0)}</text>
              {held.map(({ c, n }, j) => (
                <g key={c} class={`cg-map-cube c-${CATEGORY_SLUG[c]}`} data-category={CATEGORY_SLUG[c]} data-count={n}
                  transform={`translate(${x0 + 14 + j * CUBE_W},0)`}>
                  <rect y={-h / 2} width={CUBE_W - 1} height={h} rx={2} />
                  <text x={(CUBE_W - 1) / 2} y={h * 0.3} text-anchor="middle">{n}</text>
                </g>
              ))}
            </g>
          );
        })}
      </g>
      <g class="cg-map-short" aria-hidden="true">
        <text class="cg-map-name" y={-40} text-anchor="middle">{shortName(name, 8)}</text>
        <text class="cg-map-dev" y={-6} text-anchor="middle">◆{r.development}</text>
        {present.map(({ seat, total }, k) => {
          const inRow = Math.min(3, present.length - Math.floor(k / 3) * 3);
          return (
            <g key={seat} transform={`translate(${((k % 3) - (inRow - 1) / 2) * 40},${k < 3 ? 22 : 58})`}>
              <circle r={18} fill={seatColor(seat)} />
              <text y={8} text-anchor="middle">{total}</text>
            </g>
          );
        })}
      </g>
    </g>
  );
}

function RegionCard({ r, i, view, data, names, targets, onTarget }: {
  r: RegionView; i: number; view: View; data: Data; names: string[]; targets: ReadonlySet<string>; onTarget: (t: Target) => void;
}) {
  const scope = useTextScope();
  const m = useLastMove<View>()((v) => v.regions?.[i]);
  const present = presentIn(r);
  const target = targets.has(String(i));
  const picked = (view.seats ?? []).map((s, seat) => ({ s, seat })).filter(({ s }) => (s.regions_picked ?? []).includes(i));
  return (
    <article class={`cg-region ${target ? "target" : ""}${m.cls}`} data-testid="region-card" data-region={i} data-development={r.development}
      title={m.text} {...m.attrs}>
      <header>
        <b class="cg-region-name">{regionName(data, r, i)}</b>
        <span class="cg-dev" data-testid="development" title="Development">◆ {r.development}</span>
        <Resources amounts={r.stock ?? []} testid="stock" />
      </header>
      {picked.length > 0 && view.phase <= Phase.STARTING_HANDS && (
        <p class="cg-small">Starting pick of {picked.map(({ seat }) => playerName(names, seat)).join(" and ")}</p>
      )}
      {present.length === 0 ? <p class="cg-muted">No influence yet.</p> : (
        <table class="cg-cubes">
          <thead>
            <tr><th />{CATEGORIES.map((c) => <th key={c} class={`c-${CATEGORY_SLUG[c]}`} title={categoryWord(scope, c)}>{categoryWord(scope, c).slice(0, 3)}</th>)}</tr>
          </thead>
          <tbody>
            {present.map(({ seat, by }) => (
              <tr key={seat} data-testid="region-seat" data-seat={seat}>
                <th><span class="cg-dot" style={{ background: seatColor(seat) }} /> {playerName(names, seat)}</th>
                {CATEGORIES.map((cat, k) => (
                  <td key={cat} data-testid="cubes" data-seat={seat} data-category={CATEGORY_SLUG[cat]} data-count={by[k]}>
                    {by[k] ? by[k] : ""}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {target && (
        <button type="button" class="btn small cg-pick-region" data-testid="region-target" data-region={i} onClick={() => onTarget({ region: String(i) })}>
          Choose {regionName(data, r, i)}
        </button>
      )}
    </article>
  );
}

function Legend({ names, seats }: { names: string[]; seats: number }) {
  const scope = useTextScope();
  return (
    <p class="cg-legend" data-testid="map-legend">
      {Array.from({ length: seats }, (_, seat) => (
        <span key={`s${seat}`} class="cg-legend-one"><span class="cg-dot" style={{ background: seatColor(seat) }} />{playerName(names, seat)}</span>
      ))}
      {CATEGORIES.map((c) => (
        <span key={c} class={`cg-legend-one c-${CATEGORY_SLUG[c]}`}><i class="cg-legend-cube" />{categoryWord(scope, c)}</span>
      ))}
      <span class="cg-legend-one"><i class="cg-legend-sea" />no border (sea or mountains)</span>
    </p>
  );
}

export function World({ view, data, names, pick, onTarget }: { view: View; data: Data; names: string[]; pick: MovePick; onTarget: (t: Target) => void }) {
  const spots = regionSpots(view, data);
  const targets = moveTargets(pick.choices).regions;
  const regions = view.regions ?? [];
  // Darker for a more developed region, so the map reads like the list.
  const fill = (id: string) => {
    const d = regions[Number(id)]?.development ?? 1;
    return `hsl(38, 45%, ${Math.max(45, 88 - d * 7)}%)`;
  };
  const body = (s: RegionSpot) => {
    const i = Number(s.id);
    return regions[i] && <RegionBody r={regions[i]} i={i} data={data} names={names} />;
  };
  // Fitted to the board's width by default; larger on demand, then it scrolls inside its frame.
  const [large, setLarge] = useState(false);
  return (
    <section class="cg-world" data-testid="world" data-regions={spots.length}>
      <header class="cg-world-head">
        <h3>The world</h3>
        <button type="button" class="btn small" data-testid="map-zoom" aria-pressed={large} onClick={() => setLarge(!large)}>
          {large ? "Fit the map" : "Larger map"}
        </button>
      </header>
      <div class={`cg-map ${large ? "large" : ""}`} data-testid="map-frame">
        <RegionMap regions={spots} graph={worldGraph(view)} choices={pick.choices} fill={fill} body={body}
          onTarget={onTarget} ariaLabel="The world's regions" />
      </div>
      <Legend names={names} seats={(view.seats ?? []).length} />
      {/* The map says it all; the list opens by itself while a region is to be chosen, a button on each. */}
      <details class="cg-region-list" data-testid="region-list" open={targets.size > 0}>
        <summary>The regions one by one</summary>
        <div class="cg-regions">
          {regions.map((r, i) => (
            <RegionCard key={i} r={r} i={i} view={view} data={data} names={names} targets={targets} onTarget={onTarget} />
          ))}
        </div>
      </details>
    </section>
  );
}
