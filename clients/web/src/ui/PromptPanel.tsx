// Any plateau.v1.Prompt, answered without game code: CHOOSE (radio buttons for one, checkboxes
// for several), NUMBER, ORDER (up/down), YES_NO and TEXT. The answer goes out as the game's
// Action `{core: {answer}}` (see prompt.ts).
//
// A board that draws the options' targets (hexes, regions, cards, seats) holds the panel's state
// itself with usePromptControl and passes it as `control`: it then reads `targets` to highlight
// and calls `answerWithOption` / `answerWithTarget` on a click, and the panel shows the same
// selection.
import { useState } from "preact/hooks";
import { type } from "../proto";
import { PromptKind, type Answer, type Prompt, type Target, type Text } from "../table";
import {
  answerAction, answerProblem, draftAnswer, draftProblem, initialDraft, moveItem, optionClick, optionForTarget,
  promptMax, promptMin, promptTargets, resignAction, singleChoice, targetKey, textLength, toggleChoice, yesNoAnswer,
  type PromptDraft, type PromptTargets,
} from "./prompt";
import { ActionError, SubmitButton } from "./submit";
import { Txt } from "./TextRender";

export type AnswerFn = (answer: Answer) => unknown;

export interface PromptControl {
  prompt: Prompt | null;
  draft: PromptDraft;
  setDraft: (d: PromptDraft) => void;
  /** What the prompt's options stand for on the board. */
  targets: PromptTargets;
  /** The target key of the option under the pointer or focus in the panel (to emphasise). */
  hot: string | null;
  setHot: (key: string | null) => void;
  /** Why the draft cannot be sent yet, or "". */
  problem: string;
  busy: boolean;
  /** Sends an answer the core would take; ignores one it would refuse, or any while busy. */
  send: (answer: Answer) => void;
  /** A board click on an option: answers a single choice, toggles one of several. */
  answerWithOption: (id: string) => void;
  /** answerWithOption for the option standing for `target`; false when none does. */
  answerWithTarget: (target: Target | string) => boolean;
}

const NO_DRAFT: PromptDraft = { chosen: [], order: [], number: "0", text: "" };

/**
 * The state of an answer in progress. It belongs to one prompt id: a new question starts from a
 * fresh draft in the very render that shows it (a reset in an effect would come a render late and
 * could wipe a choice just made).
 */
export function usePromptControl(prompt: Prompt | null, onAnswer: AnswerFn, busy = false): PromptControl {
  const [held, setHeld] = useState<{ id: string; draft: PromptDraft } | null>(null);
  const [hotHeld, setHotHeld] = useState<{ id: string; key: string | null }>({ id: "", key: null });
  const id = prompt?.id ?? "";
  const draft = prompt ? (held && held.id === id ? held.draft : initialDraft(prompt)) : NO_DRAFT;
  const setDraft = (d: PromptDraft) => setHeld({ id, draft: d });
  const send = (a: Answer) => {
    if (!prompt || busy || answerProblem(prompt, a)) return;
    void onAnswer(a);
  };
  const answerWithOption = (optionId: string) => {
    if (!prompt || busy) return;
    const r = optionClick(prompt, draft, optionId);
    setDraft(r.draft);
    if (r.answer) send(r.answer);
  };
  const targets = promptTargets(prompt);
  return {
    prompt, draft, setDraft, targets, busy, send, answerWithOption,
    hot: hotHeld.id === id ? hotHeld.key : null,
    setHot: (key) => setHotHeld({ id, key }),
    problem: prompt ? draftProblem(prompt, draft) : "",
    answerWithTarget: (t) => {
      const option = optionForTarget(targets, t);
      if (option == null) return false;
      answerWithOption(option);
      return true;
    },
  };
}

/** Sends answers as the game's Action: `actionType` is its full name (GameInfo.action_type). */
export function answerSender(actionType: string, run: (action: object) => Promise<boolean>): (a: Answer) => Promise<boolean> {
  return (a) => run(answerAction(type(actionType), a));
}

