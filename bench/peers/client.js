#!/usr/bin/env node
// The independent Node client: rooms of two players against one server on this machine's
// loopback, closed loop or paced, and the server's CPU per accepted action over a measured window.
//
//   node client.js --target plateau|floor|nodews|colyseus --port P --server-pid PID
//                  [--rooms N] [--rate R] [--duration S] [--warmup S] [--procs K]
//                  [--game ID] [--no-check] [--json] [--verbose]
//
// plateau: plateau-server playing a game (Globalissimo by default) with two seats over the real
//   protocol, every Diff applied to each player's view, each move chosen from what that view
//   offers; at the end every view is compared with a fresh Snapshot (--no-check: not).
// floor: plateau-floor-server's trivial turn game; nodews: the same game served by
//   servers/ws_server.js; colyseus: servers/colyseus_server.js's turn game, through Colyseus's
//   own client SDK.
//
// Closed loop (no --rate): every room has exactly one move in flight, the next sent as soon as the
// mover sees its result. --rate R: R accepted actions a second in all, each room acting when its
// own timer says (one move per rooms/R seconds). After every room is set up and the games start,
// W seconds of warmup (default 3), then S measured seconds (default 15): the server's user+system
// CPU time (/proc/PID/stat) over the window divided by the actions accepted in it, and the
// latency from each move's send to its result. One process by default; --procs K splits the
// rooms (and the rate) over K processes.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Driver } from "./lib/driver.js";
import { quantile } from "./lib/metrics.js";
import { cpuSeconds } from "./lib/procstat.js";

const TARGETS = ["plateau", "floor", "nodews", "colyseus"];

function usage(why) {
  if (why) console.error(`client.js: ${why}`);
  console.error("usage: node client.js --target plateau|floor|nodews|colyseus --port P [--server-pid PID]\n" +
    "  [--rooms N] [--rate R] [--duration S] [--warmup S] [--procs K] [--game ID] [--no-check] [--json] [--verbose]");
  process.exit(2);
}

function parseArgs(argv) {
  const o = {
    target: "", port: 0, serverPid: 0, rooms: 100, rate: 0, duration: 15, warmup: 3, procs: 1,
    game: "globalissimo", check: true, json: false, verbose: false, setupTimeout: 120,
  };
  const num = (name, v, min) => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n < min) usage(`${name} wants a number of at least ${min}`);
    return n;
  };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    switch (a) {
      case "--target": o.target = argv[++i]; break;
      case "--port": o.port = num(a, argv[++i], 1); break;
      case "--server-pid": o.serverPid = num(a, argv[++i], 1); break;
      case "--rooms": o.rooms = num(a, argv[++i], 1); break;
      case "--rate": o.rate = num(a, argv[++i], 0); break;
      case "--duration": o.duration = num(a, argv[++i], 1); break;
      case "--warmup": o.warmup = num(a, argv[++i], 0); break;
      case "--procs": o.procs = num(a, argv[++i], 1); break;
      case "--setup-timeout": o.setupTimeout = num(a, argv[++i], 1); break;
      case "--game": o.game = argv[++i]; break;
      case "--no-check": o.check = false; break;
      case "--json": o.json = true; break;
      case "--verbose": o.verbose = true; break;
      case "-h": case "--help": usage(); break;
      default: usage(`unknown argument ${a}`);
    }
  }
  if (!TARGETS.includes(o.target)) usage("--target is one of " + TARGETS.join(", "));
  if (!o.port) usage("--port is needed");
  o.rooms = Math.floor(o.rooms);
  o.procs = Math.min(Math.floor(o.procs), o.rooms);
  return o;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The same calls on a Driver in this process or in a child process.
class LocalPart {
  constructor(opts) {
    this.driver = new Driver(opts);
    this.pid = process.pid;
  }
  setup() { return this.driver.setup(); }
  go() { this.driver.go(); }
  beginMeasure() { this.driver.beginMeasure(); }
  stopCounting() { this.driver.stopCounting(); }
  summary() { return this.driver.summary(); }
  stop() { return this.driver.stop(); }
}

