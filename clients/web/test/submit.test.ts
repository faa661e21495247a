import { describe, expect, it } from "vitest";
import { Submitter } from "../src/ui/submit";
import { badgeModel } from "../src/ui/PlayerBadge";

/** A submit whose answer the test gives when it likes. */
function controlled() {
  const calls: object[] = [];
  let settle: { resolve: () => void; reject: (e: Error) => void } | null = null;
  const submit = (action: object) => {
    calls.push(action);
    return new Promise<void>((resolve, reject) => { settle = { resolve, reject }; });
  };
  return { calls, submit, ok: () => settle!.resolve(), refuse: (why: string) => settle!.reject(new Error(why)) };
}

describe("Submitter", () => {
  it("is busy while a move is in flight and ignores another one meanwhile", async () => {
    const c = controlled();
    const s = new Submitter(c.submit);
    let notified = 0;
    s.subscribe(() => notified++);
    const first = s.run({ pass: {} });
    expect(s.busy).toBe(true);
    expect(notified).toBe(1);
    // A double click: refused at once, without a second request.
    expect(await s.run({ pass: {} })).toBe(false);
    expect(c.calls).toHaveLength(1);
    c.ok();
    expect(await first).toBe(true);
    expect(s.busy).toBe(false);
    expect(s.error).toBe("");
    expect(notified).toBe(2);
    // Free again.
    const second = s.run({ move: 1 });
    expect(c.calls).toHaveLength(2);
    c.ok();
    expect(await second).toBe(true);
  });

  it("shows the server's refusal until the next view", async () => {
    const c = controlled();
    const s = new Submitter(c.submit);
    const v1 = {};
    s.setView(v1);
    const p = s.run({ bad: {} });
    c.refuse("Not your turn.");
    expect(await p).toBe(false);
    expect(s.busy).toBe(false);
    expect(s.error).toBe("Not your turn.");
    // Re-rendering the same view keeps it...
    s.setView(v1);
    expect(s.error).toBe("Not your turn.");
    // ...the next one drops it, and going back does not bring it back.
    const v2 = {};
    s.setView(v2);
    expect(s.error).toBe("");
    s.setView(v1);
    expect(s.error).toBe("");
  });

  it("keeps a refusal that comes after a view arrived during the flight", async () => {
    const c = controlled();
    const s = new Submitter(c.submit);
    s.setView({});
    const p = s.run({ x: 1 });
    s.setView({});
    c.refuse("Too late.");
    await p;
    expect(s.error).toBe("Too late.");
  });

  it("clears an old refusal when the next move starts", async () => {
    const c = controlled();
    const s = new Submitter(c.submit);
    const p = s.run({ x: 1 });
    c.refuse("No.");
    await p;
    const q = s.run({ x: 2 });
    expect(s.error).toBe("");
    c.ok();
    await q;
  });

  it("sends nothing without a submit (replays, spectators)", async () => {
    const s = new Submitter(undefined);
    expect(await s.run({ x: 1 })).toBe(false);
    expect(s.busy).toBe(false);
  });

  it("shows a problem found before sending like a refusal", () => {
    const s = new Submitter(async () => {});
    s.setView(1);
    s.fail("Pick a card first.");
    expect(s.error).toBe("Pick a card first.");
    s.setView(2);
    expect(s.error).toBe("");
  });
});

describe("player badge", () => {
  it("says who, you, offline and whose turn", () => {
    expect(badgeModel({ seat: 0, name: "Ann" })).toEqual({ classes: "player-badge", label: "Ann" });
    expect(badgeModel({ seat: 1, name: "Bo", you: true, online: false, turn: true })).toEqual({
      classes: "player-badge you offline turn", label: "Bo, you, offline, to play",
    });
    expect(badgeModel({ seat: 1, name: "Bo", online: true, turn: true, turnLabel: "deciding…", class: "x" })).toEqual({
      classes: "player-badge turn x", label: "Bo, deciding…",
    });
  });

  it("marks a replay's seat as its viewpoint, not as the reader", () => {
    expect(badgeModel({ seat: 0, name: "Alice", you: true }, "viewpoint")).toEqual({
      classes: "player-badge you", label: "Alice, viewpoint",
    });
  });
});
