// Contrôle Global's card faces and backs, drawn from the static data the view's ids name.
import { useTextScope } from "../../ui/TextRender";
import {
  CATEGORY_SLUG, Tier, cardOf, categoryWord, effectLines, needsWords, pileOfCard, pileWord, resourceWord,
  type Effect, type Pile, type StaticData,
} from "./model";

function EffectBlock({ e, n, civil = false }: { e: Effect; n?: number; civil?: boolean }) {
  const scope = useTextScope();
  const { picks, steps } = effectLines(e, scope);
  const needs = needsWords(e, scope);
  return (
    <div class={`cg-effect ${civil ? "civil" : ""}`} data-testid={civil ? "card-civil" : "card-effect"} data-effect={n}>
      <div class="cg-effect-head">
        {n != null && <span class="cg-effect-n">{n}</span>}
        <b class="cg-effect-name">{e.name}</b>
        {needs && <span class="cg-needs" data-testid="card-needs" title="The levels this effect needs; each one missing costs a resource">{needs}</span>}
        {civil && <span class="cg-needs">civil society</span>}
      </div>
      {picks.length > 0 && <p class="cg-picks">{picks.join(" · ")}</p>}
      <ul class="cg-steps">{steps.map((s, i) => <li key={i}>{s}</li>)}</ul>
    </div>
  );
}

/**
 * A card as printed: name, category and pile, resources privatised, effects, civil society at the
 * foot; `civil` alone shows the foot, as civil society plays it.
 */
export function CardFace({ id, data, compact = false, civil = false }: { id: string; data: StaticData | undefined; compact?: boolean; civil?: boolean }) {
  const scope = useTextScope();
  const card = cardOf(data, id);
  if (!card) {
    return <div class="cg-card unknown" data-testid="card-face" data-card={id}><b>{id}</b></div>;
  }
  const pile = pileOfCard(data, card);
  const slug = pile ? CATEGORY_SLUG[pile.category] ?? "none" : "none";
  return (
    <div class={`cg-card c-${slug} ${pile?.tier === Tier.UPPER ? "upper" : "lower"} ${compact ? "compact" : ""}`} data-testid="card-face"
      data-card={id} data-category={slug}>
      <header class="cg-card-head">
        <b class="cg-card-name" data-testid="card-name">{card.name}</b>
        <span class="cg-card-pile" data-testid="card-pile">{pile ? pileWord(scope, pile) : "?"}</span>
        <span class="cg-card-res" data-testid="card-resources" title="Taken from the world when privatising">
          {(card.resources ?? []).length === 0 ? "no resource" : card.resources.map((r) => `${r.amount} ${resourceWord(scope, r.resource)}`).join(", ")}
        </span>
      </header>
      {!compact && !civil && (card.effects ?? []).map((e, i) => <EffectBlock key={i} e={e} n={i + 1} />)}
      {!compact && card.civil && <EffectBlock e={card.civil} civil />}
      {compact && !civil && <p class="cg-card-sub">{(card.effects ?? []).map((e) => e.name).join(" · ")}</p>}
    </div>
  );
}

/** A card's back: its pile (category and levels), all another player's hand shows. */
export function CardBack({ pile }: { pile: Pile | undefined }) {
  const scope = useTextScope();
  const slug = pile ? CATEGORY_SLUG[pile.category] ?? "none" : "none";
  return (
    <span class={`cg-back c-${slug}`} data-testid="card-back" data-category={slug} title={pile ? `A card from the ${pileWord(scope, pile)} pile` : "A card"}>
      {pile ? `${categoryWord(scope, pile.category).slice(0, 3)} ${pile.tier === Tier.UPPER ? "▲" : "▼"}` : "?"}
    </span>
  );
}
