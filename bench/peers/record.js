#!/usr/bin/env node
// One line of bench/peers.sh's record of runs: client.js's JSON report (its last line of output)
// with the server's name and label, the configuration and the run's number, and whether the run
// counts (the client exited cleanly with actions accepted) or why not.
//
//   node record.js SERVER LABEL ROOMS MODE RUN STATUS SERVER_ALIVE CLIENT_OUT CLIENT_ERR
//   node record.js SERVER LABEL ROOMS MODE RUN --not-started
import fs from "node:fs";

const [server, label, rooms, mode, run, status, alive, out, err] = process.argv.slice(2);
const base = { server, label, rooms: Number(rooms), mode, run: Number(run) };
if (status === "--not-started") {
  console.log(JSON.stringify({ ...base, ok: false, error: "the server did not start" }));
  process.exit(0);
}
const read = (f) => {
  try {
    return fs.readFileSync(f, "utf8").trim();
  } catch {
    return "";
  }
};
let report = {};
try {
  report = JSON.parse(read(out).split("\n").pop());
} catch {
  // no report: the client failed before it printed one
}
const ok = status === "0" && report.accepted > 0;
const firstError = read(err).split("\n")[0];
const error = alive === "0" ? "the server died during the run" : `client.js exited with status ${status}: ${firstError}`;
console.log(JSON.stringify({ ...report, ...base, ok, error: ok ? undefined : error }));
