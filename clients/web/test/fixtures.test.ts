// Cross-checks the TypeScript applier against diffs computed by the C++ engine. The fixture file
// (JSON lines: {"view_type", "from", "ops", "to"}, binary fields in base64, "ops" a serialized
// plateau.v1.ViewDiff) is produced by a server-side tool; its path comes from
// PLATEAU_DIFF_FIXTURES.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { applyDiff } from "../src/diff";
import { type, ViewDiffType } from "../src/proto";

const file = process.env.PLATEAU_DIFF_FIXTURES;
const b64 = (s: string) => new Uint8Array(Buffer.from(s, "base64"));
const opts = { defaults: true, longs: String, bytes: String, enums: Number } as const;

describe("C++ diff fixtures", () => {
  if (!file) {
    it.skip("PLATEAU_DIFF_FIXTURES is not set: no C++ fixtures to check against", () => {});
    return;
  }
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "");
  it("the fixture file is not empty", () => {
    expect(lines.length).toBeGreaterThan(0);
  });
  lines.forEach((line, n) => {
    const fx = JSON.parse(line) as { view_type: string; from: string; ops: string; to: string };
    it(`line ${n + 1}: ${fx.view_type}`, () => {
      const T = type(fx.view_type);
      const view = T.decode(b64(fx.from));
      const diff = ViewDiffType.decode(b64(fx.ops)) as any;
      const before = T.toObject(view, opts);
      const got = applyDiff(T, view as any, diff.ops);
      const want = T.toObject(T.decode(b64(fx.to)), opts);
      expect(T.toObject(got, opts)).toEqual(want);
      // The result must also survive the wire, and the view it came from stay as it was.
      expect(T.toObject(T.decode(T.encode(got).finish()), opts)).toEqual(want);
      expect(T.toObject(view, opts)).toEqual(before);
    });
  });
});
