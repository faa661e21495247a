import { describe, expect, it } from "vitest";
import { decode, encode, Long, type } from "../src/proto";
import type { Arg, Text } from "../src/table";
import { catalogueFor, makeCatalogue, renderText, renderTextParts, seatName, type TextScope } from "../src/ui/TextRender";

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

  it("writes the viewer's seat as you, capitalised at the start of a sentence", () => {
    // Templates do not conjugate: the verb stays as written.
    expect(renderText(T("attack", seat(1), seat(0), n(1)), scope)).toBe("You attacks Ann with 1 army.");
    expect(renderText(T("attack", seat(0), seat(1), n(2)), scope)).toBe("Ann attacks you with 2 armies.");
    expect(renderText(T("famine", name("Peru"), text(T("lose", seat(1), n(2)))), scope)).toBe("Famine in Peru: you loses 2 ranks.");
    expect(renderText(T("plain"), scope)).toBe("Nothing to fill.");
    // A spectator has no "you".
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

  it("marks the runs that name seats", () => {
    expect(renderTextParts(T("attack", seat(0), seat(1), n(2)), scope)).toEqual([
      { text: "Ann", seat: 0 }, { text: " attacks " }, { text: "you", seat: 1 }, { text: " with 2 armies." },
    ]);
  });

  it("reads decoded Texts (oneof defaults do not leak)", () => {
    const Text = type("plateau.v1.Text");
    const t = decode<Text>(Text, encode(Text, { key: "attack", args: [{ seat: 0 }, { seat: 2 }, { number: 0 }] }));
    expect(renderText(t, scope)).toBe("Ann attacks Cy with 0 armies.");
  });

  it("includes the core's texts, which a game may override", () => {
    expect(renderText(T("core.resigned", seat(2)), scope)).toBe("Cy resigns.");
    expect(renderText(T("core.answer.yes"), scope)).toBe("Yes");
    const own = makeCatalogue([{ key: "core.answer.yes", en: "Aye" }]);
    expect(renderText(T("core.answer.yes"), { ...scope, catalogue: own })).toBe("Aye");
    const src = { hello: "Hi {0}" };
    expect(catalogueFor(src)).toBe(catalogueFor(src));
    expect(renderText(T("hello", seat(0)), { ...scope, catalogue: catalogueFor(src) })).toBe("Hi Ann");
  });
});