function Label({ text, fallback }: { text: Text | null | undefined; fallback: string }) {
  return text && (text.key || text.id) ? <Txt text={text} /> : <>{fallback}</>;
}

function chooseHint(p: Prompt, chosen: number): string {
  const lo = promptMin(p), hi = Math.min(promptMax(p), p.options.length);
  const want = lo === hi ? `choose ${lo}` : lo <= 0 ? `choose up to ${hi}` : `choose ${lo} to ${hi}`;
  return `${chosen} chosen · ${want}`;
}

function ChooseForm({ c, p, disabled }: { c: PromptControl; p: Prompt; disabled: boolean }) {
  const single = singleChoice(p);
  const full = c.draft.chosen.length >= promptMax(p);
  return (
    <fieldset class="pp-options" disabled={disabled}>
      <legend class="sr-only">Options</legend>
      {p.options.map((o) => {
        const on = c.draft.chosen.includes(o.id);
        const key = targetKey(o.target);
        return (
          <label key={o.id} class={`pp-option ${on ? "on" : ""} ${key && key === c.hot ? "hot" : ""}`} data-testid={`prompt-option-${o.id}`}
            data-target={key ?? undefined}
            onMouseEnter={() => c.setHot(key)} onMouseLeave={() => c.setHot(null)}>
            <input type={single ? "radio" : "checkbox"} name={`prompt-${p.id}`} value={o.id} checked={on}
              disabled={!on && !single && full}
              onFocus={() => c.setHot(key)} onBlur={() => c.setHot(null)}
              onChange={() => c.setDraft({ ...c.draft, chosen: toggleChoice(p, c.draft.chosen, o.id) })} />
            <span><Label text={o.label} fallback={o.id} /></span>
          </label>
        );
      })}
      <p class="pp-count muted small" data-testid="prompt-count" aria-live="polite">{chooseHint(p, c.draft.chosen.length)}</p>
    </fieldset>
  );
}

function OrderForm({ c, p, disabled }: { c: PromptControl; p: Prompt; disabled: boolean }) {
  const byId = new Map(p.options.map((o) => [o.id, o]));
  const order = c.draft.order;
  const move = (i: number, delta: number) => c.setDraft({ ...c.draft, order: moveItem(order, i, delta) });
  return (
    <ol class="pp-order" data-testid="prompt-order">
      {order.map((id, i) => {
        const o = byId.get(id);
        return (
          <li key={id} data-id={id} data-target={targetKey(o?.target) ?? undefined}>
            <span class="pp-order-label"><Label text={o?.label} fallback={id} /></span>
            <button type="button" class="btn small ghost" disabled={disabled || i === 0} aria-label="Move up"
              data-testid={`prompt-up-${id}`} onClick={() => move(i, -1)}>▲</button>
            <button type="button" class="btn small ghost" disabled={disabled || i === order.length - 1} aria-label="Move down"
              data-testid={`prompt-down-${id}`} onClick={() => move(i, 1)}>▼</button>
          </li>
        );
      })}
    </ol>
  );
}

export interface PromptPanelProps {
  prompt: Prompt;
  /** Receives a well-shaped answer (see answerSender to send it as the game's Action). */
  onAnswer: AnswerFn;
  /** A move is in flight: every control is disabled. */
  busy?: boolean;
  /** The server's refusal of the last answer. */
  error?: string;
  /** The board's usePromptControl, when the board highlights and clicks the targets itself. */
  control?: PromptControl;
  /** Show the question without controls (a replay, a spectator). */
  readOnly?: boolean;
}

