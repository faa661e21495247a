import { describe, expect, it } from "vitest";
import { decode, encode, Long, type } from "../src/proto";
import {
  argCase, currentPrompt, int64String, promptsFor, PromptKind, registerOptionSets, tableOf, targetCase, toNumber,
  withOptions, type Answer, type Arg, type CoreAction, type Hex, type LogEntry, type OptionSet, type Prompt,
  type PromptOption, type Table,
  type Target, type Text, type TextCatalogue, type TextTemplate,
} from "../src/table";
import type { GameInfo } from "../src/store";

// Each list names every key of an interface (TypeScript refuses a missing or extra one), and the
// test compares it with the .proto: a field added, renamed or removed on either side fails here.
const FIELDS = {
  Text: { key: true, args: true, id: true } satisfies Record<keyof Text, true>,
  Arg: { value: true, number: true, seat: true, name: true, text: true } satisfies Record<keyof Arg, true>,
  TextTemplate: { key: true, en: true } satisfies Record<keyof TextTemplate, true>,
  TextCatalogue: { templates: true } satisfies Record<keyof TextCatalogue, true>,
  Hex: { q: true, r: true } satisfies Record<keyof Hex, true>,
  Target: { where: true, card: true, region: true, hex: true, seat: true, piece: true } satisfies Record<keyof Target, true>,
  PromptOption: { id: true, label: true, target: true } satisfies Record<keyof PromptOption, true>,
  Prompt: {
    id: true, seat: true, kind: true, title: true, detail: true, options: true, min: true, max: true,
    option_set: true,
  } satisfies Record<keyof Prompt, true>,
  OptionSet: { id: true, options: true } satisfies Record<keyof OptionSet, true>,
  Answer: { prompt_id: true, options: true, number: true, yes: true, text: true } satisfies Record<keyof Answer, true>,
  CoreAction: { kind: true, answer: true, resign: true } satisfies Record<keyof CoreAction, true>,
  LogEntry: { seq: true, text: true } satisfies Record<keyof LogEntry, true>,
  Table: { prompts: true, log: true, resigned: true, moves: true, moves_held: true } satisfies Record<keyof Table, true>,
};

describe("core view types", () => {
  for (const [name, keys] of Object.entries(FIELDS)) {
    it(`${name} has the fields (and oneofs) of plateau.v1.${name}`, () => {
      const t = type(`plateau.v1.${name}`);
      // A proto3 `optional` field's own oneof (`_id`) is protobufjs's, not a field of the type.
      const oneofs = t.oneofsArray.filter((o) => !(o.name.startsWith("_") && o.fieldsArray.length === 1 && `_${o.fieldsArray[0].name}` === o.name));
      const proto = [...t.fieldsArray.map((f) => f.name), ...oneofs.map((o) => o.name)].sort();
      expect(Object.keys(keys).sort()).toEqual(proto);
    });
  }

  it("GameInfo (src/store.ts) has the fields of plateau.v1.GameInfo, its catalogue included", () => {
    const keys = {
      id: true, title: true, min_seats: true, max_seats: true, options_type: true, action_type: true, view_type: true, texts: true,
      option_sets: true, static_type: true, static_data: true, timer_presets: true,
    } satisfies Record<Exclude<keyof GameInfo, "data">, true>;  // `data`: decoded by the client
    expect(Object.keys(keys).sort()).toEqual(type("plateau.v1.GameInfo").fieldsArray.map((f) => f.name).sort());
  });
});

const TableType = type("plateau.v1.Table");
const decoded = (o: Record<string, unknown>) => decode<Table>(TableType, encode(TableType, o));

describe("reading a decoded Table", () => {
  const t = decoded({
    prompts: [
      { id: "p1", seat: 1, kind: PromptKind.CHOOSE, title: { key: "k", args: [{ seat: 2 }, { number: 0 }, { name: "" }] },
        options: [{ id: "a", target: { hex: { q: 0, r: 0 } } }, { id: "b", target: { seat: 0 } }], min: 1, max: 2 },
      { id: "p2", seat: 0, kind: PromptKind.YES_NO },
    ],
    log: [{ seq: Long.fromString("9007199254740993", true), text: { key: "x" } }],
  });

  it("reads oneof cases, even when the set member holds its default", () => {
    const [seat, zero, empty] = t.prompts[0].title!.args;
    expect(argCase(seat)).toBe("seat");
    // The other members read their prototype defaults: only the case tells.
    expect(toNumber(seat.number)).toBe(0);
    expect(argCase(zero)).toBe("number");
    expect(argCase(empty)).toBe("name");
    expect(targetCase(t.prompts[0].options[0].target)).toBe("hex");
    expect(targetCase(t.prompts[0].options[1].target)).toBe("seat");
    expect(t.prompts[0].options[1].target!.seat).toBe(0);
  });

  it("reads objects built by hand as well", () => {
    expect(argCase({ text: { key: "k", args: [] } })).toBe("text");
    expect(argCase({})).toBeUndefined();
    expect(targetCase({ region: "fr" })).toBe("region");
    expect(targetCase(null)).toBeUndefined();
  });

  it("has absent messages as null and 64-bit numbers as Long", () => {
    expect(t.prompts[1].title).toBeNull();
    expect(t.prompts[1].options).toEqual([]);
    expect(toNumber(t.prompts[0].max)).toBe(2);
    expect(int64String(t.log[0].seq)).toBe("9007199254740993");
    expect(int64String(5)).toBe("5");
    expect(toNumber("12")).toBe(12);
  });

  it("finds the questions of a seat, the current one first", () => {
    expect(currentPrompt(t, 0)!.id).toBe("p2");
    expect(currentPrompt(t, 1)!.id).toBe("p1");
    expect(currentPrompt(t, 3)).toBeNull();
    expect(currentPrompt(t, -1)).toBeNull();
    expect(promptsFor(t, 1).map((p) => p.id)).toEqual(["p1"]);
    expect(promptsFor(t, -1)).toEqual([]);
  });

  it("gives a question naming an option set the set's options, as the same object each time", () => {
    const withSet = decoded({
      prompts: [{ id: "m1", seat: 0, kind: PromptKind.CHOOSE, option_set: "test.unknown_yet", min: 1, max: 1 }],
    });
    const before = currentPrompt(withSet, 0)!;
    expect(before.options).toEqual([]);  // the set has not arrived: nothing to choose yet
    registerOptionSets([{ id: "test.unknown_yet", options: [{ id: "250", label: null, target: { region: "250" } }] }]);
    const p = currentPrompt(withSet, 0)!;
    expect(p.options.map((o) => o.id)).toEqual(["250"]);
    expect(p.seat).toBe(0);  // a default read from the decoded message's prototype survives
    expect(toNumber(p.max)).toBe(1);
    expect(currentPrompt(withSet, 0)).toBe(p);
    expect(promptsFor(withSet, 0)[0]).toBe(p);
    // A question with its own options is itself.
    expect(withOptions(t.prompts[0])).toBe(t.prompts[0]);
  });

  it("reads a view without a table as an empty one", () => {
    expect(tableOf({}).prompts).toEqual([]);
    expect(tableOf(null).log).toEqual([]);
    expect(tableOf({ table: t })).toBe(t);
  });
});
