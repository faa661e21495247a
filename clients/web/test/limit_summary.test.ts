import { describe, expect, it } from "vitest";
import { Long } from "../src/proto";
import type { Arg, LogEntry, Text } from "../src/table";
import { makeCatalogue, renderText, type TextScope } from "../src/ui/TextRender";
import {
  HIT_YOU_KEY, hitNoticeText, keptSummary, latestPhaseSummary, pendingHits, phaseTitle,
} from "../src/games/limit/summary";

const T = (key: string, ...args: Arg[]): Text => ({ key: `limit.log.${key}`, args });
const seat = (s: number): Arg => ({ seat: s });
const n = (x: number): Arg => ({ number: x });
const name = (s: string): Arg => ({ name: s });
const text = (t: Text): Arg => ({ text: t });
const cause = (c: string): Text => ({ key: `limit.cause.${c}`, args: [] });

/** Entries numbered from `first`, in order. */
function entries(first: number, ...texts: Text[]): LogEntry[] {
  return texts.map((t, i) => ({ seq: first + i, text: t }));
}

// Generation 2 of a two-nation game: Ann (0) and Bo (1), then the start of generation 3.
const generation2 = entries(10,
  T("generation", n(2), seat(1)),
  T("passes", seat(1)),
  T("passes", seat(0)),
  T("social_phase"),
  T("feeds", seat(0), n(5)),
  T("famine", seat(0), n(1), n(3)),
  T("disorder", seat(0), n(2), n(5), text(cause("famine"))),
  T("consumes", seat(0), n(2)),
  T("industrial_shortage", seat(0), n(2), n(4)),
  T("disorder", seat(0), n(5), n(9), text(cause("industrial_shortage"))),
  T("taxes", seat(0), n(6)),
  T("produces", seat(0), n(3), n(4), n(1), n(2), n(1)),
  T("fossil_shortage", seat(0), text({ key: "limit.res.military", args: [] })),
  T("revolt_spends", seat(0), n(2)),
  T("revolt_shortage", seat(0), n(1)),
  T("revolt", seat(0)),
  T("feeds", seat(1), n(3)),
  T("consumes", seat(1), n(0)),
  T("taxes", seat(1), n(9)),
  T("agriculture_removed", seat(1), text({ key: "limit.card_name.intensive_agriculture", args: [] })),
  T("produces", seat(1), n(2), n(0), n(0), n(0), n(0)),
  T("boom", seat(1), n(10)),
  T("financial_crisis", n(1)),
  T("generation", n(3), seat(0)),
);

