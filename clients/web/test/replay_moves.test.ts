import { describe, expect, it } from "vitest";
import { encode, type } from "../src/proto";
import { moveRows, originTag, rowIndexForStep, scrollToShow, type MoveRow, type ReplayMove } from "../src/replayMoves";
import { ActionOrigin } from "../src/store";
import type { Arg, Text } from "../src/table";
import { makeCatalogue, renderTextParts, type TextScope } from "../src/ui/TextRender";

const catalogue = makeCatalogue({
  templates: [
    { key: "core.moves", en: "{0} moves." },
    { key: "round", en: "Round {0} begins." },
    { key: "places", en: "{0} places {1}." },
    { key: "scores", en: "{0} scores {1|point|points}." },
    { key: "empty", en: "" },
  ],
});
const scope: TextScope = { catalogue, names: ["Alice", "Bob"], viewer: 1 };
const render = (t: Text) => renderTextParts(t, scope);

const T = (key: string, ...args: Arg[]): Text => ({ key, args });
const seat = (s: number): Arg => ({ seat: s });
const n = (x: number): Arg => ({ number: x });
const name = (s: string): Arg => ({ name: s });
const move = (step: number, s: number, words: Text[], origin: number = ActionOrigin.PLAYER): ReplayMove =>
  ({ step, seat: s, origin, words });

const game: ReplayMove[] = [
  move(0, -1, [T("round", n(1))]),
  move(1, 0, [T("places", seat(0), name("Peru")), T("scores", seat(0), n(2))]),
  move(2, 1, [T("core.moves", seat(1))], ActionOrigin.CLOCK),
  move(3, 0, [T("places", seat(0), name("Chad"))], ActionOrigin.STAND_IN),
];

describe("originTag", () => {
  it("tags every move its seat's player did not make, and only those", () => {
    expect(originTag(ActionOrigin.PLAYER)).toBe("");
    expect(originTag(undefined)).toBe("");
    expect(originTag(ActionOrigin.CLOCK)).toBe("timed out");
    expect(originTag(ActionOrigin.STAND_IN)).toBe("bot stand-in");
    expect(originTag(ActionOrigin.CLAIM)).toBe("claimed");
    expect(originTag(ActionOrigin.EXPIRED)).toBe("expired");
  });

  it("has a tag for every origin of the .proto but the player's", () => {
    const values = (type("plateau.v1.ReplayMove").fields.origin.resolve().resolvedType as any).values as Record<string, number>;
    for (const [k, v] of Object.entries(values)) {
      if (k === "ORIGIN_PLAYER") expect(originTag(v)).toBe("");
      else expect(originTag(v), k).not.toBe("");
    }
  });
});

describe("moveRows", () => {
  it("writes each move in words with the players' names, its phrases joined", () => {
    const rows = moveRows(game, render);
    expect(rows.map((r) => r.step)).toEqual([0, 1, 2, 3]);
    expect(rows.map((r) => r.text)).toEqual([
      "Round 1 begins.",
      "Alice places Peru. Alice scores 2 points.",
      "Bob moves.",
      "Alice places Chad.",
    ]);
    expect(rows.map((r) => r.tag)).toEqual(["", "", "timed out", "bot stand-in"]);
    expect(rows.map((r) => r.seat)).toEqual([-1, 0, 1, 0]);
  });

  it("keeps the seats in their own runs, the viewer's marked", () => {
    const [, first, second] = moveRows(game, render);
    expect(first.parts.filter((p) => p.seat != null).map((p) => [p.text, p.seat, !!p.you])).toEqual([["Alice", 0, false], ["Alice", 0, false]]);
    expect(second.parts[0]).toEqual({ text: "Bob", seat: 1, you: true });
  });

  it("skips phrases that write nothing instead of doubling spaces", () => {
    const [row] = moveRows([move(1, 0, [T("empty"), T("places", seat(0), name("Mali")), T("empty")])], render);
    expect(row.text).toBe("Alice places Mali.");
    expect(moveRows([move(1, 0, [T("empty")])], render)[0].parts).toEqual([]);
  });

  it("orders the rows by step and keeps one row a step", () => {
    const rows = moveRows([game[2], game[0], game[3], game[1], move(2, 0, [T("round", n(9))])], render);
    expect(rows.map((r) => r.step)).toEqual([0, 1, 2, 3]);
    expect(rows[2].text).toBe("Bob moves.");
  });

  it("has no rows without moves", () => {
    expect(moveRows(null, render)).toEqual([]);
    expect(moveRows([], render)).toEqual([]);
  });

  it("reads a Replay as the server encodes it", () => {
    const Replay = type("plateau.v1.Replay");
    const bytes = encode(Replay, {
      step: 2, seat: 1,
      moves: [
        { step: 0, seat: -1, words: [{ key: "round", args: [{ number: 1 }] }] },
        { step: 1, seat: 0, words: [{ key: "places", args: [{ seat: 0 }, { name: "Peru" }] }] },
        { step: 2, seat: 1, origin: ActionOrigin.EXPIRED, words: [{ key: "core.moves", args: [{ seat: 1 }] }] },
      ],
    });
    const decoded = Replay.decode(bytes) as unknown as { moves: ReplayMove[] };
    const rows = moveRows(decoded.moves, render);
    expect(rows.map((r) => [r.step, r.seat, r.text, r.tag])).toEqual([
      [0, -1, "Round 1 begins.", ""],
      [1, 0, "Alice places Peru.", ""],
      [2, 1, "Bob moves.", "expired"],
    ]);
  });

  it("follows the fields of plateau.v1.ReplayMove", () => {
    const fields = type("plateau.v1.ReplayMove").fieldsArray.map((f) => f.name).sort();
    const mine = { step: true, seat: true, origin: true, words: true } satisfies Record<keyof ReplayMove, true>;
    expect(fields).toEqual(Object.keys(mine).sort());
  });
});

describe("rowIndexForStep", () => {
  const rows = moveRows(game, render);

  it("finds the row of a step, the set-up's included", () => {
    for (let i = 0; i < rows.length; ++i) expect(rowIndexForStep(rows, rows[i].step)).toBe(i);
  });

  it("finds none for a step without a row", () => {
    expect(rowIndexForStep(rows, 4)).toBe(-1);
    expect(rowIndexForStep(rows, -1)).toBe(-1);
    expect(rowIndexForStep([], 0)).toBe(-1);
    // A game that wrote nothing as it was set up has no row for step 0.
    const noSetup: MoveRow[] = rows.slice(1);
    expect(rowIndexForStep(noSetup, 0)).toBe(-1);
    expect(rowIndexForStep(noSetup, 1)).toBe(0);
    expect(rowIndexForStep(noSetup, 3)).toBe(2);
  });
});

describe("scrollToShow", () => {
  it("leaves the box where it is when the row is seen whole", () => {
    expect(scrollToShow(100, 30, 80, 200)).toBe(80);
    expect(scrollToShow(250, 30, 80, 200)).toBe(80);
  });

  it("scrolls up to a row above, down to a row below, by the least", () => {
    expect(scrollToShow(40, 30, 80, 200)).toBe(40);
    expect(scrollToShow(270, 30, 80, 200)).toBe(100);
    expect(scrollToShow(0, 30, 500, 200)).toBe(0);
  });

  it("shows the top of a row taller than the box", () => {
    expect(scrollToShow(300, 250, 0, 200)).toBe(300);
  });
});
