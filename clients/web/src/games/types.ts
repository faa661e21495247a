import type { ComponentType } from "preact";
import type { Prompt } from "../table";

/**
 * What a board gets. `View` is the game's decoded View and `Data` its decoded static data
 * (protobufjs messages: `Msg<>` of their generated types); the page knows neither and passes
 * what the room's view_type and GameInfo.static_type decode to.
 */
export interface BoardProps<View extends object = object, Data = unknown> {
  /** The decoded game View (protobufjs message). */
  view: View;
  /** The seat the view is for, -1 for a spectator. */
  seat: number;
  /** Display names per seat. */
  names: string[];
  /** Seats expected to act now. */
  acting: number[];
  gameOver: boolean;
  /** Replays and spectators: nothing can be played. */
  readOnly: boolean;
  /** Sends one of the game's Action messages (plain object); rejects with the server's reason. */
  submit?: (action: object) => Promise<void>;
  /** Full name of the game's Action message (for answers and resigning: src/ui/prompt.ts). */
  actionType?: string;
  /** Per seat, whether its player is connected; absent in replays. */
  connected?: boolean[];
  /**
   * The game's static data (GameInfo.static_data, decoded): the card texts, categories and boards
   * that views name by id. Absent until the game list has arrived.
   */
  gameData?: Data;
}

export interface OptionsFormProps {
  value: Record<string, unknown>;
  onChange: (v: Record<string, unknown>) => void;
}

/** A player-facing rules page (the game's howto.ts). */
export interface HowToPlay {
  summary: string;
  sections: { heading: string; paragraphs: string[]; list?: string[] }[];
}

/** A word counted in the game's own terms, singular and plural: its scores ("79 VP"), its seats
 * ("3 nations"). */
export interface CountWord {
  one: string;
  many: string;
}

/** What a game folder exports by default from its index.ts(x) (`View`, `Data`: see BoardProps). */
export interface GameUI<View extends object = object, Data = unknown> {
  id: string;
  /** A short sales line for the lobby card. */
  tagline: string;
  /** An emoji or short glyph used as the game's emblem. */
  emblem: string;
  Board: ComponentType<BoardProps<View, Data>>;
  OptionsForm?: ComponentType<OptionsFormProps>;
  defaultOptions: () => Record<string, unknown>;
  /** How to play, for the rules page (#/rules/<game>). */
  howToPlay?: HowToPlay;
  /** The room's options in a few words for the lobby (decoded Options, defaults absent). */
  describeOptions?: (options: Record<string, unknown>) => string;
  /**
   * Whether the board itself asks `prompt` (the viewer's current question, table.prompts[0]) in
   * `view`: its own controls, its targets clickable. Otherwise the page shows the generic
   * PromptPanel under the board, so any question can be answered without game code.
   */
  drawsPrompt?: (prompt: Prompt, view: View) => boolean;
  /** The unit of its scores in the final ranking, the same as on its board (points by default). */
  scoreUnit?: CountWord;
  /** What a seat is called in this game's lobby choices ("nation"; "player" by default). */
  seatWord?: CountWord;
}
