// A nation's decisions. The core's questions (decks, keeping, discards, classes, factories,
// amounts, yes/no) are asked by the generic PromptPanel, with what the board adds beside it: the
// drawn or hand cards as clickable targets, and the facts the question does not state. The
// political turn (a card play with its parameters) and the Alliance step are not core questions:
// they keep their own forms here.
import { useMemo, useState } from "preact/hooks";
import type { Prompt } from "../../table";
import { PromptPanel, type PromptControl } from "../../ui/PromptPanel";
import { toggleChoice } from "../../ui/prompt";
import { ActionError } from "../../ui/submit";
import { Txt } from "../../ui/TextRender";
import { CardFace } from "./Cards";
import { ClassGrid } from "./NationBoard";
import {
  CLASS_LETTERS, DECK_NAME, PROMPT_SLUG, PromptKind, RESOURCES, RESOURCE_NAME, allianceTurnChoices, applySteps, canLower, canRaise,
  classLevelsFor, decisionFacts, defaultClassesFor, defaultDraft, defaultTransaction, draftProblem, keepToggle, marketTrack,
  maxQuantity, cardOptions, pickedCards, playAction, playPlan, playerName, priceOf, requiredSteps,
  type PlayDraft, type PlayPlan, type TransactionDraft,
} from "./model";
import type { Action, BoardView, Card, Decision, Nation } from "./model";

export type Send = (action: Action) => Promise<boolean>;

function ClassStepsPicker({ levels, need, direction, steps, onChange }: {
  levels: number[]; need: number; direction: "up" | "down"; steps: number[]; onChange: (s: number[]) => void;
}) {
  const now = applySteps(levels, steps, direction) ?? levels;
  return (
    <div class="lm-classpick" data-testid="class-picker">
      <span class="lm-label">{direction === "up" ? "Raise" : "Lower"} {need} step{need === 1 ? "" : "s"}: {steps.map((k) => CLASS_LETTERS[k]).join(", ") || "—"}</span>
      <div class="lm-classpick-row">
        {levels.map((_, k) => (
          <button key={k} type="button" class="btn small" data-testid={`class-step-${CLASS_LETTERS[k]}`}
            disabled={steps.length >= need || !(direction === "up" ? canRaise(now, k) : canLower(now, k))}
            onClick={() => onChange([...steps, k])}>
            {CLASS_LETTERS[k]} {now[k]}{direction === "up" ? "▲" : "▼"}
          </button>
        ))}
        <button type="button" class="btn small ghost" disabled={!steps.length} onClick={() => onChange([])}>Reset</button>
      </div>
      <ClassGrid classes={now} tiles={[]} />
    </div>
  );
}

function TransactionRow({ t, view, seat, onChange, onRemove }: {
  t: TransactionDraft; view: BoardView; seat: number; onChange: (t: TransactionDraft) => void; onRemove: () => void;
}) {
  const max = maxQuantity(view, seat, t);
  const price = priceOf(marketTrack(view, t.resource));
  return (
    <div class="lm-tx" data-testid="transaction">
      <div class="seg">
        <button type="button" class={!t.sell ? "on" : ""} onClick={() => onChange({ ...t, sell: false })}>Buy</button>
        <button type="button" class={t.sell ? "on" : ""} onClick={() => onChange({ ...t, sell: true })}>Sell</button>
      </div>
      <select value={t.resource} data-testid="tx-resource" onChange={(e) => onChange({ ...t, resource: Number((e.target as HTMLSelectElement).value) })}>
        {RESOURCES.map((r) => <option key={r} value={r}>{RESOURCE_NAME[r]} ({priceOf(marketTrack(view, r))} $)</option>)}
      </select>
      <input type="number" min={1} max={Math.max(1, max)} value={t.quantity} data-testid="tx-quantity"
        onInput={(e) => onChange({ ...t, quantity: Math.max(0, Number((e.target as HTMLInputElement).value) || 0) })} />
      <span class="muted small">× {price} $ = <b>{price * t.quantity} $</b> · max {max}</span>
      <button type="button" class="btn small ghost" onClick={onRemove} aria-label="Remove this transaction">✕</button>
    </div>
  );
}

