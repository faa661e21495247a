import { describe, expect, it } from "vitest";
import { decode, encode, Long, type } from "../src/proto";
import type { Arg, Text } from "../src/table";
import { catalogueFor, makeCatalogue, renderText, renderTextParts, seatName, templateProblem, type TextScope } from "../src/ui/TextRender";

const catalogue = makeCatalogue({
  templates: [
    { key: "attack", en: "{0} attacks {1} with {2|army|armies}." },
    { key: "draw", en: "{0} draws {1|card|cards|-}: {2}." },
    { key: "famine", en: "Famine in {0}: {1}" },
    { key: "lose", en: "{0} loses {1|rank|ranks}." },
    { key: "short", en: "{0} and {3}" },
    { key: "plain", en: "Nothing to fill." },
    { key: "broken", en: "Half {0 and {x} and {0|one} and {0}" },
  ],
});
const scope: TextScope = { catalogue, names: ["Ann", "Bo", "Cy"], viewer: 1 };

const T = (key: string, ...args: Arg[]): Text => ({ key, args });
const seat = (s: number): Arg => ({ seat: s });
const n = (x: number): Arg => ({ number: x });
const name = (s: string): Arg => ({ name: s });
const text = (t: Text): Arg => ({ text: t });

describe("renderText", () => {
  it("fills arguments and writes seats with the players' names", () => {
    expect(renderText(T("attack", seat(0), seat(2), n(3)), scope)).toBe("Ann attacks Cy with 3 armies.");
  });

  it("writes the viewer's own seat with its name too (templates are written for names)", () => {
    expect(renderText(T("attack", seat(1), seat(0), n(1)), scope)).toBe("Bo attacks Ann with 1 army.");
    expect(renderText(T("attack", seat(0), seat(1), n(2)), scope)).toBe("Ann attacks Bo with 2 armies.");
    expect(renderText(T("famine", name("Peru"), text(T("lose", seat(1), n(2)))), scope)).toBe("Famine in Peru: Bo loses 2 ranks.");
    expect(renderText(T("plain"), scope)).toBe("Nothing to fill.");
    expect(renderText(T("lose", seat(1), n(1)), { ...scope, viewer: -1 })).toBe("Bo loses 1 rank.");
  });

  it("uses the singular for 1 and -1 only, and the word alone with |-", () => {
    expect(renderText(T("lose", seat(0), n(0)), scope)).toBe("Ann loses 0 ranks.");
    expect(renderText(T("lose", seat(0), n(-1)), scope)).toBe("Ann loses -1 rank.");
    expect(renderText(T("draw", seat(2), n(1), name("Oil")), scope)).toBe("Cy draws card: Oil.");
    expect(renderText(T("draw", seat(2), n(4), name("Oil")), scope)).toBe("Cy draws cards: Oil.");
    // Like the server: a plural of something else than a number counts 0.
    expect(renderText(T("lose", seat(0), name("x")), scope)).toBe("Ann loses 0 ranks.");
  });

  it("writes 64-bit numbers exactly", () => {
    expect(renderText(T("lose", seat(0), { number: Long.fromString("9007199254740993") }), scope)).toBe("Ann loses 9007199254740993 ranks.");
  });

  it("renders nested phrases", () => {
    const inner = T("lose", seat(2), n(2));
    expect(renderText(T("famine", name("Chad"), text(inner)), scope)).toBe("Famine in Chad: Cy loses 2 ranks.");
  });

  it("shows an unknown key with its arguments instead of failing", () => {
    expect(renderText(T("nope", seat(0), n(3), text(T("plain"))), scope)).toBe("[nope Ann 3 Nothing to fill.]");
    expect(renderText(T("nope"), scope)).toBe("[nope]");
  });

  it("marks a missing argument and keeps a malformed placeholder visible", () => {
    expect(renderText(T("short", name("a")), scope)).toBe("a and {?}");
    expect(renderText(T("broken", name("A")), scope)).toBe("Half {0 and {x} and {0|one} and A");
    expect(renderText(null, scope)).toBe("");
  });

  it("names an unknown seat by its number and cuts absurd nesting", () => {
    expect(seatName(5, scope)).toBe("Seat 6");
    let deep: Text = T("plain");
    for (let i = 0; i < 40; i++) deep = T("famine", name("x"), text(deep));
    expect(renderText(deep, scope)).toContain("…");
  });

  it("marks the runs that name seats, and the viewer's own", () => {
    expect(renderTextParts(T("attack", seat(0), seat(1), n(2)), scope)).toEqual([
      { text: "Ann", seat: 0 }, { text: " attacks " }, { text: "Bo", seat: 1, you: true }, { text: " with 2 armies." },
    ]);
    // A spectator's words mark nobody.
    expect(renderTextParts(T("attack", seat(0), seat(1), n(2)), { ...scope, viewer: -1 })[2]).toEqual({ text: "Bo", seat: 1 });
  });

  it("reads decoded Texts (oneof defaults do not leak)", () => {
    const Text = type("plateau.v1.Text");
    const t = decode<Text>(Text, encode(Text, { key: "attack", args: [{ seat: 0 }, { seat: 2 }, { number: 0 }] }));
    expect(renderText(t, scope)).toBe("Ann attacks Cy with 0 armies.");
  });

  it("knows only the templates it is given (the server's catalogue holds the core's)", () => {
    // No template of its own: without the server's catalogue a core phrase shows as its key.
    expect(renderText(T("core.resigned", seat(2)), scope)).toBe("[core.resigned Cy]");
    const server = makeCatalogue({ templates: [{ key: "core.resigned", en: "{0} resigns." }, { key: "core.answer.yes", en: "Yes" }] });
    expect(renderText(T("core.resigned", seat(2)), { ...scope, catalogue: server })).toBe("Cy resigns.");
    // Several sources: a later one's key wins.
    const both = makeCatalogue({ templates: [{ key: "core.answer.yes", en: "Yes" }] }, [{ key: "core.answer.yes", en: "Aye" }]);
    expect(renderText(T("core.answer.yes"), { ...scope, catalogue: both })).toBe("Aye");
    const src = { hello: "Hi {0}" };
    expect(catalogueFor(src)).toBe(catalogueFor(src));
    expect(renderText(T("hello", seat(0)), { ...scope, catalogue: catalogueFor(src) })).toBe("Hi Ann");
  });

  it("reads the catalogue of a GameInfo as the client receives it (list_games)", () => {
    const GameInfo = type("plateau.v1.GameInfo");
    const wire = encode(GameInfo, {
      id: "g", texts: { templates: [{ key: "core.resigned", en: "{0} resigns." }, { key: "g.won", en: "{0} wins by {1|point|points}." }] },
    });
    // src/client.ts turns replies into plain objects this way.
    const info = GameInfo.toObject(GameInfo.decode(wire), { longs: Number, enums: Number, defaults: true, oneofs: true });
    const c = catalogueFor(info.texts);
    expect(renderText(T("g.won", seat(0), n(1)), { ...scope, catalogue: c })).toBe("Ann wins by 1 point.");
    expect(renderText(T("core.resigned", seat(1)), { ...scope, catalogue: c })).toBe("Bo resigns.");
    // A server without the field: no words, keys shown.
    const bare = GameInfo.toObject(GameInfo.decode(encode(GameInfo, { id: "g" })), { defaults: true });
    expect(renderText(T("g.won", seat(0), n(2)), { ...scope, catalogue: catalogueFor(bare.texts) })).toBe("[g.won Ann 2]");
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
