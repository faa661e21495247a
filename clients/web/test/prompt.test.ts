import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decode, encode, Long, protobuf } from "../src/proto";
import { PromptKind, type Answer, type Prompt, type PromptOption } from "../src/table";
import {
  answerAction, answerProblem, coreField, draftAnswer, draftProblem, initialDraft, moveItem, optionClick, optionForTarget,
  parseWhole, promptTargets, resignAction, singleChoice, targetKey, textLength, toggleChoice, yesNoAnswer,
} from "../src/ui/prompt";

const opt = (id: string, target: PromptOption["target"] = null): PromptOption => ({ id, label: { key: `opt.${id}`, args: [] }, target });

function prompt(kind: number, over: Partial<Prompt> = {}): Prompt {
  return { id: "p7", seat: 0, kind, title: { key: "q", args: [] }, detail: null, options: [], min: 1, max: 1, option_set: "", ...over };
}

const answer = (over: Partial<Answer> = {}): Answer => ({ prompt_id: "p7", options: [], number: 0, yes: false, text: "", ...over });

describe("answer validity (CheckAnswer)", () => {
  const choose = prompt(PromptKind.CHOOSE, { options: [opt("a"), opt("b"), opt("c")], min: 1, max: 2 });

  it("CHOOSE: a count within min..max of distinct, offered ids", () => {
    expect(answerProblem(choose, answer({ options: ["a"] }))).toBe("");
    expect(answerProblem(choose, answer({ options: ["c", "a"] }))).toBe("");
    expect(answerProblem(choose, answer({ options: [] }))).toBe("Choose from 1 to 2.");
    expect(answerProblem(choose, answer({ options: ["a", "b", "c"] }))).toBe("Choose from 1 to 2.");
    expect(answerProblem(choose, answer({ options: ["a", "z"] }))).toBe('"z" is not one of the choices.');
    expect(answerProblem(choose, answer({ options: ["a", "a"] }))).toBe("A choice is named twice.");
    const exactly = { ...choose, min: 2, max: 2 };
    expect(answerProblem(exactly, answer({ options: ["a"] }))).toBe("Choose exactly 2.");
    // Zero allowed: choosing nothing is an answer.
    expect(answerProblem({ ...choose, min: 0 }, answer())).toBe("");
  });

  it("ORDER: every option exactly once", () => {
    const order = prompt(PromptKind.ORDER, { options: [opt("a"), opt("b"), opt("c")] });
    expect(answerProblem(order, answer({ options: ["c", "a", "b"] }))).toBe("");
    for (const bad of [["a", "b"], ["a", "b", "b"], ["a", "b", "z"], ["a", "b", "c", "a"]]) {
      expect(answerProblem(order, answer({ options: bad })), bad.join()).toBe("Put every item in the order, each once.");
    }
  });

  it("NUMBER: within min..max (64-bit bounds read)", () => {
    const num = prompt(PromptKind.NUMBER, { min: Long.fromNumber(-2), max: Long.fromNumber(5) });
    expect(answerProblem(num, answer({ number: -2 }))).toBe("");
    expect(answerProblem(num, answer({ number: 5 }))).toBe("");
    expect(answerProblem(num, answer({ number: 6 }))).toBe("Give a number from -2 to 5.");
    expect(answerProblem(num, answer({ number: Long.fromNumber(-3) }))).toBe("Give a number from -2 to 5.");
  });

  it("YES_NO: either", () => {
    const yn = prompt(PromptKind.YES_NO);
    expect(answerProblem(yn, yesNoAnswer(yn, true))).toBe("");
    expect(answerProblem(yn, yesNoAnswer(yn, false))).toBe("");
    expect(yesNoAnswer(yn, true)).toEqual({ prompt_id: "p7", options: [], number: 0, yes: true, text: "" });
  });

  it("TEXT: length in characters after trimming spaces and tabs", () => {
    const txt = prompt(PromptKind.TEXT, { min: 2, max: 4 });
    expect(answerProblem(txt, answer({ text: "ab" }))).toBe("");
    expect(answerProblem(txt, answer({ text: " \t a \t" }))).toBe("The answer is empty or too short.");
    expect(answerProblem(txt, answer({ text: "abcde" }))).toBe("The answer is longer than 4 characters.");
    // Code points, like the server's UTF-8 count: an emoji is one character, not two.
    expect(textLength("😀😀😀😀")).toBe(4);
    expect(answerProblem(txt, answer({ text: "😀😀😀😀" }))).toBe("");
    expect(textLength("  é \n")).toBe(3); // only spaces and tabs are trimmed
  });

  it("refuses an answer to another prompt, and unknown kinds", () => {
    expect(answerProblem(choose, answer({ prompt_id: "p6", options: ["a"] }))).toMatch(/already answered/);
    expect(answerProblem(choose, answer({ prompt_id: "", options: ["a"] }))).toBe("");
    expect(answerProblem(prompt(PromptKind.KIND_UNSPECIFIED), answer())).toBe("This question cannot be answered.");
    expect(answerProblem(prompt(42), answer())).toBe("This question cannot be answered.");
  });
});

