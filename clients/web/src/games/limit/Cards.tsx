// Policy cards: the card face (deck colour, names, cost and effect written out) and small chips.
import type { ComponentChildren } from "preact";
import type { Mark } from "../../ui/LastMove";
import { DECK_ICON, DECK_NAME } from "./model";
import type { Card } from "./model";

const DECK_CLASS: Record<number, string> = { 1: "society", 2: "army", 3: "production" };

export function CardFace({ card, children, selected, hot, onClick, testid, compact, badge, disabled, mark }: {
  card: Card; children?: ComponentChildren; selected?: boolean; onClick?: () => void; testid?: string;
  compact?: boolean; badge?: ComponentChildren; disabled?: boolean;
  /** Another seat's move since the viewer's changed it (src/ui/LastMove.tsx). */
  mark?: Mark;
  /** Its option is under the pointer elsewhere (a question's panel). */
  hot?: boolean;
}) {
  const Tag = onClick ? "button" : "div";
  return (
    <Tag type={onClick ? "button" : undefined} onClick={onClick} disabled={onClick ? disabled : undefined}
      class={`lm-card deck-${DECK_CLASS[card.deck] ?? "none"} ${selected ? "selected" : ""} ${hot ? "hot" : ""} ${compact ? "compact" : ""} ${onClick ? "clickable" : ""} ${card.playable === false ? "unplayable" : ""}${mark?.cls ?? ""}`}
      title={mark?.text} {...mark?.attrs}
      data-testid={testid ?? "card"} data-card={card.id} data-key={card.key}
      data-playable={card.playable ? "true" : "false"} aria-pressed={onClick ? !!selected : undefined}>
      <div class="lm-card-head">
        <span class="lm-card-deck" title={DECK_NAME[card.deck]}>{DECK_ICON[card.deck]}</span>
        <span class="lm-card-names">
          <b>{card.name_en || card.name}</b>
          {card.name && card.name !== card.name_en && <i>{card.name}</i>}
        </span>
      </div>
      <div class="lm-card-kind">
        {card.permanent ? <span class="lm-tag perm" title="Permanent: stays in play">Permanent</span>
          : <span class="lm-tag imm" title="Immediate: back to the hand at the end of the political phase">Immediate</span>}
        <span class="lm-card-deckname">{DECK_NAME[card.deck]}</span>
      </div>
      {!compact && (
        <div class="lm-card-body">
          <p class="lm-cost"><span class="lm-label">Cost</span>{card.cost_text}</p>
          <p class="lm-effect"><span class="lm-label">Effect</span>{card.effect_text}</p>
          <div class="lm-card-flags">
            {card.targets && <span class="lm-flag">🎯 targets a nation</span>}
            {card.resistible && <span class="lm-flag">🛡 can be resisted</span>}
            {card.military_min > 0 && <span class="lm-flag">⚔ ≥ {card.military_min} M</span>}
            {card.removable && <span class="lm-flag">↩ removable</span>}
          </div>
        </div>
      )}
      {compact && <p class="lm-card-mini" title={`${card.cost_text} — ${card.effect_text}`}>{card.effect_text}</p>}
      {badge}
      {children}
    </Tag>
  );
}