describe("latestPhaseSummary", () => {
  it("sums each nation's social phase from the log", () => {
    const s = latestPhaseSummary(generation2, [0, 1])!;
    expect(s.kind).toBe("social");
    expect(s.startSeq).toBe("13");
    expect(s.generation).toBe(2);
    expect(s.complete).toBe(true);
    expect(phaseTitle(s)).toBe("Social phase, generation 2");
    expect(s.rows.map((r) => r.seat)).toEqual([0, 1]);
    const [ann, bo] = s.rows;
    expect(ann).toMatchObject({
      fed: 5, famine: 1, consumed: 2, shortage: 2, taxes: 6, renewable: 3, industrial: 4, military: 1,
      fossilUsed: 2, pollution: 1, revolt: true, revoltMilitary: 2, revoltShortage: 1, revoltPaid: 0,
      boomed: false, disorder: 7, disorderFrom: 2, disorderTo: 9,
    });
    expect(ann.fossilShortages).toEqual([{ key: "limit.res.military", args: [] }]);
    expect(bo).toMatchObject({ fed: 3, consumed: 0, taxes: 9, renewable: 2, boomed: true, boom: 10, revolt: false, disorder: 0,
      disorderFrom: null, disorderTo: null });
    expect(bo.agricultureRemoved).toEqual([{ key: "limit.card_name.intensive_agriculture", args: [] }]);
    expect(s.world.map((t) => t.key)).toEqual(["limit.log.financial_crisis"]);
  });

  // Issue 32's solo example: generation 1, Schooling played, a pass, class A raised by progress;
  // the class struggle then takes disorder from 5 to 7, which the famine and shortage lines
  // never mention.
  it("shows the class struggle's disorder and the classes that moved", () => {
    const solo = entries(1,
      T("generation", n(1), seat(0)),
      T("plays", seat(0), text({ key: "limit.card_name.schooling", args: [] })),
      T("passes", seat(0)),
      T("social_phase"),
      T("feeds", seat(0), n(4)),
      T("consumes", seat(0), n(3)),
      T("taxes", seat(0), n(4)),
      T("produces", seat(0), n(4), n(3), n(1), n(1), n(1)),
      T("class_up", seat(0), text({ key: "limit.class", args: [name("A")] }), n(4)),
      T("disorder", seat(0), n(5), n(7), text(cause("class_struggle"))),
      T("class_down", seat(0), text({ key: "limit.class", args: [name("C")] }), n(2)),
      T("generation", n(2), seat(0)),
    );
    const s = latestPhaseSummary(solo, [0])!;
    const [me] = s.rows;
    expect(me).toMatchObject({ disorder: 2, disorderFrom: 5, disorderTo: 7 });
    expect(me.disorderChanges).toEqual([{ from: 5, to: 7, cause: cause("class_struggle") }]);
    expect(me.classChanges).toEqual([
      { cls: { key: "limit.class", args: [name("A")] }, level: 4, up: true },
      { cls: { key: "limit.class", args: [name("C")] }, level: 2, up: false },
    ]);
  });

  it("reads only the latest phase, and Long sequence numbers", () => {
    const next = entries(40,
      T("social_phase"),
      T("feeds", seat(1), n(1)),
    ).map((e) => ({ ...e, seq: Long.fromNumber(e.seq as number, true) }));
    const s = latestPhaseSummary([...generation2, ...next], [0, 1])!;
    expect(s.startSeq).toBe("40");
    // Still running: the generation line before it names it, and a nation not yet logged has an empty row.
    expect(s.generation).toBe(3);
    expect(s.complete).toBe(false);
    expect(s.rows[0]).toMatchObject({ seat: 0, fed: 0 });
    expect(s.rows[1]).toMatchObject({ seat: 1, fed: 1 });
    expect(s.world).toEqual([]);
  });

  it("tells the generation from the next one once the line before the phase is trimmed", () => {
    const trimmed = generation2.slice(3);
    expect(latestPhaseSummary(trimmed, [], 7)!.generation).toBe(2);
    // Nothing around the phase left: the view's generation.
    expect(latestPhaseSummary(trimmed.slice(0, 5), [], 2)!.generation).toBe(2);
    expect(latestPhaseSummary(trimmed.slice(0, 5))!.rows.map((r) => r.seat)).toEqual([0]);
  });

  it("summarises the resilience test, and nothing without a phase", () => {
    const s = latestPhaseSummary([...generation2, ...entries(60,
      T("resilience", n(7)), T("feeds", seat(0), n(2)), T("famine", seat(0), n(2), n(6)),
      T("disorder", seat(0), n(1), n(7), text(cause("famine"))), T("game_over"),
    )])!;
    expect(s.kind).toBe("resilience");
    expect(phaseTitle(s)).toBe("Resilience test, generation 7");
    expect(s.complete).toBe(true);
    expect(s.rows[0]).toMatchObject({ fed: 2, famine: 2, disorder: 6 });
    expect(latestPhaseSummary(generation2.slice(0, 3))).toBeNull();
    expect(latestPhaseSummary([])).toBeNull();
  });

  it("sorts entries by their number", () => {
    const shuffled = [...generation2].reverse();
    expect(latestPhaseSummary(shuffled)).toEqual(latestPhaseSummary(generation2));
  });
});