describe("drafts", () => {
  it("starts from nothing chosen, the options' order, the lowest number, no text", () => {
    const p = prompt(PromptKind.ORDER, { options: [opt("x"), opt("y")] });
    expect(initialDraft(p)).toEqual({ chosen: [], order: ["x", "y"], number: "1", text: "" });
    expect(initialDraft(prompt(PromptKind.NUMBER, { min: -5, max: 5 })).number).toBe("0");
    expect(initialDraft(prompt(PromptKind.NUMBER, { min: 3, max: 9 })).number).toBe("3");
    expect(initialDraft(prompt(PromptKind.NUMBER, { min: -9, max: -3 })).number).toBe("-9");
  });

  it("makes the Answer of each kind with all five fields", () => {
    const d = { chosen: ["b"], order: ["y", "x"], number: " 4 ", text: "  Paris\t" };
    expect(draftAnswer(prompt(PromptKind.CHOOSE), d)).toEqual({ prompt_id: "p7", options: ["b"], number: 0, yes: false, text: "" });
    expect(draftAnswer(prompt(PromptKind.ORDER), d).options).toEqual(["y", "x"]);
    expect(draftAnswer(prompt(PromptKind.NUMBER), d).number).toBe(4);
    expect(draftAnswer(prompt(PromptKind.TEXT), d).text).toBe("Paris");
  });

  it("keeps a NUMBER that is not a whole number from being sent", () => {
    const p = prompt(PromptKind.NUMBER, { min: 0, max: 10 });
    const d = initialDraft(p);
    for (const bad of ["", "-", "1.5", "1e3", "abc"]) expect(draftProblem(p, { ...d, number: bad }), bad).toBe("Give a whole number.");
    expect(draftProblem(p, { ...d, number: "11" })).toBe("Give a number from 0 to 10.");
    expect(draftProblem(p, { ...d, number: "10" })).toBe("");
    expect(parseWhole("-7")).toBe(-7);
    expect(parseWhole("99999999999999999999")).toBeNull();
  });

  it("submit stays disabled until a CHOOSE draft has enough options", () => {
    const p = prompt(PromptKind.CHOOSE, { options: [opt("a"), opt("b"), opt("c")], min: 2, max: 3 });
    let d = initialDraft(p);
    expect(draftProblem(p, d)).toBe("Choose from 2 to 3.");
    d = { ...d, chosen: toggleChoice(p, d.chosen, "a") };
    expect(draftProblem(p, d)).not.toBe("");
    d = { ...d, chosen: toggleChoice(p, d.chosen, "c") };
    expect(draftProblem(p, d)).toBe("");
  });

  it("toggles choices: radio replaces, checkboxes toggle up to the most allowed", () => {
    const one = prompt(PromptKind.CHOOSE, { options: [opt("a"), opt("b")], min: 1, max: 1 });
    expect(singleChoice(one)).toBe(true);
    expect(toggleChoice(one, ["a"], "b")).toEqual(["b"]);
    expect(toggleChoice(one, ["a"], "a")).toEqual([]);
    const two = prompt(PromptKind.CHOOSE, { options: [opt("a"), opt("b"), opt("c")], min: 0, max: 2 });
    expect(singleChoice(two)).toBe(false);
    expect(toggleChoice(two, ["a"], "b")).toEqual(["a", "b"]);
    expect(toggleChoice(two, ["a", "b"], "c")).toEqual(["a", "b"]);
    expect(toggleChoice(two, ["a", "b"], "a")).toEqual(["b"]);
    expect(toggleChoice(two, [], "zz")).toEqual([]);
  });

  it("moves ORDER items up and down within the list", () => {
    expect(moveItem(["a", "b", "c"], 2, -1)).toEqual(["a", "c", "b"]);
    expect(moveItem(["a", "b", "c"], 0, 1)).toEqual(["b", "a", "c"]);
    expect(moveItem(["a", "b", "c"], 0, -1)).toEqual(["a", "b", "c"]);
    expect(moveItem(["a", "b", "c"], 2, 5)).toEqual(["a", "b", "c"]);
    const before = ["a", "b"];
    moveItem(before, 0, 1);
    expect(before).toEqual(["a", "b"]);
  });
});

