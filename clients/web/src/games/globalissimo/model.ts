// Enum values of proto/games/globalissimo.proto, and small helpers over the decoded View.
import { unprefixed } from "../../enums";
import * as pb from "../../gen/games/globalissimo";
import type { Draft, Msg } from "../../proto";
import { PromptKind, type Prompt } from "../../table";
import { optionForTarget, promptTargets, singleChoice, type PromptTargets } from "../../ui/prompt";
import { choiceByKey, moveKind, paramOf, paramValues, type MoveChoice } from "../../ui/kit/moves";

export const Phase = unprefixed(pb.Phase, "PHASE_");
export const Barrier = unprefixed(pb.BarrierColor, "BARRIER_");

/** The View as decoded, and its parts the board draws. */
export type View = Msg<pb.View>;
export type Player = Msg<pb.Player>;
export type DisplaySlot = Msg<pb.DisplaySlot>;
export type Question = Msg<pb.Question>;
export type RoundSummary = Msg<pb.RoundSummary>;
export type TrackSquare = Msg<pb.TrackSquare>;
/** The static data as decoded (GameInfo.static_data). */
export type StaticData = Msg<pb.StaticData>;
/** An Action as `submit` takes it. */
export type Action = Draft<pb.Action>;
/**
 * A view or any part of it: the readers below take whatever a view carries (a field a test left
 * out, or a view without the game's newer fields, reads as its default).
 */
type ViewPart = Draft<pb.View>;
type DataPart = Draft<pb.StaticData>;

export function playerName(names: string[], seat: number): string {
  return names[seat] ?? `Seat ${seat + 1}`;
}

