#!/usr/bin/env node
// Holds lib/diff.js to the Diffs the C++ engine computes: each line of a file written by
// plateau-diff-fixtures (tests/conformance/diff_fixtures.cc) gives a view, a ViewDiff and the
// view after it; the ops are applied here and the result compared with the expected view.
//
//   build/bin/plateau-diff-fixtures /tmp/fixtures.jsonl 2
//   node bench/peers/test/diff_fixtures.js /tmp/fixtures.jsonl
import fs from "node:fs";
import { applyDiff, canonical } from "../lib/diff.js";
import { lookup } from "../lib/proto.js";

const file = process.argv[2];
if (!file) {
  console.error("usage: node test/diff_fixtures.js FIXTURES.jsonl");
  process.exit(2);
}
const ViewDiff = lookup("plateau.v1.ViewDiff");
const b64 = (s) => Buffer.from(s, "base64");
let passed = 0, failed = 0;
const byType = new Map();
for (const [n, line] of fs.readFileSync(file, "utf8").split("\n").entries()) {
  if (!line.trim()) continue;
  const fx = JSON.parse(line);
  const T = lookup(fx.view_type);
  const view = T.decode(b64(fx.from));
  let got;
  try {
    applyDiff(T, view, ViewDiff.decode(b64(fx.ops)).ops);
    // Compared as they are, and after a trip through the wire.
    const mine = JSON.stringify(canonical(T, view));
    const again = JSON.stringify(canonical(T, T.decode(T.encode(view).finish())));
    const want = JSON.stringify(canonical(T, T.decode(b64(fx.to))));
    got = mine === want && again === want ? "" : `differs:\n  got  ${mine.slice(0, 400)}\n  want ${want.slice(0, 400)}`;
  } catch (e) {
    got = `threw ${e.message}`;
  }
  byType.set(fx.view_type, (byType.get(fx.view_type) ?? 0) + 1);
  if (got === "") passed++;
  else {
    failed++;
    if (failed <= 3) console.error(`line ${n + 1} (${fx.view_type}): ${got}`);
  }
}
console.log(`${passed} passed, ${failed} failed (${[...byType].map(([t, c]) => `${t} ${c}`).join(", ")})`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