describe("board targets", () => {
  const p = prompt(PromptKind.CHOOSE, {
    options: [
      opt("h1", { hex: { q: 2, r: -1 } }), opt("fr", { region: "FR" }), opt("c9", { card: "c9" }), opt("s1", { seat: 1 }),
      opt("pc", { piece: "u3" }), opt("dup", { hex: { q: 2, r: -1 } }), opt("none"),
    ],
  });

  it("collects the options' targets by kind, the first option owning a target", () => {
    const t = promptTargets(p);
    expect([...t.hexes]).toEqual(["2,-1"]);
    expect([...t.regions]).toEqual(["FR"]);
    expect([...t.cards]).toEqual(["c9"]);
    expect([...t.seats]).toEqual([1]);
    expect([...t.pieces]).toEqual(["u3"]);
    expect(optionForTarget(t, { hex: { q: 2, r: -1 } })).toBe("h1");
    expect(optionForTarget(t, "region:FR")).toBe("fr");
    expect(optionForTarget(t, { seat: 0 })).toBeUndefined();
    expect(targetKey({ seat: 0 })).toBe("seat:0");
    expect(targetKey(null)).toBeNull();
  });

  it("computes them once per prompt object", () => {
    expect(promptTargets(p)).toBe(promptTargets(p));
    expect(promptTargets(prompt(PromptKind.YES_NO)).hexes.size).toBe(0);
    expect(promptTargets(null).option.size).toBe(0);
  });

  it("answers a single choice at once from a board click, and toggles among several", () => {
    const d = initialDraft(p);
    const r = optionClick(p, d, "fr");
    expect(r.answer).toEqual({ prompt_id: "p7", options: ["fr"], number: 0, yes: false, text: "" });
    const multi = { ...p, min: 1, max: 3 };
    const r1 = optionClick(multi, d, "fr");
    expect(r1.answer).toBeUndefined();
    expect(r1.draft.chosen).toEqual(["fr"]);
    expect(optionClick(multi, r1.draft, "fr").draft.chosen).toEqual([]);
    expect(optionClick(multi, d, "nope").draft).toBe(d);
    const order = prompt(PromptKind.ORDER, { options: [opt("a")] });
    expect(optionClick(order, initialDraft(order), "a").answer).toBeUndefined();
  });
});

describe("wrapping into the game's Action", () => {
  const root = new protobuf.Root();
  protobuf.parse(readFileSync(new URL("../../../proto/plateau/v1/table.proto", import.meta.url), "utf8"), root, { keepCase: true });
  protobuf.parse(`
    syntax = "proto3";
    package t;
    import "plateau/v1/table.proto";
    message Move { int32 x = 1; }
    message Action { oneof kind { Move move = 1; plateau.v1.CoreAction core = 9; } }
    message Other { oneof kind { Move move = 1; plateau.v1.CoreAction table_core = 3; } }
    message Both { plateau.v1.CoreAction extra = 1; plateau.v1.CoreAction core = 2; }
    message Without { Move move = 1; repeated plateau.v1.CoreAction many = 2; }
  `, root, { keepCase: true });
  root.resolveAll();
  const Action = root.lookupType("t.Action");

  it("sets {core: {answer}} and survives the wire", () => {
    const a = answerAction(Action, { prompt_id: "p7", options: ["x", "y"], number: 3, yes: true, text: "hi" });
    expect(a).toEqual({ core: { answer: { prompt_id: "p7", options: ["x", "y"], number: 3, yes: true, text: "hi" } } });
    const back = decode<any>(Action, encode(Action, a));
    expect(back.kind).toBe("core");
    expect(back.core.kind).toBe("answer");
    expect(back.core.answer.options).toEqual(["x", "y"]);
    expect(back.core.answer.number.toNumber()).toBe(3);
    expect(back.core.answer.yes).toBe(true);
  });

  it("sets {core: {resign: {}}}", () => {
    const a = resignAction(Action);
    expect(a).toEqual({ core: { resign: {} } });
    const back = decode<any>(Action, encode(Action, a));
    expect(back.core.kind).toBe("resign");
  });

  it("finds the field by its type, preferring the one named core", () => {
    expect(coreField(root.lookupType("t.Other")).name).toBe("table_core");
    expect(coreField(root.lookupType("t.Both")).name).toBe("core");
    expect(() => coreField(root.lookupType("t.Without"))).toThrow(/no plateau.v1.CoreAction field/);
  });
});
