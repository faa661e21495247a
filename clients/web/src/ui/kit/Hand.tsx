// The kit's hand of cards: a row of cards whose faces a board draws from its static data (the
// view names cards by id), the targets of the current move choices marked and clickable (a card
// to play, to discard), a click or Enter reported as the card's target, and an optional
// selection a board keeps itself (cards picked before a Play).
import type { ComponentChildren } from "preact";
import type { Target } from "../../table";
import { moveTargets, type MoveChoice } from "./moves";

export interface HandProps {
  /** The card ids in the hand, in order. */
  cards: readonly string[];
  /** A card's face, from the game's static data. */
  face: (id: string) => ComponentChildren;
  /** A card's name for a screen reader. */
  name?: (id: string) => string;
  /** The choices open now: their card targets are playable. */
  choices?: readonly MoveChoice[];
  /** Cards the board has picked. */
  selected?: ReadonlySet<string>;
  onTarget?: (t: Target) => void;
  /** Also makes cards that no choice targets clickable (a board's own selection). */
  selectable?: boolean;
  label?: string;
}

export function Hand({ cards, face, name = (id) => id, choices = [], selected, onTarget, selectable = false, label = "Hand" }: HandProps) {
  const targets = moveTargets(choices).cards;
  return (
    <ul class="kit-hand" data-testid="hand" aria-label={label}>
      {cards.map((id, i) => {
        const playable = targets.has(id);
        const on = !!onTarget && (playable || selectable);
        const picked = selected?.has(id) ?? false;
        return (
          <li key={`${id}:${i}`} class="kit-hand-slot">
            {on ? (
              <button type="button" class={`kit-card ${playable ? "target" : ""} ${picked ? "selected" : ""}`} data-testid="hand-card"
                data-card={id} data-target={playable ? "true" : "false"} aria-pressed={picked} aria-label={name(id)}
                onClick={() => onTarget!({ card: id })}>
                {face(id)}
              </button>
            ) : (
              <div class={`kit-card ${picked ? "selected" : ""}`} data-testid="hand-card" data-card={id} data-target="false" aria-label={name(id)}>
                {face(id)}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
