// Enum values of proto/games/globalissimo.proto, and small helpers over the decoded View.
import { PromptKind, type Prompt } from "../../table";
import { promptTargets, singleChoice } from "../../ui/prompt";

export const Phase = { UNSPECIFIED: 0, PLACEMENT: 1, QUESTION: 2, GAME_OVER: 3 } as const;
export const Barrier = { NONE: 0, ORANGE: 1, VIOLET: 2 } as const;

export function playerName(names: string[], seat: number): string {
  return names[seat] ?? `Seat ${seat + 1}`;
}

export function ordinal(n: number): string {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

/** How the board asks a barrier question: its capital box, or its world map. */
export type QuestionForm = "capital" | "map";

/**
 * The board's own form for `prompt` (the viewer's current core question) in `view`: the orange
 * barrier's PROMPT_TEXT goes to the capital box, the violet barrier's single PROMPT_CHOOSE among
 * map regions to the world map. Anything else (null) is left to the generic prompt panel.
 */
export function questionForm(view: any, prompt: Prompt | null | undefined): QuestionForm | null {
  if (!prompt || view?.phase !== Phase.QUESTION || !view.question) return null;
  const kind = view.question.kind;
  if (kind === Barrier.ORANGE && prompt.kind === PromptKind.TEXT) return "capital";
  if (kind === Barrier.VIOLET && singleChoice(prompt) && promptTargets(prompt).regions.size > 0) return "map";
  return null;
}
