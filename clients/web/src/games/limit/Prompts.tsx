// Every decision the View asks for, rendered from the prompt data: simple choices as buttons,
// and forms for keeping/ordering drawn cards, discarding, and playing a card with its parameters.
import { useMemo, useState } from "preact/hooks";
import { Txt } from "../../ui/TextRender";
import { CardFace } from "./Cards";
import { ClassGrid } from "./NationBoard";
import {
  CLASS_LETTERS, DECK_NAME, PROMPT_SLUG, PromptKind, RESOURCE_NAME, applySteps, canLower, canRaise, classLevelsFor,
  defaultClassesFor, defaultDraft, defaultTransaction, discardAction, draftProblem, keepAction, marketTrack, maxQuantity,
  playAction, playPlan, playerName, priceOf, promptChoices, requiredSteps,
  type PlayDraft, type PlayPlan, type TransactionDraft,
} from "./model";

export type Send = (action: Record<string, unknown>) => Promise<boolean>;

function ChoiceButtons({ prompt, view, names, busy, send }: { prompt: any; view: any; names: string[]; busy: boolean; send: Send }) {
  const choices = promptChoices(prompt, view, names);
  if (!choices.length) return <p class="muted">This client does not know how to answer this decision yet: please reload, or update the client.</p>;
  return (
    <div class="lm-choices">
      {choices.map((c) => (
        <button key={c.id} type="button" class={`btn lm-choice ${c.tone === "primary" ? "primary" : c.tone === "danger" ? "danger" : ""}`}
          disabled={busy} data-testid={`choice-${c.id}`} onClick={() => void send(c.action)}>
          <span>{c.label}</span>{c.detail && <small>{c.detail}</small>}
        </button>
      ))}
    </div>
  );
}

// Keyed by the drawn cards where it is used, like DiscardForm: a new draw starts from fresh state.
function KeepForm({ prompt, busy, send }: { prompt: any; busy: boolean; send: Send }) {
  const drawn: any[] = prompt.drawn ?? [];
  const count = Math.min(prompt.count as number, drawn.length);
  const [keep, setKeep] = useState<number[]>(() => drawn.map((_, i) => i).slice(0, count));
  const [order, setOrder] = useState<number[]>([]);
  const toggle = (i: number) => {
    if (keep.includes(i)) setKeep(keep.filter((k) => k !== i));
    else setKeep(count === 1 ? [i] : [...keep, i].slice(-count));
  };
  const action = keepAction(drawn.length, keep, order) as { keep_cards: { bottom: number[] } };
  const bottom = action.keep_cards.bottom;
  const move = (pos: number, delta: number) => {
    const b = [...bottom];
    const to = pos + delta;
    if (to < 0 || to >= b.length) return;
    [b[pos], b[to]] = [b[to], b[pos]];
    setOrder(b);
  };
  return (
    <div class="lm-keep">
      <p class="muted small">Click cards to keep {count}. The others go under the deck in the order below (the first one goes under first, so it comes back first).</p>
      <div class="lm-card-grid">
        {drawn.map((c, i) => (
          <CardFace key={`${c.id}-${i}`} card={c} selected={keep.includes(i)} onClick={() => toggle(i)} disabled={busy} testid="drawn-card"
            badge={keep.includes(i) ? <span class="lm-keep-badge">✓ keep</span> : <span class="lm-keep-badge under">under #{bottom.indexOf(i) + 1}</span>} />
        ))}
      </div>
      {bottom.length > 1 && (
        <ol class="lm-order" data-testid="bottom-order">
          {bottom.map((i, pos) => (
            <li key={i}>
              <span>{drawn[i]?.name_en || drawn[i]?.name}</span>
              <button type="button" class="btn small ghost" disabled={pos === 0} onClick={() => move(pos, -1)} aria-label="Earlier">▲</button>
              <button type="button" class="btn small ghost" disabled={pos === bottom.length - 1} onClick={() => move(pos, 1)} aria-label="Later">▼</button>
            </li>
          ))}
        </ol>
      )}
      <button type="button" class="btn primary big" disabled={busy || keep.length !== count} data-testid="choice-keep"
        onClick={() => void send(action)}>
        Keep {keep.map((i) => drawn[i]?.name_en || drawn[i]?.name).join(" + ") || `${count} card${count === 1 ? "" : "s"}`}
      </button>
    </div>
  );
}

// Keyed by the hand where it is used: another hand starts a fresh selection at once (an effect
// clearing it would run after the render and could undo a click already made).
function DiscardForm({ prompt, hand, busy, send }: { prompt: any; hand: any[]; busy: boolean; send: Send }) {
  const count = prompt.count as number;
  const [picked, setPicked] = useState<number[]>([]);
  const toggle = (id: number) => setPicked(picked.includes(id) ? picked.filter((x) => x !== id) : [...picked, id].slice(-count));
  return (
    <div class="lm-discard">
      <p class="muted small">Choose {count} card{count === 1 ? "" : "s"} to put under their decks, in the order you click them ({picked.length}/{count}).</p>
      <div class="lm-card-grid">
        {hand.map((c) => (
          <CardFace key={c.id} card={c} selected={picked.includes(c.id)} onClick={() => toggle(c.id)} disabled={busy} testid="discard-card"
            badge={picked.includes(c.id) ? <span class="lm-keep-badge under">under #{picked.indexOf(c.id) + 1}</span> : undefined} />
        ))}
      </div>
      <button type="button" class="btn primary big" disabled={busy || picked.length !== count} data-testid="choice-discard"
        onClick={() => void send(discardAction(picked))}>Put {picked.length}/{count} under their decks</button>
    </div>
  );
}

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
  t: TransactionDraft; view: any; seat: number; onChange: (t: TransactionDraft) => void; onRemove: () => void;
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
        {[1, 2, 3, 4].map((r) => <option key={r} value={r}>{RESOURCE_NAME[r]} ({priceOf(marketTrack(view, r))} $)</option>)}
      </select>
      <input type="number" min={1} max={Math.max(1, max)} value={t.quantity} data-testid="tx-quantity"
        onInput={(e) => onChange({ ...t, quantity: Math.max(0, Number((e.target as HTMLInputElement).value) || 0) })} />
      <span class="muted small">× {price} $ = <b>{price * t.quantity} $</b> · max {max}</span>
      <button type="button" class="btn small ghost" onClick={onRemove} aria-label="Remove this transaction">✕</button>
    </div>
  );
}

