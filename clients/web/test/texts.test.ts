import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { engineTexts, parseTextCatalogue, TextFormatError } from "../src/texts";
import { makeCatalogue, renderText, templateProblem } from "../src/ui/TextRender";

const gamesDir = new URL("../../../engine/games/", import.meta.url);
const gamesWithTexts = readdirSync(gamesDir).filter((g) => {
  try {
    readFileSync(new URL(`${g}/data/texts.textproto`, gamesDir));
    return true;
  } catch {
    return false;
  }
});

describe("the engine's catalogues", () => {
  it("are all loaded at build time, by game id", () => {
    for (const g of gamesWithTexts) {
      const c = engineTexts(g);
      expect(c, g).toBeDefined();
      const keys = c!.templates.map((t) => t.key);
      expect(keys.length, g).toBeGreaterThan(0);
      // The server refuses duplicates and empty templates: so does this reading of them.
      expect(new Set(keys).size, g).toBe(keys.length);
      for (const t of c!.templates) expect(t.key && t.en, `${g}: ${t.key}`).toBeTruthy();
    }
    expect(engineTexts("no-such-game")).toBeUndefined();
  });

  it("hold only templates whose placeholders the client reads", () => {
    for (const g of gamesWithTexts) {
      for (const t of engineTexts(g)!.templates) expect(templateProblem(t.en), `${g}: ${t.key}: ${t.en}`).toBe("");
    }
  });

  it("put a logged phrase into words", () => {
    if (!gamesWithTexts.includes("globalissimo")) return;
    const t = engineTexts("globalissimo")!.templates.find((x) => x.key === "globalissimo.places");
    if (!t) return;
    const scope = { catalogue: makeCatalogue(engineTexts("globalissimo")), names: ["Ann", "Bo"], viewer: 1 };
    const words = renderText({ key: t.key, args: [{ seat: 0 }, { number: 3 }, { name: "Peru" }] }, scope);
    expect(words).toContain("Ann");
    expect(words).toContain("Peru");
    expect(words).not.toContain("{");
  });
});

describe("templateProblem", () => {
  it("accepts what CheckTemplate accepts and nothing else", () => {
    for (const ok of ["plain", "{0}", "{12} and {1|a|b}", "{0|card|cards|-}", "{0|||-}"]) expect(templateProblem(ok), ok).toBe("");
    for (const bad of ["{", "{x}", "{123}", "{0|one}", "{0|a|b|c}", "{0|a|b|-|x}", "{}", "a {0"]) {
      expect(templateProblem(bad), bad).not.toBe("");
    }
  });
});

describe("parseTextCatalogue", () => {
  it("reads the text format's variations", () => {
    const c = parseTextCatalogue(`
      # a comment
      templates { key: "a" en: "Say \\"hi\\"" }
      templates: { key: 'b', en: "caf\\303\\251 " "and \\x41\\u00e9" ; }
      templates < key: "c" en: "line\\nbreak" >,
      unknown_field: 12
      other { nested { deep: "x" } list: [1, 2] }
      templates { key: "d" en: "😀 {0}" extra: -3 sub { a: 1 } }
    `);
    expect(c.templates).toEqual([
      { key: "a", en: 'Say "hi"' },
      { key: "b", en: "café and Aé" },
      { key: "c", en: "line\nbreak" },
      { key: "d", en: "😀 {0}" },
    ]);
  });

  it("refuses broken text", () => {
    for (const bad of ['templates { key: "a', "templates { key: \"a\"", "templates key", '{ key: "a" }', "templates: 3"]) {
      expect(() => parseTextCatalogue(bad), bad).toThrow(TextFormatError);
    }
  });
});