describe("keptSummary", () => {
  const first = latestPhaseSummary(generation2)!;
  const later = latestPhaseSummary([...generation2, ...entries(40, T("social_phase"))])!;

  it("keeps a phase whose entries were trimmed, and takes a newer one", () => {
    expect(keptSummary(null, first, 31)).toBe(first);
    expect(keptSummary(first, null, 80)).toBe(first);
    expect(keptSummary(first, later, 40)).toBe(later);
    expect(keptSummary(later, first, 45)).toBe(later);
  });

  it("brings an older phase back when the log itself went back (a replay)", () => {
    expect(keptSummary(later, first, 35)).toBe(first);
    expect(keptSummary(later, null, 20)).toBeNull();
  });

  it("keeps the generation it knew when the same phase is read again without it", () => {
    const again = { ...first, generation: 0 };
    expect(keptSummary(first, again, 31)!.generation).toBe(2);
  });
});

describe("pendingHits", () => {
  const changes = { key: "limit.change.list", args: [
    text({ key: "limit.change.territories", args: [n(1)] }), text({ key: "limit.change.factories", args: [n(1)] }),
  ] };
  const log = entries(100,
    T("hit", seat(0), text({ key: "limit.card_name.territorial_annexation", args: [] }), seat(1), text(changes)),
    T("hit", seat(1), text({ key: "limit.card_name.propaganda", args: [] }), seat(0), text({ key: "limit.change.nothing", args: [] })),
    T("plays", seat(0), text({ key: "limit.card_name.craft", args: [] })),
    T("hit", seat(2), text({ key: "limit.card_name.embargo", args: [] }), seat(1), text({ key: "limit.change.money_lost", args: [n(3)] })),
  );

  it("lists the hits on the viewer, newest first", () => {
    expect(pendingHits([], log, 1, new Set()).map((h) => h.seq)).toEqual(["103", "100"]);
    expect(pendingHits([], log, 0, new Set()).map((h) => h.seq)).toEqual(["101"]);
    expect(pendingHits([], log, 3, new Set())).toEqual([]);
  });

  it("shows none to a spectator", () => {
    expect(pendingHits([], log, -1, new Set())).toEqual([]);
  });

  it("drops acknowledged hits and keeps unacknowledged ones the log lost", () => {
    const all = pendingHits([], log, 1, new Set());
    const acked = new Set([all[0].ack]);
    expect(pendingHits([], log, 1, acked).map((h) => h.seq)).toEqual(["100"]);
    // The log was trimmed: the kept notice stays.
    expect(pendingHits(all, log.slice(2), 1, acked).map((h) => h.seq)).toEqual(["100"]);
    // A later game in the room numbers its entries from 0 again: another hit at the same number is new.
    const rematch = entries(100, T("hit", seat(2), text({ key: "limit.card_name.espionage", args: [] }), seat(1), text(changes)));
    expect(pendingHits([], rematch, 1, new Set([all[1].ack])).map((h) => h.seq)).toEqual(["100"]);
  });

  it("stacks at most five", () => {
    const many = entries(1, ...Array.from({ length: 8 }, () => T("hit", seat(0), text({ key: "limit.card_name.raid", args: [] }), seat(1), text(changes))));
    expect(pendingHits([], many, 1, new Set()).map((h) => h.seq)).toEqual(["8", "7", "6", "5", "4"]);
  });

  it("speaks to the viewer in the notice", () => {
    const catalogue = makeCatalogue({ templates: [
      { key: HIT_YOU_KEY, en: "{0}'s {1} hit you: {2}." },
      { key: "limit.change.list", en: "{0}, {1}" },
      { key: "limit.change.territories", en: "{0|territory|territories} lost" },
      { key: "limit.change.factories", en: "{0|factory rank|factory ranks} lost" },
      { key: "limit.card_name.territorial_annexation", en: "Territorial annexation" },
    ] });
    const scope: TextScope = { catalogue, names: ["Alice", "Bob"], viewer: 1 };
    const [, hit] = pendingHits([], log, 1, new Set());
    expect(renderText(hitNoticeText(hit), scope)).toBe("Alice's Territorial annexation hit you: 1 territory lost, 1 factory rank lost.");
  });
});
