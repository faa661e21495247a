// A nation's decisions. The core's questions (decks, keeping, discards, classes, factories,
// amounts, yes/no) are asked by the generic PromptPanel, with what the board adds beside it: the
// drawn or hand cards as clickable targets, and the facts the question does not state. The
// political turn and the Alliance step are the moves the view publishes (table.moves): the board
// offers those, and the kit's picker takes a chosen move through its choices and amounts.
import type { Prompt } from "../../table";
import { PromptPanel, type PromptControl } from "../../ui/PromptPanel";
import { toggleChoice } from "../../ui/prompt";
import { ActionError, type SubmitFn, type SubmitHandle } from "../../ui/submit";
import { Txt } from "../../ui/TextRender";
import { buildMove, moveKind, type MoveChoice } from "../../ui/kit/moves";
import { MovePicker, type MovePick } from "../../ui/kit/MovePicker";
import { CardFace } from "./Cards";
import { DECK_NAME, PROMPT_SLUG, PromptKind, cardOptions, decisionFacts, handPlays, keepToggle, paramWords, pickedCards, playerName } from "./model";
import type { BoardView, Card, Decision } from "./model";

/** What the board's turn needs to offer the published moves and send one. */
export interface Moves {
  roots: readonly MoveChoice[];
  pick: MovePick;
  handle: SubmitHandle;
  submit?: SubmitFn;
  actionType?: string;
  /** The view as received (the picker's refusal lasts until the next one). */
  view: unknown;
}

/**
 * The moves that are not a hand card's play (passing, removing a permanent card, the alliance
 * moves), as buttons: a leaf is sent at once, a move with choices opens them in the picker.
 */
function OtherMoves({ moves, hand }: { moves: Moves; hand: readonly Card[] }) {
  const plays = new Set([...handPlays(moves.roots, hand).values()].map((m) => m.key));
  const others = moves.roots.filter((m) => !plays.has(m.key));
  if (!others.length) return null;
  const { handle: h, pick } = moves;
  const go = (m: MoveChoice) => {
    if (moveKind(m) !== "leaf") { pick.choose(m.key); return; }
    const built = buildMove(moves.actionType ?? "", m);
    if (built.action) void h.run(built.action);
    else h.fail(built.error);
  };
  return (
    <div class="row-actions lm-turn-actions">
      {others.map((m) => (
        <button key={m.key} type="button" class={`btn ${m.key === "pass" ? "big" : "lm-choice"}`} disabled={h.busy}
          data-testid={`choice-${m.key}`} data-kind={moveKind(m)} onClick={() => go(m)}>
          <Txt text={m.label} />
        </button>
      ))}
    </div>
  );
}

/**
 * A turn of LIMIT's own: the hand cards the moves play (the hand below opens them too) and the
 * other moves; once one is chosen, the picker with its choices, amounts, Back and Cancel.
 */
function TurnMoves({ view, moves }: { view: BoardView; moves: Moves }) {
  const hand = view.hand ?? [];
  const plays = handPlays(moves.roots, hand);
  const { pick, handle: h } = moves;
  if (pick.path.length > 0) {
    const card = hand.find((c) => plays.get(c.id)?.key === pick.path[0]);
    return (
      <div class="lm-playform" data-testid="play-form" data-card={card?.id}>
        {card && <>
          <h4>Play <b>{card.name_en || card.name}</b></h4>
          <p class="muted small"><b>Cost:</b> {card.cost_text} <b>Effect:</b> {card.effect_text}</p>
        </>}
        <MovePicker moves={moves.roots} pick={pick} handle={h} submit={moves.submit} actionType={moves.actionType} view={moves.view}
          paramLabel={paramWords} />
      </div>
    );
  }
  return (
    <div class="lm-political">
      {plays.size > 0 && (
        <>
          <p class="muted small">The cards you can play now are highlighted in your hand below.</p>
          <div class="lm-hand-quick">
            {hand.map((c) => {
              const m = plays.get(c.id);
              return (
                <button key={c.id} type="button" class="btn lm-handbtn" disabled={h.busy || !m} data-testid="play-card" data-card={c.id}
                  title={m ? `${c.cost_text} — ${c.effect_text}` : "Not playable now"} onClick={m && (() => pick.choose(m.key))}>
                  ▶ {c.name_en || c.name}
                </button>
              );
            })}
          </div>
        </>
      )}
      <OtherMoves moves={moves} hand={hand} />
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
                <li key={f.key} data-fact={f.key}>{f.text}</li>
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
export function MyDecision({ prompt, core, control, view, seat, busy, error, moves, pick }: {
  /** The decision in LIMIT's view (view.prompts), if any. */
  prompt: Decision | null;
  /** The core's question to the seat (table.prompts[0]), if any. */
  core: Prompt | null;
  control: PromptControl;
  view: BoardView; seat: number; busy: boolean; error: string;
  /** The view's published moves and the pick over them (shared with the hand below). */
  moves: Moves;
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
      {core ? <>
        <CoreDecision prompt={prompt} core={core} control={control} view={view} busy={busy} error={error} pick={pick} />
        <OtherMoves moves={moves} hand={view.hand ?? []} />
      </> : moves.roots.length > 0 ? <TurnMoves view={view} moves={moves} />
        : <p class="muted">Nothing to do here until the view offers a move.</p>}
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