export function PlayForm({ card, view, seat, names, busy, send, onCancel }: {
  card: Card; view: BoardView; seat: number; names: string[]; busy: boolean; send: Send; onCancel: () => void;
}) {
  const plan: PlayPlan = useMemo(() => playPlan(card, view, seat, names), [card.id, view]);
  const [draft, setDraft] = useState<PlayDraft>(() => defaultDraft(plan, card, view, seat));
  const set = (name: string, v: number) => {
    const values = { ...draft.values, [name]: v };
    const next = { ...draft, values };
    if (name === "target" && plan.classes?.onTarget) next.classes = defaultClassesFor(plan.classes, view, seat, v);
    setDraft(next);
  };
  const problem = draftProblem(plan, draft, view, seat);
  const levels = plan.classes ? classLevelsFor(plan.classes, view, seat, draft.values.target) : [];
  const need = plan.classes ? requiredSteps(plan.classes, levels) : 0;
  return (
    <div class="lm-playform" data-testid="play-form" data-card={card.id}>
      <h4>Play <b>{card.name_en || card.name}</b></h4>
      <p class="muted small"><b>Cost:</b> {card.cost_text} <b>Effect:</b> {card.effect_text}</p>
      <div class="lm-params">
        {plan.selects.map((s) => (
          <label key={s.name} class="field inline">
            <span>{s.label}</span>
            <select value={draft.values[s.name]} data-testid={`param-${s.name}`}
              onChange={(e) => set(s.name, Number((e.target as HTMLSelectElement).value))}>
              {s.options.map((o) => <option key={o.value} value={o.value} disabled={o.disabled}>{o.label}</option>)}
            </select>
          </label>
        ))}
        {plan.military && (
          <label class="field inline">
            <span>Military committed (min {plan.military.min}, you hold {plan.military.max})</span>
            <input type="number" min={plan.military.min} max={plan.military.max} value={draft.military} data-testid="param-military"
              onInput={(e) => setDraft({ ...draft, military: Number((e.target as HTMLInputElement).value) || 0 })} />
          </label>
        )}
      </div>
      {plan.classes && need > 0 && (
        <>
          {plan.classes.onTarget && <p class="muted small">Classes of {playerName(names, draft.values.target)}:</p>}
          <ClassStepsPicker levels={levels} need={need} direction={plan.classes.direction} steps={draft.classes}
            onChange={(classes) => setDraft({ ...draft, classes })} />
        </>
      )}
      {plan.transactions && (
        <div class="lm-txs">
          <span class="lm-label">Market transaction{plan.transactions.max > 1 ? "s (two, on different resources)" : ""}</span>
          {draft.transactions.map((t, i) => (
            <TransactionRow key={i} t={t} view={view} seat={seat}
              onChange={(nt) => setDraft({ ...draft, transactions: draft.transactions.map((x, j) => (j === i ? nt : x)) })}
              onRemove={() => setDraft({ ...draft, transactions: draft.transactions.filter((_, j) => j !== i) })} />
          ))}
          {draft.transactions.length < plan.transactions.max && (
            <button type="button" class="btn small" data-testid="tx-add"
              onClick={() => setDraft({ ...draft, transactions: [...draft.transactions, defaultTransaction(view, seat) ?? { resource: 1, sell: false, quantity: 1 }] })}>
              + Add a transaction
            </button>
          )}
          {draft.transactions.length === 0 && <p class="muted small">No transaction: the card is played for nothing.</p>}
        </div>
      )}
      {problem && <p class="lm-problem">{problem}</p>}
      <div class="row-actions">
        <button type="button" class="btn primary" disabled={busy || !!problem} data-testid="play-confirm"
          onClick={async () => { if (await send(playAction(card, plan, draft))) onCancel(); }}>Play this card</button>
        <button type="button" class="btn ghost" onClick={onCancel} data-testid="play-cancel">Cancel</button>
      </div>
    </div>
  );
}

function PoliticalTurn({ prompt, view, seat, names, busy, send, playing, setPlaying }: {
  prompt: Decision; view: BoardView; seat: number; names: string[]; busy: boolean; send: Send;
  playing: number | null; setPlaying: (id: number | null) => void;
}) {
  const hand = view.hand ?? [];
  const played = prompt.cards_played_this_turn as number;
  const me = (view.nations ?? []).find((n: Nation) => n.seat === seat);
  const removable = (me?.permanents ?? []).filter((c) => c.removable);
  const card = hand.find((c) => c.id === playing);
  return (
    <div class="lm-political">
      <p class="muted small">{played === 0 ? "Play up to two cards from your hand, or pass." : "You played one card: play a second one (your turn then ends) or pass."}
        {" "}Playable cards are highlighted in your hand below.</p>
      {card ? (
        <PlayForm card={card} view={view} seat={seat} names={names} busy={busy} send={send} onCancel={() => setPlaying(null)} />
      ) : (
        <div class="lm-hand-quick">
          {hand.map((c) => (
            <button key={c.id} type="button" class="btn lm-handbtn" disabled={busy || !c.playable} data-testid="play-card" data-card={c.id}
              title={c.playable ? `${c.cost_text} — ${c.effect_text}` : "Its cost cannot be paid now"} onClick={() => setPlaying(c.id)}>
              ▶ {c.name_en || c.name}
            </button>
          ))}
        </div>
      )}
      <div class="row-actions lm-turn-actions">
        <button type="button" class="btn big" disabled={busy} data-testid="choice-pass" onClick={() => void send({ pass: {} })}>
          {played === 0 ? "Pass (final unless targeted)" : "Stop here and pass"}
        </button>
        {removable.map((c) => (
          <button key={c.id} type="button" class="btn danger" disabled={busy} data-testid="remove-permanent" data-card={c.id}
            onClick={() => void send({ remove_permanent: { card: c.id } })}>↩ Remove {c.name_en || c.name}</button>
        ))}
      </div>
    </div>
  );
}