class ChildPart {
  constructor(opts) {
    this.child = fork(fileURLToPath(import.meta.url), ["--child"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    this.pid = this.child.pid;
    this.waiting = new Map();
    this.child.on("message", (m) => {
      const w = this.waiting.get(m.reply);
      this.waiting.delete(m.reply);
      if (w) w(m.value);
    });
    this.child.on("exit", (code) => {
      if (code !== 0 && !this.stopped) {
        console.error(`client.js: a client process exited with status ${code}`);
        process.exit(1);
      }
    });
    this.child.send({ cmd: "init", opts });
  }
  call(cmd) {
    return new Promise((resolve) => {
      this.waiting.set(cmd, resolve);
      this.child.send({ cmd });
    });
  }
  setup() { return this.call("setup"); }
  go() { this.child.send({ cmd: "go" }); }
  // Answered once the child counts (or has stopped counting): the parent reads the server's CPU
  // between the answers, so the counting and the CPU windows match to an IPC round trip.
  beginMeasure() { return this.call("beginMeasure"); }
  stopCounting() { return this.call("stopCounting"); }
  summary() { return this.call("summary"); }
  async stop() {
    this.stopped = true;
    const v = await this.call("stop");
    this.child.disconnect();
    return v;
  }
}

function runChild() {
  let driver = null;
  process.on("disconnect", () => process.exit(0));  // the parent is gone: so is this run
  process.on("message", async (m) => {
    if (m.cmd === "init") driver = new Driver(m.opts);
    else if (m.cmd === "setup") process.send({ reply: "setup", value: await driver.setup() });
    else if (m.cmd === "go") driver.go();
    else if (m.cmd === "beginMeasure") {
      driver.beginMeasure();
      process.send({ reply: "beginMeasure", value: null });
    } else if (m.cmd === "stopCounting") {
      driver.stopCounting();
      process.send({ reply: "stopCounting", value: null });
    } else if (m.cmd === "summary") process.send({ reply: "summary", value: driver.summary() });
    else if (m.cmd === "stop") {
      process.send({ reply: "stop", value: await driver.stop() });
      setTimeout(() => process.exit(0), 100);
    }
  });
}

async function main() {
  const o = parseArgs(process.argv);
  const url = `ws://127.0.0.1:${o.port}`;
  const deadline = setTimeout(() => {
    console.error("client.js: the run passed its set-up time + warmup + duration + 30 s; giving up");
    process.exit(1);
  }, (o.setupTimeout + o.warmup + o.duration + 30) * 1000);
  deadline.unref();

  const parts = [];
  for (let k = 0; k < o.procs; k++) {
    const first = Math.floor((o.rooms * k) / o.procs);
    const count = Math.floor((o.rooms * (k + 1)) / o.procs) - first;
    // Each process paces its rooms as the whole run would: rooms/rate seconds between a room's moves.
    const opts = { target: o.target, url, game: o.game, rooms: o.rooms, rate: o.rate, first, count, verbose: o.verbose, check: o.check };
    parts.push(o.procs === 1 ? new LocalPart(opts) : new ChildPart(opts));
  }
  const clientPids = [process.pid, ...parts.filter((p) => p.pid !== process.pid).map((p) => p.pid)];
  const clientCpu = () => clientPids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);

  const launch = performance.now();
  const setupTimer = setTimeout(() => {
    console.error(`client.js: the rooms were not all set up in ${o.setupTimeout} s`);
    process.exit(1);
  }, o.setupTimeout * 1000);
  await Promise.all(parts.map((p) => p.setup()));
  clearTimeout(setupTimer);
  const setupSeconds = (performance.now() - launch) / 1000;
  for (const p of parts) p.go();

  await sleep(o.warmup * 1000);
  await Promise.all(parts.map((p) => p.beginMeasure()));
  const serverCpu0 = o.serverPid ? cpuSeconds(o.serverPid) : null;
  const clientCpu0 = clientCpu();
  const t0 = performance.now();
  await sleep(o.duration * 1000);
  await Promise.all(parts.map((p) => p.stopCounting()));
  const t1 = performance.now();
  const serverCpu1 = o.serverPid ? cpuSeconds(o.serverPid) : null;
  const clientCpu1 = clientCpu();
  const summaries = await Promise.all(parts.map((p) => p.summary()));
  const stops = await Promise.all(parts.map((p) => p.stop()));

  const seconds = (t1 - t0) / 1000;
  const accepted = summaries.reduce((s, x) => s + x.accepted, 0);
  const latencies = summaries.flatMap((x) => x.latencies).sort((a, b) => a - b);
  const refused = {};
  for (const x of summaries) for (const [k, v] of Object.entries(x.refused)) refused[k] = (refused[k] ?? 0) + v;
  const failures = summaries.flatMap((x) => x.failures);
  const roomsFailed = summaries.reduce((s, x) => s + x.roomsFailed, 0);
  const serverCpu = serverCpu0 != null && serverCpu1 != null ? serverCpu1 - serverCpu0 : null;
  const round = (x, d) => (x == null ? null : Number(x.toFixed(d)));
  const report = {
    target: o.target,
    rooms: o.rooms,
    mode: o.rate > 0 ? "paced" : "closed",
    target_rate: o.rate || null,
    procs: o.procs,
    setup_seconds: round(setupSeconds, 2),
    measured_seconds: round(seconds, 2),
    accepted,
    actions_per_second: round(accepted / seconds, 1),
    latency_p50_ms: round(quantile(latencies, 0.5), 3),
    latency_p99_ms: round(quantile(latencies, 0.99), 3),
    latency_p999_ms: round(quantile(latencies, 0.999), 3),
    server_cpu_us_per_action: serverCpu != null && accepted > 0 ? round((serverCpu * 1e6) / accepted, 1) : null,
    server_cpu_percent: serverCpu != null ? round((serverCpu / seconds) * 100, 1) : null,
    client_cpu_percent: round(((clientCpu1 - clientCpu0) / seconds) * 100, 1),
    refused,
    games_finished: summaries.reduce((s, x) => s + x.games, 0),
    diffs_applied: summaries.reduce((s, x) => s + x.diffsApplied, 0),
    views_checked: stops.reduce((s, x) => s + x.viewsChecked, 0),
    views_differing: stops.reduce((s, x) => s + x.viewsDiffering, 0),
    rooms_failed: roomsFailed,
    failures,
  };
  if (o.json) {
    console.log(JSON.stringify(report));
  } else {
    for (const [k, v] of Object.entries(report)) console.log(`${k.replaceAll("_", " ")}: ${typeof v === "object" && v !== null ? JSON.stringify(v) : v}`);
  }
  for (const f of failures) console.error(`client.js: ${f}`);
  const bad = roomsFailed > 0 || report.views_differing > 0 || accepted === 0;
  process.exit(bad ? 1 : 0);
}

if (process.argv[2] === "--child") runChild();
else main().catch((e) => {
  console.error(`client.js: ${e.stack ?? e}`);
  process.exit(1);
});
