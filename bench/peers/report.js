#!/usr/bin/env node
// The table of bench/peers.sh: reads the runs it recorded (one JSON object a line: the server's
// label and client.js's report, or a failure) and prints one markdown row per server and
// configuration, with medians over the runs.
//
//   node report.js RUNS.jsonl
import fs from "node:fs";

const file = process.argv[2];
if (!file) {
  console.error("usage: node report.js RUNS.jsonl");
  process.exit(2);
}
const runs = fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));

const median = (xs) => {
  const v = xs.filter((x) => x != null && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
};
const fmt = (x, d) => (x == null ? "n/a" : x.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d }));

// Rows in the order the runs first met them: configuration by configuration, servers as asked.
const groups = new Map();
for (const r of runs) {
  const key = `${r.rooms} ${r.mode} ${r.server}`;
  if (!groups.has(key)) groups.set(key, { server: r.server, label: r.label, rooms: r.rooms, mode: r.mode, runs: [] });
  groups.get(key).runs.push(r);
}
const configKey = (g) => `${g.rooms} ${g.mode}`;
const configs = [...new Set([...groups.values()].map(configKey))];

const cpuOf = (g) => median(g.runs.filter((r) => r.ok).map((r) => r.server_cpu_us_per_action));
const floorCpu = new Map();
for (const g of groups.values()) if (g.server === "floor") floorCpu.set(configKey(g), cpuOf(g));

console.log("| server | rooms | mode | actions/s | CPU µs/action | each run | × floor | p50 ms | p99 ms | client CPU % |");
console.log("|---|---|---|---|---|---|---|---|---|---|");
const notes = [];
// A client near a whole core sets the pace: the server then runs below its capacity, its fixed
// costs per action unshared, and its row reads against another server's only with that said.
const CLIENT_BOUND_PERCENT = 90;
let clientBound = false;
for (const c of configs) {
  for (const g of groups.values()) {
    if (configKey(g) !== c) continue;
    const ok = g.runs.filter((r) => r.ok);
    const cpu = cpuOf(g);
    const floor = floorCpu.get(c);
    const ratio = cpu != null && floor ? fmt(cpu / floor, 2) : "n/a";
    const each = g.runs.map((r) => (r.ok ? fmt(r.server_cpu_us_per_action, 1) : "failed")).join(" / ");
    const client = median(ok.map((r) => r.client_cpu_percent));
    const bound = client != null && client >= CLIENT_BOUND_PERCENT;
    clientBound ||= bound;
    console.log(`| ${g.label} | ${g.rooms} | ${g.mode} | ${fmt(median(ok.map((r) => r.actions_per_second)), 0)} | ` +
      `${fmt(cpu, 1)} | ${each} | ${ratio} | ${fmt(median(ok.map((r) => r.latency_p50_ms)), 2)} | ` +
      `${fmt(median(ok.map((r) => r.latency_p99_ms)), 2)} | ${fmt(client, 0)}${bound ? " (client-bound)" : ""} |`);
    for (const r of g.runs) {
      if (!r.ok) notes.push(`- ${g.label}, ${g.rooms} rooms ${g.mode}, run ${r.run}: ${r.error ?? "failed"}`);
      const refused = Object.entries(r.refused ?? {}).map(([k, v]) => `${k} ${v}`).join(", ");
      if (r.ok && refused) notes.push(`- ${g.label}, ${g.rooms} rooms ${g.mode}, run ${r.run}: refused ${refused}`);
    }
  }
}
if (clientBound) {
  console.log("");
  console.log(`client-bound: the client ran at ${CLIENT_BOUND_PERCENT}% of a core or more, so it, not the server, set ` +
    "the pace; such a row measures the server below its capacity.");
}
const plateau = runs.filter((r) => r.server === "plateau" && r.ok);
if (plateau.length > 0) {
  const diffs = plateau.reduce((s, r) => s + (r.diffs_applied ?? 0), 0);
  const checked = plateau.reduce((s, r) => s + (r.views_checked ?? 0), 0);
  const differing = plateau.reduce((s, r) => s + (r.views_differing ?? 0), 0);
  const games = plateau.reduce((s, r) => s + (r.games_finished ?? 0), 0);
  console.log("");
  console.log(`Plateau's runs: ${diffs.toLocaleString("en-US")} Diffs applied by the client, ${games} games finished in the windows; ` +
    `at each run's end ${checked} views compared with a fresh Snapshot, ${differing} differing.`);
}
if (notes.length > 0) {
  console.log("");
  console.log("Notes:");
  for (const n of notes) console.log(n);
}
