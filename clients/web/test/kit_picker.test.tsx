// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildRoot, decode, encode } from "../src/proto";
import { Hand } from "../src/ui/kit/Hand";
import { MovePicker, useMovePick } from "../src/ui/kit/MovePicker";
import type { ActionParam, MoveChoice } from "../src/ui/kit/moves";
import { makeCatalogue, TextProvider } from "../src/ui/TextRender";

const root = buildRoot({
  "p.proto": `
    syntax = "proto3";
    package kp;
    message Fire { uint32 target = 1; int32 range = 2; }
    message Move { string piece = 1; Fire fire = 2; }
    message Action { oneof kind { Move move = 1; bool pass = 2; } }
  `,
});
const ACTION = "kp.Action";
const Action = root.lookupType(ACTION);
// MovePicker names the game's Action type; the test's type lives in its own root, found by name.
vi.mock("../src/proto", async (orig) => {
  const real = await orig<typeof import("../src/proto")>();
  return { ...real, type: (name: string) => (name === ACTION ? Action : real.type(name)) };
});

const scope = {
  catalogue: makeCatalogue({ "m.tank": "Move the tank", "m.pass": "Pass", "m.fire": "Fire from here", "m.wait": "Stay put" }),
  names: ["Ann", "Bob"],
  viewer: 0,
};
const label = (key: string) => ({ key, args: [] });
const node = (key: string, over: Partial<MoveChoice> = {}): MoveChoice =>
  ({ key, label: label(`m.${key}`), target: null, action: new Uint8Array(), next: [], params: [], next_label: null, key_target: 0, next_paths: [], ...over });
const param = (path: string, over: Partial<ActionParam>): ActionParam =>
  ({ path, values: [], min: 0, max: 0, min_count: 0, max_count: 0, distinct: false, ...over });

const moves: MoveChoice[] = [
  node("tank", {
    next: [
      node("fire", {
        action: encode(Action, { move: { piece: "p1" } }),
        params: [param("move.fire.target", { values: [3, 7] }), param("move.fire.range", { min: 1, max: 100 })],
      }),
      node("wait", { action: encode(Action, { move: { piece: "p1" } }) }),
    ],
  }),
  node("pass", { action: encode(Action, { pass: true }) }),
];

let host: HTMLElement;
function mount(props: { submit?: (a: object) => Promise<void>; moves?: MoveChoice[] }) {
  host = document.createElement("div");
  document.body.append(host);
  act(() => {
    render(
      <TextProvider scope={scope}>
        <MovePicker moves={props.moves ?? moves} actionType={ACTION} submit={props.submit} view={{}} />
      </TextProvider>,
      host,
    );
  });
}
const $ = (sel: string) => host.querySelector<HTMLElement>(sel);
const $$ = (sel: string) => [...host.querySelectorAll<HTMLElement>(sel)];
const texts = (sel: string) => $$(sel).map((e) => e.textContent?.trim());
const click = (sel: string) => act(() => { $(sel)!.click(); });
function change(el: HTMLElement, value: string, event: "change" | "input") {
  act(() => {
    (el as HTMLInputElement).value = value;
    el.dispatchEvent(new Event(event, { bubbles: true }));
  });
}
const sentAction = (a: object) => Action.toObject(decode(Action, encode(Action, a)));

afterEach(() => {
  render(null, host);
  host.remove();
});

