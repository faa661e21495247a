import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// Every source file of the client but src/gen: its types come from the .proto files, and an
// explicit `any` would let a field missing from the wire through unseen. tsconfig's `strict`
// already refuses an implicit one. A new game's folder is checked from its first file.
const SRC = join(__dirname, "..", "src");
const GEN = join(SRC, "gen");

function typedFiles(path: string = SRC): string[] {
  if (path === GEN) return [];
  if (statSync(path).isDirectory()) return readdirSync(path).flatMap((n) => typedFiles(join(path, n)));
  return /\.tsx?$/.test(path) ? [path] : [];
}

/** The code of a file with comments and string literals blanked (words in them are not types). */
function codeOnly(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " "))
    .replace(/(["'`])(?:\\.|(?!\1)[^\\\n])*\1/g, (s) => s[0] + " ".repeat(s.length - 2) + s[0])
    .replace(/\/\/.*$/gm, "");
}

// `any` where a type stands: after `:`, `<`, `,`, `|`, `&`, `(`, `=` or `as`, and followed by what
// may follow a type. JSX text ("from any player's point of view") is neither.
const ANY = /(?:[:<,|&(=]|\bas)\s*any\b(?=\s*(?:[)\];,>|&={]|\[\]|$))/m;

function anyLines(text: string): number[] {
  return codeOnly(text).split("\n").flatMap((line, i) => (ANY.test(line) ? [i + 1] : []));
}

describe("no any in the client's sources", () => {
  it("finds `any` as a type, and not in words", () => {
    expect(anyLines("let a: any;\nconst b = x as any;\nf<any>(y);\ntype T = Record<string, any>;\nlet c: any[] = [];"))
      .toEqual([1, 2, 3, 4, 5]);
    expect(anyLines("// if any\nconst s = \"any, one\";\n<p>from any player's view</p>\n/* any */")).toEqual([]);
  });

  it("has none", () => {
    const typed = typedFiles();
    expect(typed.length).toBeGreaterThan(50);
    const found = typed.flatMap((f) => anyLines(readFileSync(f, "utf8")).map((l) => `${relative(SRC, f)}:${l}`));
    expect(found).toEqual([]);
  });
});