export function ordinal(n: number): string {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

/** The fields the published placement sets (the "place" family's params). */
export const SLOT = "place.slot";
export const POSITION = "place.position";

/** The placement the engine publishes: its family leaf, the free slots and the positions. */
export interface PlaceMove {
  move: MoveChoice;
  slots: number[];
  positions: number[];
}

/**
 * The seat's placement as published (Table.moves' "place" family), or null when the seat may not
 * place now: the board offers exactly these slots and positions and knows no rule of its own.
 */
export function placeMove(roots: readonly MoveChoice[]): PlaceMove | null {
  const move = choiceByKey(roots, "place");
  if (!move || moveKind(move) !== "family") return null;
  const slot = paramOf(move, SLOT);
  const position = paramOf(move, POSITION);
  if (!slot || !position) return null;
  return { move, slots: paramValues(slot), positions: paramValues(position) };
}

/** How the board asks a barrier question: its capital box, or its world map. */
export type QuestionForm = "capital" | "map";

/**
 * The board's own form for `prompt` (the viewer's current core question) in `view`: the orange
 * barrier's PROMPT_TEXT goes to the capital box, the violet barrier's single PROMPT_CHOOSE among
 * map regions to the world map. Anything else (null) is left to the generic prompt panel.
 */
export function questionForm(view: ViewPart | null | undefined, prompt: Prompt | null | undefined): QuestionForm | null {
  if (!prompt || view?.phase !== Phase.QUESTION || !view.question) return null;
  const kind = view.question.kind;
  if (kind === Barrier.ORANGE && prompt.kind === PromptKind.TEXT) return "capital";
  if (kind === Barrier.VIOLET && singleChoice(prompt) && promptTargets(prompt).regions.size > 0) return "map";
  return null;
}

/** A category as the static data describes it (GameInfo.static_data). */
export type CategoryInfo = Msg<pb.Category>;
/** A country card's face: all a face-down card shows. */
export type CountryFace = Msg<pb.CountryFace>;

interface Index { categories: Map<string, CategoryInfo>; countries: Map<string, CountryFace> }
const indexes = new WeakMap<object, Index>();

function index(data: StaticData | null | undefined): Index | undefined {
  if (!data) return undefined;
  let ix = indexes.get(data);
  if (!ix) {
    ix = {
      categories: new Map((data.categories ?? []).map((c) => [c.id, c])),
      countries: new Map((data.countries ?? []).map((c) => [c.id, c])),
    };
    indexes.set(data, ix);
  }
  return ix;
}

/**
 * The category a view names by id. Without the static data (a game list not yet arrived) the id
 * stands in for the name, so the board still says something true.
 */
export function categoryOf(data: StaticData | null | undefined, id: string | undefined): CategoryInfo | null {
  if (!id) return null;
  return index(data)?.categories.get(id) ?? { id, name: id, unit: "", description: "", source: "" };
}

/** The face of the country card with this id (the id itself stands in for an unknown one). */
export function countryFace(data: StaticData | null | undefined, id: string | undefined): CountryFace {
  const key = id ?? "";
  return index(data)?.countries.get(key) ?? { id: key, name: key, flag: "" };
}

/**
 * A refused answer as players read it: a capital as typed; a map answer names a deck country by
 * its card's id (its face is static data) and any other region by name, which stands as it is.
 */
export function refusedAnswer(data: StaticData | null | undefined, kind: number, answer: string): string {
  return kind === Barrier.VIOLET ? countryFace(data, answer).name : answer;
}

/** A square of the score track as the board draws it. */
export interface TrackSquareView { distance: number; barrier: number; barrier_present: boolean }

/**
 * The score track: its layout from the static data (the same in every game), each barrier square
 * with this game's colour for it and whether it is still there (View.barriers). Without the
 * static data (the game list not yet arrived) there is no track to draw.
 */
export function trackSquares(view: ViewPart | null | undefined, data: DataPart | null | undefined): TrackSquareView[] {
  const barriers = view?.barriers ?? [];
  return (data?.track ?? []).map((sq) => {
    const b = sq.barrier ?? -1;
    const state = b >= 0 ? barriers[b] : undefined;
    return {
      distance: sq.distance ?? 0,
      barrier: state?.color ?? Barrier.NONE,
      barrier_present: !!state?.present,
    };
  });
}

/** The map id of the region the draft's chosen option stands for (the map's selection). */
export function chosenRegion(prompt: Prompt | null | undefined, chosen: readonly string[]): string | undefined {
  if (!prompt || chosen.length === 0) return undefined;
  const region = prompt.options.find((o) => o.id === chosen[0])?.target?.region;
  return region || undefined;
}

/** The draft's choice for a map selection: the option standing for that region, or none. */
export function chooseRegion(targets: PromptTargets, mapId: string | undefined): string[] {
  const option = mapId ? optionForTarget(targets, { region: mapId }) : undefined;
  return option == null ? [] : [option];
}

/** A settled barrier question (View.settled) as the board shows it. */
export interface SettledAnswer {
  round: number;
  kind: "capital" | "map";
  countryId: string;
  /** The right region, for a map question. */
  mapId: string;
  capital: string;
  /** The seat that answered right, -1 when nobody did. */
  answeredBy: number;
  flag: string;
  name: string;
  /** The question: "📍 🇫🇷 France". */
  label: string;
  /** How it ended: "found by Alice", "Paris (answered by Alice)", "nobody found it"… */
  result: string;
  /** label and result in one line. */
  text: string;
  /** The entry the board draws the small answer map for: the newest map question. */
  showMap: boolean;
}

/**
 * The settled questions of `view`, newest first (the view lists them oldest first), with the
 * words the board shows. Only settled questions are in the view: one still open is asked again
 * to the next player reaching its barrier, so its answer must not be known yet.
 */
export function settledAnswers(view: ViewPart | null | undefined, data: StaticData | null | undefined, names: string[]): SettledAnswer[] {
  const out: SettledAnswer[] = [];
  let mapShown = false;
  const list = Array.isArray(view?.settled) ? view.settled : [];
  for (let i = list.length - 1; i >= 0; i--) {
    const s = list[i] ?? {};
    const kind = s.kind === Barrier.ORANGE ? "capital" : s.kind === Barrier.VIOLET ? "map" : null;
    if (!kind) continue;
    const face = countryFace(data, s.country_id ?? undefined);
    const seat = typeof s.answered_by === "number" ? s.answered_by : -1;
    const who = seat >= 0 ? playerName(names, seat) : "";
    const mapId = String(s.map_id ?? "");
    const capital = String(s.capital ?? "");
    const showMap = kind === "map" && !mapShown && mapId !== "";
    if (showMap) mapShown = true;
    const label = [kind === "map" ? "📍" : "🏛", face.flag, face.name].filter((x) => x).join(" ");
    let result: string;
    if (kind === "map") result = who ? `found by ${who}` : showMap ? "nobody found it — here it is" : "nobody found it";
    else result = `${capital || "?"} (${who ? `answered by ${who}` : "nobody found it"})`;
    out.push({
      round: Number(s.round ?? 0), kind, countryId: face.id, mapId, capital, answeredBy: seat >= 0 ? seat : -1,
      flag: face.flag, name: face.name, label, result, text: `${label}: ${result}`, showMap,
    });
  }
  return out;
}
