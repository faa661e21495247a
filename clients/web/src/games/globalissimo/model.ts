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

/** A category as the static data describes it (GameInfo.static_data). */
export interface CategoryInfo { id: string; name: string; unit: string; description: string; source: string }
/** A country card's face: all a face-down card shows. */
export interface CountryFace { id: string; name: string; flag: string }

interface Index { categories: Map<string, CategoryInfo>; countries: Map<string, CountryFace> }
const indexes = new WeakMap<object, Index>();

function index(data: any): Index | undefined {
  if (!data) return undefined;
  let ix = indexes.get(data);
  if (!ix) {
    ix = {
      categories: new Map((data.categories ?? []).map((c: CategoryInfo) => [c.id, c])),
      countries: new Map((data.countries ?? []).map((c: CountryFace) => [c.id, c])),
    };
    indexes.set(data, ix);
  }
  return ix;
}

/**
 * The category a view names by id. Without the static data (a game list not yet arrived) the id
 * stands in for the name, so the board still says something true.
 */
export function categoryOf(data: any, id: string | undefined): CategoryInfo | null {
  if (!id) return null;
  return index(data)?.categories.get(id) ?? { id, name: id, unit: "", description: "", source: "" };
}

/** The face of the country card with this id (the id itself stands in for an unknown one). */
export function countryFace(data: any, id: string | undefined): CountryFace {
  const key = id ?? "";
  return index(data)?.countries.get(key) ?? { id: key, name: key, flag: "" };
}