export function PlayForm({ card, view, seat, names, busy, send, onCancel }: {
  card: any; view: any; seat: number; names: string[]; busy: boolean; send: Send; onCancel: () => void;
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
  prompt: any; view: any; seat: number; names: string[]; busy: boolean; send: Send;
  playing: number | null; setPlaying: (id: number | null) => void;
}) {
  const hand: any[] = view.hand ?? [];
  const played = prompt.cards_played_this_turn as number;
  const me = (view.nations ?? []).find((n: any) => n.seat === seat);
  const removable = (me?.permanents ?? []).filter((c: any) => c.removable);
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
        {removable.map((c: any) => (
          <button key={c.id} type="button" class="btn danger" disabled={busy} data-testid="remove-permanent" data-card={c.id}
            onClick={() => void send({ remove_permanent: { card: c.id } })}>↩ Remove {c.name_en || c.name}</button>
        ))}
      </div>
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

/** My open decision. */
export function MyPrompt({ prompt, view, seat, names, busy, send, playing, setPlaying }: {
  prompt: any; view: any; seat: number; names: string[]; busy: boolean; send: Send;
  /** The hand card whose play form is open (the hand below can open it too). */
  playing: number | null; setPlaying: (id: number | null) => void;
}) {
  const cardName = (id: number) => {
    for (const n of view.nations ?? []) for (const c of [...(n.permanents ?? []), ...(n.played_this_generation ?? [])]) if (c.id === id) return c.name_en || c.name;
    const h = (view.hand ?? []).find((c: any) => c.id === id);
    return h ? h.name_en || h.name : "";
  };
  const concerned = prompt.card && (prompt.kind === PromptKind.RESIST || prompt.kind === PromptKind.CONTRIBUTE) ? cardName(prompt.card) : "";
  return (
    <section class={`lm-prompt mine k${prompt.kind}`} data-testid="prompt-panel" data-kind={PROMPT_SLUG[prompt.kind] ?? prompt.kind} data-seat={prompt.seat}
      data-count={prompt.count} data-played={prompt.cards_played_this_turn}>
      <header>
        <span class="lm-kicker">{KIND_TITLE[prompt.kind] ?? "Decision"}{prompt.count > 1 && prompt.kind >= PromptKind.RAISE_CLASS && prompt.kind <= PromptKind.GROWTH_FACTORY ? ` · ${prompt.count} to choose` : ""}</span>
        <h3><Txt text={prompt.why} /></h3>
        {prompt.from_seat >= 0 && <p class="muted small">From {playerName(names, prompt.from_seat)}{concerned ? ` · ${concerned}` : ""}{prompt.amount ? ` · ${prompt.amount}` : ""}</p>}
      </header>
      {prompt.kind === PromptKind.KEEP_CARDS ? <KeepForm key={`${prompt.count}:${(prompt.drawn ?? []).map((c: any) => c.id).join(",")}`}
            prompt={prompt} busy={busy} send={send} />
        : prompt.kind === PromptKind.DISCARD ? <DiscardForm key={(view.hand ?? []).map((c: any) => c.id).join(",")}
            prompt={prompt} hand={view.hand ?? []} busy={busy} send={send} />
          : prompt.kind === PromptKind.POLITICAL_TURN ? <PoliticalTurn prompt={prompt} view={view} seat={seat} names={names} busy={busy} send={send} playing={playing} setPlaying={setPlaying} />
            : <ChoiceButtons prompt={prompt} view={view} names={names} busy={busy} send={send} />}
    </section>
  );
}

/** Decisions awaited from others (public: no drawn cards). */
export function OthersPrompts({ prompts, names }: { prompts: any[]; names: string[] }) {
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