function AllianceTurn({ prompt, names, busy, send }: { prompt: Decision; names: string[]; busy: boolean; send: Send }) {
  return (
    <div class="lm-choices">
      {allianceTurnChoices(prompt, names).map((c) => (
        <button key={c.id} type="button" class={`btn lm-choice ${c.tone === "primary" ? "primary" : c.tone === "danger" ? "danger" : ""}`}
          disabled={busy} data-testid={`choice-${c.id}`} onClick={() => void send(c.action)}>
          {c.label}
        </button>
      ))}
    </div>
  );
}

const KIND_TITLE: Record<number, string> = {
  [PromptKind.CHOOSE_DECK]: "New policy — choose a deck",
  [PromptKind.KEEP_CARDS]: "New policy — keep cards",
  [PromptKind.DISCARD]: "Hand limit",
  [PromptKind.POLITICAL_TURN]: "Political decisions",
  [PromptKind.RESIST]: "You are attacked",
  [PromptKind.CONTRIBUTE]: "A shared payment",
  [PromptKind.RAISE_CLASS]: "Raise a standard of living",
  [PromptKind.LOWER_CLASS]: "Lower a standard of living",
  [PromptKind.LOWER_FACTORY]: "Famine — lower a factory",
  [PromptKind.GROWTH_FACTORY]: "Economic growth",
  [PromptKind.ALLIANCE_TURN]: "Alliances",
  [PromptKind.ALLIANCE_VOTE]: "Alliance vote",
  [PromptKind.ALLIANCE_FEE]: "Alliance fee",
  [PromptKind.HELP_REQUEST]: "Shortage — ask for help?",
  [PromptKind.HELP_ANSWER]: "An ally asks for help",
  [PromptKind.BREAK_ALLIANCE]: "Help refused",
  [PromptKind.REMOVE_AGRICULTURE]: "Intensive agriculture",
};

/**
 * The hand cards of a discard as the question's targets: a click picks or unpicks the card's
 * option (the answer is still sent with the panel's button: a discard is not undone), in the
 * order clicked, which is the order they go under their decks.
 */
export interface HandPick {
  /** Card id → its place under the decks (1-based), for the cards picked so far. */
  picked: ReadonlyMap<number, number>;
  /** Whether a card is one of the question's options. */
  offered: (card: number) => boolean;
  /** The card whose option is under the pointer in the panel. */
  hot: number | null;
  toggle: (card: number) => void;
}

export function handPick(core: Prompt | null, control: PromptControl): HandPick | undefined {
  if (!core) return undefined;
  const options = cardOptions(core);
  const hot = control.hot?.startsWith("card:") ? Number(control.hot.slice(5)) : null;
  return {
    picked: pickedCards(core, control.draft.chosen), hot,
    offered: (card) => options.has(card),
    toggle: (card) => {
      const option = options.get(card);
      if (option == null || control.busy) return;
      control.setDraft({ ...control.draft, chosen: toggleChoice(core, control.draft.chosen, option) });
    },
  };
}

