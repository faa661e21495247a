// Writes clients/cli/data/world_regions.txt: the outline of every region of the world map the web
// client draws (world-atlas countries-110m, Natural Earth's public-domain data), so the terminal
// client can tell which country a point in latitude and longitude falls in. Run from the
// repository root after `npm ci` in clients/web:
//   node clients/cli/tools/world_regions.mjs > clients/cli/data/world_regions.txt
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const require = createRequire(new URL("../../web/package.json", import.meta.url));
const { feature } = require("topojson-client");
const atlas = JSON.parse(readFileSync(require.resolve("world-atlas/countries-110m.json"), "utf8"));
const countries = feature(atlas, atlas.objects.countries).features;

const lines = [
  "# Region outlines of the world map (world-atlas 2.0.2 countries-110m, from Natural Earth, public domain).",
  "# One region per line: its map number, then its rings separated by ';', each ring a list of",
  "# longitude latitude pairs in hundredths of a degree. Written by clients/cli/tools/world_regions.mjs.",
];
const byId = new Map();
for (const f of countries) {
  if (f.id == null || !f.geometry) continue;  // unnumbered shapes (Kosovo, Northern Cyprus...) are no answer
  const polys = f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates;
  const rings = byId.get(f.id) ?? [];
  for (const poly of polys) {
    for (const ring of poly) {
      rings.push(ring.map(([lon, lat]) => `${Math.round(lon * 100)} ${Math.round(lat * 100)}`).join(" "));
    }
  }
  byId.set(f.id, rings);
}
for (const id of [...byId.keys()].sort()) lines.push(`${id} ${byId.get(id).join(";")}`);
process.stdout.write(lines.join("\n") + "\n");