export function PromptPanel({ prompt, onAnswer, busy = false, error = "", control, readOnly = false }: PromptPanelProps) {
  const own = usePromptControl(prompt, onAnswer, busy);
  const c = control ?? own;
  const p = prompt;
  const disabled = busy || readOnly;
  const submit = () => c.send(draftAnswer(p, c.draft));
  const lo = promptMin(p), hi = promptMax(p);
  let body;
  let canSubmit = true;
  switch (p.kind) {
    case PromptKind.CHOOSE:
      body = <ChooseForm c={c} p={p} disabled={disabled} />;
      break;
    case PromptKind.ORDER:
      body = <OrderForm c={c} p={p} disabled={disabled} />;
      break;
    case PromptKind.NUMBER:
      body = (
        <label class="field inline pp-number">
          <span>A number from {lo} to {hi}</span>
          <input type="number" min={lo} max={hi} step={1} value={c.draft.number} disabled={disabled} data-testid="prompt-number"
            onInput={(e) => c.setDraft({ ...c.draft, number: (e.target as HTMLInputElement).value })} />
        </label>
      );
      break;
    case PromptKind.TEXT: {
      const n = textLength(c.draft.text);
      body = (
        <label class="field pp-text">
          <span class="sr-only">Your answer</span>
          <input type="text" value={c.draft.text} disabled={disabled} data-testid="prompt-text" autoComplete="off"
            onInput={(e) => c.setDraft({ ...c.draft, text: (e.target as HTMLInputElement).value })} />
          <small class={`muted ${n > hi ? "over" : ""}`} data-testid="prompt-text-count">{n}/{hi} characters{lo > 0 ? ` (at least ${lo})` : ""}</small>
        </label>
      );
      break;
    }
    case PromptKind.YES_NO:
      canSubmit = false;
      body = (
        <div class="pp-yesno row-actions">
          <button type="button" class="btn primary" disabled={disabled} data-testid="prompt-yes" onClick={() => c.send(yesNoAnswer(p, true))}>
            <Txt text={{ key: "core.answer.yes", args: [] }} />
          </button>
          <button type="button" class="btn" disabled={disabled} data-testid="prompt-no" onClick={() => c.send(yesNoAnswer(p, false))}>
            <Txt text={{ key: "core.answer.no", args: [] }} />
          </button>
        </div>
      );
      break;
    default:
      canSubmit = false;
      body = <p class="muted">This client cannot answer this kind of question: please reload, or update the client.</p>;
  }
  return (
    <section class="panel prompt-panel" data-testid="core-prompt" data-prompt={p.id} data-kind={p.kind} data-min={lo} data-max={hi}>
      <form onSubmit={(e) => { e.preventDefault(); if (!readOnly && canSubmit && !c.problem) submit(); }}>
        <header>
          <h3 class="pp-title"><Label text={p.title} fallback="A question" /></h3>
          {p.detail && (p.detail.key || p.detail.id) ? <p class="pp-detail muted"><Txt text={p.detail} /></p> : null}
        </header>
        {body}
        {!readOnly && canSubmit && (
          <div class="row-actions">
            <SubmitButton type="submit" busy={busy} disabled={!!c.problem} testid="prompt-submit" title={c.problem || undefined}>
              Answer
            </SubmitButton>
            {c.problem && p.kind !== PromptKind.CHOOSE && <span class="pp-problem muted small">{c.problem}</span>}
          </div>
        )}
        <ActionError error={error} />
      </form>
    </section>
  );
}

/** Resigning, with a second click to confirm (it cannot be undone). */
export function ResignButton({ actionType, run, busy }: {
  actionType: string; run: (action: object) => Promise<boolean>; busy?: boolean;
}) {
  const [armed, setArmed] = useState(false);
  if (!armed) {
    return <button type="button" class="btn ghost" disabled={busy} data-testid="resign" onClick={() => setArmed(true)}>🏳 Resign</button>;
  }
  return (
    <span class="pp-resign">
      <span class="muted small">Leave the game for good?</span>
      <button type="button" class="btn danger" disabled={busy} data-testid="resign-confirm"
        onClick={() => { setArmed(false); void run(resignAction(type(actionType))); }}>Resign</button>
      <button type="button" class="btn ghost" data-testid="resign-cancel" onClick={() => setArmed(false)}>Keep playing</button>
    </span>
  );
}