describe("MovePicker", () => {
  it("offers the roots in the game's words, as buttons reachable by the keyboard", () => {
    mount({ submit: async () => {} });
    expect(texts("[data-testid=move-choice]")).toEqual(["Move the tank", "Pass"]);
    expect($$("[data-testid=move-choice]").every((b) => b.tagName === "BUTTON" && b.tabIndex >= 0)).toBe(true);
    expect($("[data-testid=move-play]")).toBeNull();
    expect($("[data-testid=move-path]")).toBeNull();
  });

  it("goes down a choice with its path shown, and back or cancel", () => {
    mount({ submit: async () => {} });
    click("[data-testid=move-choice][data-key=tank]");
    expect(texts("[data-testid=move-crumb]")).toEqual(["Move the tank"]);
    expect(texts("[data-testid=move-choice]")).toEqual(["Fire from here", "Stay put"]);
    click("[data-testid=move-choice][data-key=fire]");
    expect(texts("[data-testid=move-crumb]")).toEqual(["Move the tank", "Fire from here"]);
    click("[data-testid=move-back]");
    expect($("[data-testid=move-picker]")!.getAttribute("data-path")).toBe("tank");
    click("[data-testid=move-cancel]");
    expect(texts("[data-testid=move-choice]")).toEqual(["Move the tank", "Pass"]);
  });

  it("sends a leaf's action through the board's submit", async () => {
    const submit = vi.fn(async (_action: object) => {});
    mount({ submit });
    click("[data-testid=move-choice][data-key=pass]");
    await act(async () => { $("[data-testid=move-play]")!.click(); });
    expect(submit).toHaveBeenCalledTimes(1);
    expect(sentAction(submit.mock.calls[0][0])).toEqual({ pass: true });
    await act(async () => { await new Promise((r) => setTimeout(r, 0)); });
    // Sent: the pick starts again.
    expect(texts("[data-testid=move-choice]")).toEqual(["Move the tank", "Pass"]);
  });

  it("asks a family's params within their domains, and never sends a value outside them", async () => {
    const submit = vi.fn(async (_action: object) => {});
    mount({ submit });
    click("[data-testid=move-choice][data-key=tank]");
    click("[data-testid=move-choice][data-key=fire]");
    const target = $("[data-testid=move-param][data-path='move.fire.target']")!;
    const range = $("[data-testid=move-param][data-path='move.fire.range']")!;
    expect(target.tagName).toBe("SELECT");
    expect([...(target as HTMLSelectElement).options].map((o) => o.value)).toEqual(["", "3", "7"]);
    expect(range.tagName).toBe("INPUT");  // a long range is typed
    expect(range.getAttribute("min")).toBe("1");
    expect(range.getAttribute("max")).toBe("100");
    expect(($("[data-testid=move-play]") as HTMLButtonElement).disabled).toBe(true);

    change(target, "7", "change");
    change(range, "101", "input");
    expect(($("[data-testid=move-play]") as HTMLButtonElement).disabled).toBe(true);
    expect($("[data-testid=move-problem]")!.textContent).toBe("101 is not allowed for move.fire.range: from 1 to 100.");
    await act(async () => { $("[data-testid=move-play]")!.click(); });
    expect(submit).not.toHaveBeenCalled();

    change(range, "40", "input");
    expect($("[data-testid=move-problem]")).toBeNull();
    await act(async () => { $("[data-testid=move-play]")!.click(); });
    expect(sentAction(submit.mock.calls[0][0])).toEqual({ move: { piece: "p1", fire: { target: 7, range: 40 } } });
  });

  it("shows the server's refusal", async () => {
    mount({ submit: async () => { throw new Error("Not your turn."); } });
    click("[data-testid=move-choice][data-key=pass]");
    await act(async () => { $("[data-testid=move-play]")!.click(); });
    expect($("[data-testid=action-error]")!.textContent).toContain("Not your turn.");
  });

  it("offers nothing without a submit (replays, spectators) or without moves", () => {
    mount({});
    expect($("[data-testid=move-picker]")).toBeNull();
    render(null, host);
    host.remove();
    mount({ submit: async () => {}, moves: [] });
    expect($("[data-testid=move-picker]")).toBeNull();
  });
});

describe("a board's clicks and the picker on one pick", () => {
  // A hand whose cards are the roots' targets: a click on a card goes down that choice, and the
  // picker then asks the rest and plays.
  const played: MoveChoice[] = [
    node("play-c1", { target: { card: "c1" }, next: [node("wait", { action: encode(Action, { move: { piece: "c1" } }) })] }),
    node("pass", { action: encode(Action, { pass: true }) }),
  ];
  function Board({ submit }: { submit: (a: object) => Promise<void> }) {
    const pick = useMovePick(played);
    return (
      <TextProvider scope={scope}>
        <Hand cards={["c1", "c2"]} face={(id) => id} choices={pick.choices} onTarget={(t) => pick.chooseTarget(t)} />
        <MovePicker moves={played} pick={pick} actionType={ACTION} submit={submit} view={{}} />
      </TextProvider>
    );
  }

  it("goes down the choice a clicked card stands for, then plays what follows", async () => {
    const submit = vi.fn(async (_action: object) => {});
    host = document.createElement("div");
    document.body.append(host);
    act(() => { render(<Board submit={submit} />, host); });
    expect($$("button[data-testid=hand-card]").map((e) => e.getAttribute("data-card"))).toEqual(["c1"]);
    click("button[data-card=c1]");
    expect($("[data-testid=move-picker]")!.getAttribute("data-path")).toBe("play-c1");
    // The card's choice is made: the hand offers nothing more to click.
    expect($$("button[data-testid=hand-card]")).toEqual([]);
    click("[data-testid=move-choice][data-key=wait]");
    await act(async () => { $("[data-testid=move-play]")!.click(); });
    expect(sentAction(submit.mock.calls[0][0])).toEqual({ move: { piece: "c1" } });
  });
});
