// @vitest-environment happy-dom
// LIMIT's political and alliance turns offer the moves the view publishes, and only those: a hand
// card without a move is not playable, a chosen card goes through its published choices and
// amounts (a family leaf's domain, a param through the transactions list), and what is sent is
// the published action.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decode, encode, type } from "../src/proto";
import type { ActionParam, MoveChoice } from "../src/ui/kit/moves";
import { useMovePick } from "../src/ui/kit/MovePicker";
import { answerSender, usePromptControl } from "../src/ui/PromptPanel";
import { useSubmit } from "../src/ui/submit";
import { makeCatalogue, TextProvider } from "../src/ui/TextRender";
import { PromptKind, type BoardView, type Decision } from "../src/games/limit/model";
import { MyDecision } from "../src/games/limit/Prompts";

const ACTION = "plateau.games.limit.Action";
const Action = type(ACTION);
const label = (key: string, ...args: object[]) => ({ key, args });
const node = (key: string, over: Partial<MoveChoice> = {}): MoveChoice =>
  ({ key, label: label(`limit.move.${key}`), target: null, action: new Uint8Array(), next: [], params: [], next_label: null, key_target: 0, next_paths: [], ...over });
const range = (path: string, min: number, max: number): ActionParam =>
  ({ path, values: [], min, max, min_count: 0, max_count: 0, distinct: false });
const act_ = (o: object) => encode(Action, o);

// As limit_moves.cc publishes a turn: passing, removing permanent card 9, card 3 (a war card:
// the target, then the military committed as a family), card 5 (a market card: a transaction's
// quantity as a family through the transactions list). Card 4 is in hand with no move.
const political: MoveChoice[] = [
  node("pass", { action: act_({ pass: {} }) }),
  node("remove.9", { target: { card: "9" }, action: act_({ remove_permanent: { card: 9 } }) }),
  node("c3", {
    target: { card: "3" },
    next: [node("t1", {
      label: label("limit.move.nation", { seat: 1 }),
      next: [node("military", {
        action: act_({ play_card: { card: 3, target: 1, military: 10 } }),
        params: [range("play_card.military", 10, 14)],
      })],
    })],
  }),
  node("c5", {
    target: { card: "5" },
    next: [
      node("none", { action: act_({ play_card: { card: 5 } }) }),
      node("b2", {
        action: act_({ play_card: { card: 5, transactions: [{ resource: 2, sell: false }] } }),
        params: [range("play_card.transactions.quantity", 1, 3)],
      }),
    ],
  }),
];
const alliance: MoveChoice[] = [
  node("pass", { action: act_({ pass: {} }) }),
  node("propose.1", {
    next: [node("s2", { label: label("limit.move.nation", { seat: 2 }), action: act_({ alliance_propose: { kind: 1, to_seat: 2 } }) })],
  }),
];

const scope = { catalogue: makeCatalogue({ "limit.move.pass": "Pass", "limit.move.nation": "{0}" }), names: ["Ann", "Bob", "Cy"], viewer: 0 };
const hand = [3, 4, 5].map((id) => ({ id, key: `k${id}`, name: `Card ${id}`, name_en: `Card ${id}`, cost_text: "", effect_text: "", playable: id !== 4 }));
const view = (kind: number) => ({ you: 0, hand, nations: [], prompts: [{ kind, seat: 0, count: 0 }] }) as unknown as BoardView;

function Turn({ tree, v, submit }: { tree: MoveChoice[]; v: BoardView; submit: (a: object) => Promise<void> }) {
  const handle = useSubmit(submit, v);
  const pick = useMovePick(tree);
  const control = usePromptControl(null, answerSender(ACTION, handle.run), handle.busy);
  return (
    <MyDecision prompt={(v.prompts ?? [])[0] as Decision} core={null} control={control} view={v} seat={0} busy={handle.busy}
      error={handle.error} moves={{ roots: tree, pick, handle, submit, actionType: ACTION, view: v }} />
  );
}

