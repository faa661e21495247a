// The table's phrases given their keys back from their numbers (src/text_ids.ts): log, questions,
// moves and nested phrases, and nothing written to what an earlier view shares.
import { describe, expect, it } from "vitest";
import { applyDiff } from "../src/diff";
import { encode, type } from "../src/proto";
import { catalogueKeys, keyTexts } from "../src/text_ids";
import { makeCatalogue, renderText } from "../src/ui/TextRender";
import type { TextCatalogue } from "../src/gen/plateau/v1/table";

const texts: TextCatalogue = {
  templates: [
    { key: "g.plays", en: "{0} plays {1}." },
    { key: "g.why", en: "because {0}" },
    { key: "g.move", en: "Play {0}" },
  ],
};
const keys = catalogueKeys(texts);
const T = (id: number, ...args: object[]) => ({ key: "", id, args });

describe("text ids", () => {
  it("numbers the catalogue from 1, once per catalogue", () => {
    expect(keys).toEqual(["g.plays", "g.why", "g.move"]);
    expect(catalogueKeys(texts)).toBe(keys);
    expect(catalogueKeys(null)).toEqual([]);
  });

  it("gives the log, the questions, the moves and nested phrases their keys", () => {
    const view = {
      table: {
        log: [{ seq: 1, text: T(1, { seat: 0 }, { text: T(2, { name: "x" }) }) }],
        prompts: [{ title: T(3), detail: T(2), options: [{ id: "a", label: T(1) }] }],
        moves: [{ key: "m", label: T(3), next_label: T(2), next: [{ key: "n", label: T(1), next: [] }] }],
      },
    };
    keyTexts(view, keys);
    const t = view.table;
    expect(t.log[0].text.key).toBe("g.plays");
    expect((t.log[0].text.args[1] as { text: { key: string } }).text.key).toBe("g.why");
    expect([t.prompts[0].title.key, t.prompts[0].detail.key, t.prompts[0].options[0].label.key]).toEqual(["g.move", "g.why", "g.plays"]);
    expect([t.moves[0].label.key, t.moves[0].next_label.key, t.moves[0].next[0].label.key]).toEqual(["g.move", "g.why", "g.plays"]);
  });

  it("leaves keyed phrases, unknown numbers and views without a table alone", () => {
    const view = { table: { log: [{ text: { key: "core.moves", args: [] } }, { text: T(9) }] } };
    keyTexts(view, keys);
    expect(view.table.log[0].text.key).toBe("core.moves");
    expect(view.table.log[1].text.key).toBe("");
    expect(() => keyTexts({}, keys)).not.toThrow();
  });

  it("a number a Diff changes gets its new key on the new objects only", () => {
    const Table = type("plateau.v1.Table");
    const before = Table.decode(encode(Table, { log: [{ seq: 1, text: { id: 1 } }], prompts: [{ id: "p", title: { id: 1 } }] })) as unknown as { table?: unknown };
    const view = { table: before } as unknown as object;
    keyTexts(view, keys);
    const root = type("plateau.v1.Table");
    // The title's number changes in place (set_scalar on Prompt.title.id).
    const after = applyDiff(root, before as object, [{ path: [1, 0, 4, 3], set_scalar: { uint_value: 3 } }]);
    keyTexts({ table: after }, keys);
    const prompts = (x: object) => (x as { prompts: { title: { key: string } }[] }).prompts;
    expect(prompts(after)[0].title.key).toBe("g.move");
    expect(prompts(before as object)[0].title.key).toBe("g.plays");
  });

  it("a phrase still without its key is put into words by its number", () => {
    const words = renderText(T(1, { name: "Ada" }, { name: "x" }), { catalogue: makeCatalogue(texts), names: [], viewer: -1 });
    expect(words).toBe("Ada plays x.");
  });
});