function DiscardCards({ hand, pick, busy }: { hand: Card[]; pick: HandPick; busy: boolean }) {
  return (
    <div class="lm-card-grid" data-testid="discard-cards">
      {hand.map((c) => {
        const under = pick.picked.get(c.id);
        return (
          <CardFace key={c.id} card={c} compact selected={under != null} hot={pick.hot === c.id} testid="discard-card" disabled={busy}
            onClick={pick.offered(c.id) ? () => pick.toggle(c.id) : undefined}
            badge={under != null ? <span class="lm-keep-badge under">under #{under}</span> : undefined} />
        );
      })}
    </div>
  );
}

// The first `count` of the order are kept: each card shows where the order puts it, and a click
// moves it in or out of the kept ones.
function KeepCards({ drawn, count, core, control }: { drawn: Card[]; count: number; core: Prompt; control: PromptControl }) {
  const order = control.draft.order;
  const options = cardOptions(core);
  return (
    <div class="lm-card-grid" data-testid="keep-cards">
      {drawn.map((c, i) => {
        const option = options.get(c.id);
        const pos = option == null ? -1 : order.indexOf(option);
        const kept = pos >= 0 && pos < count;
        return (
          <CardFace key={`${c.id}-${i}`} card={c} selected={kept} testid="drawn-card" disabled={control.busy}
            onClick={option == null ? undefined : () => control.setDraft({ ...control.draft, order: keepToggle(order, option, count) })}
            badge={pos < 0 ? undefined : kept ? <span class="lm-keep-badge">✓ keep</span>
              : <span class="lm-keep-badge under">under #{pos - count + 1}</span>} />
        );
      })}
    </div>
  );
}

/**
 * A core question of the nation, asked by the generic panel, with LIMIT's cards and facts beside
 * it. `prompt` is the same decision in LIMIT's own view (absent if the view lacks it).
 */
function CoreDecision({ prompt, core, control, view, busy, error, pick }: {
  prompt: Decision | null; core: Prompt; control: PromptControl; view: BoardView; busy: boolean; error: string; pick?: HandPick;
}) {
  const facts = prompt ? decisionFacts(prompt, view) : [];
  const keep = prompt?.kind === PromptKind.KEEP_CARDS && core.options.length > 0;
  const discard = prompt?.kind === PromptKind.DISCARD && !!pick;
  const aside = keep || discard || facts.length > 0;
  return (
    <div class={`lm-decision-grid ${aside ? "" : "alone"}`}>
      <PromptPanel prompt={core} onAnswer={control.send} control={control} busy={busy} error={error} />
      {aside && (
        <div class="lm-decision-aside">
          {facts.length > 0 && (
            <ul class="lm-facts" data-testid="decision-facts">
              {facts.map((f) => (
                <li key={f.key} class={f.warn ? "warn" : ""} data-fact={f.key} data-warn={f.warn ? "true" : undefined}>{f.text}</li>
              ))}
            </ul>
          )}
          {keep && (
            <>
              <p class="muted small">Click a card to keep it or to put it under the deck. The order beside says which goes under first: it comes back first.</p>
              <KeepCards drawn={prompt.drawn ?? []} count={prompt.count} core={core} control={control} />
            </>
          )}
          {discard && (
            <>
              <p class="muted small">Click the cards to put under their decks, in that order.</p>
              <DiscardCards hand={view.hand ?? []} pick={pick!} busy={busy} />
            </>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * My open decision: the core's question when there is one, else LIMIT's own turn form (the
 * political turn, the Alliance step).
 */
export function MyDecision({ prompt, core, control, view, seat, names, busy, error, send, playing, setPlaying, pick }: {
  /** The decision in LIMIT's view (view.prompts), if any. */
  prompt: Decision | null;
  /** The core's question to the seat (table.prompts[0]), if any. */
  core: Prompt | null;
  control: PromptControl;
  view: BoardView; seat: number; names: string[]; busy: boolean; error: string; send: Send;
  /** The hand card whose play form is open (the hand below can open it too). */
  playing: number | null; setPlaying: (id: number | null) => void;
  pick?: HandPick;
}) {
  const kind = prompt?.kind as number | undefined;
  return (
    <section class={`lm-prompt mine ${core ? "core" : ""} k${kind ?? 0}`} data-testid="decision" data-kind={(kind != null && PROMPT_SLUG[kind]) || "question"}
      data-seat={seat} data-count={prompt?.count} data-played={prompt?.cards_played_this_turn}>
      <header>
        <span class="lm-kicker">{(kind != null && KIND_TITLE[kind]) || "Decision"}</span>
        {!core && prompt && <h3><Txt text={prompt.why} /></h3>}
      </header>
      {core ? <CoreDecision prompt={prompt} core={core} control={control} view={view} busy={busy} error={error} pick={pick} />
        : prompt && kind === PromptKind.POLITICAL_TURN ? <PoliticalTurn prompt={prompt} view={view} seat={seat} names={names} busy={busy} send={send} playing={playing} setPlaying={setPlaying} />
          : prompt && kind === PromptKind.ALLIANCE_TURN ? <AllianceTurn prompt={prompt} names={names} busy={busy} send={send} />
            : <p class="muted">This client does not know how to answer this decision yet: please reload, or update the client.</p>}
      {!core && <ActionError error={error} />}
    </section>
  );
}

/** Decisions awaited from others (public: no drawn cards). */
export function OthersPrompts({ prompts, names }: { prompts: Decision[]; names: string[] }) {
  if (!prompts.length) return null;
  return (
    <ul class="lm-waiting" data-testid="others-prompts">
      {prompts.map((p, i) => (
        <li key={i} data-kind={PROMPT_SLUG[p.kind]} data-seat={p.seat}>
          <b>{playerName(names, p.seat)}</b> · {KIND_TITLE[p.kind] ?? "decision"}
          <span class="muted"> — {p.kind === PromptKind.CHOOSE_DECK && p.options?.length ? `decks: ${p.options.map((d: number) => DECK_NAME[d]).join(", ")}` : <Txt text={p.why} />}</span>
        </li>
      ))}
    </ul>
  );
}