let host: HTMLElement;
function mount(tree: MoveChoice[], kind: number) {
  const sent: object[] = [];
  const submit = vi.fn(async (a: object) => { sent.push(Action.toObject(decode(Action, encode(Action, a)), { enums: Number })); });
  host = document.createElement("div");
  document.body.append(host);
  act(() => { render(<TextProvider scope={scope}><Turn tree={tree} v={view(kind)} submit={submit} /></TextProvider>, host); });
  return sent;
}
const $ = (sel: string) => host.querySelector<HTMLElement>(sel);
const $$ = (sel: string) => [...host.querySelectorAll<HTMLElement>(sel)];
const click = (sel: string) => act(() => { $(sel)!.click(); });
async function settle() { await act(async () => { await Promise.resolve(); }); }
function select(sel: string, value: string) {
  act(() => {
    const el = $(sel) as HTMLSelectElement;
    el.value = value;
    el.dispatchEvent(new Event("change", { bubbles: true }));
  });
}

afterEach(() => {
  render(null, host);
  host.remove();
});

describe("LIMIT's turn reads the published moves", () => {
  it("offers a hand card only when a move plays it, and the other moves as buttons", () => {
    mount(political, PromptKind.POLITICAL_TURN);
    const enabled = $$("[data-testid=play-card]").map((b) => [b.dataset.card, !(b as HTMLButtonElement).disabled]);
    expect(enabled).toEqual([["3", true], ["4", false], ["5", true]]);
    expect($$("[data-testid^=choice-]").map((b) => b.dataset.testid)).toEqual(["choice-pass", "choice-remove.9"]);
  });

  it("sends passing as published, at once", async () => {
    const sent = mount(political, PromptKind.POLITICAL_TURN);
    click("[data-testid=choice-pass]");
    await settle();
    expect(sent).toEqual([{ pass: {} }]);
  });

  it("takes a card through its choices, then the military committed within the family's range", async () => {
    const sent = mount(political, PromptKind.POLITICAL_TURN);
    click("[data-testid=play-card][data-card='3']");
    expect($("[data-testid=play-form]")!.dataset.card).toBe("3");
    expect($$("[data-testid=move-choice]").map((b) => b.textContent)).toEqual(["Bob"]);
    click("[data-testid=move-choice][data-key=t1]");
    click("[data-testid=move-choice][data-key=military]");
    const options = $$("[data-testid=move-param] option").map((o) => (o as HTMLOptionElement).value);
    expect(options).toEqual(["", "10", "11", "12", "13", "14"]);
    select("[data-testid=move-param]", "12");
    click("[data-testid=move-play]");
    await settle();
    expect(sent).toEqual([{ play_card: { card: 3, target: 1, military: 12 } }]);
  });

  it("sets a transaction's quantity through the transactions list, and Back returns to the card's choices", async () => {
    const sent = mount(political, PromptKind.POLITICAL_TURN);
    click("[data-testid=play-card][data-card='5']");
    click("[data-testid=move-choice][data-key=b2]");
    click("[data-testid=move-back]");
    expect($$("[data-testid=move-choice]").map((b) => b.dataset.key)).toEqual(["none", "b2"]);
    click("[data-testid=move-choice][data-key=b2]");
    select("[data-testid=move-param]", "3");
    click("[data-testid=move-play]");
    await settle();
    expect(sent).toEqual([{ play_card: { card: 5, transactions: [{ resource: 2, quantity: 3 }] } }]);
  });

  it("cancels a chosen card back to the turn's moves", () => {
    mount(political, PromptKind.POLITICAL_TURN);
    click("[data-testid=play-card][data-card='3']");
    click("[data-testid=move-cancel]");
    expect($("[data-testid=play-form]")).toBeNull();
    expect($$("[data-testid=play-card]").length).toBe(3);
  });

  it("offers the Alliance step's moves, a proposal going on to the nation it names", async () => {
    const sent = mount(alliance, PromptKind.ALLIANCE_TURN);
    expect($$("[data-testid=play-card]").length).toBe(0);
    expect($$("[data-testid^=choice-]").map((b) => [b.dataset.testid, b.dataset.kind])).toEqual([["choice-pass", "leaf"], ["choice-propose.1", "step"]]);
    click("[data-testid='choice-propose.1']");
    click("[data-testid=move-choice][data-key=s2]");
    click("[data-testid=move-play]");
    await settle();
    expect(sent).toEqual([{ alliance_propose: { kind: 1, to_seat: 2 } }]);
  });
});
