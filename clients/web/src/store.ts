// Application state: one mutable object, and a version counter components subscribe to.
import { useEffect, useState } from "preact/hooks";
import type { MoveTrack } from "./lastmove";
import type { RoomListing } from "./roomlist";
import type { OptionSet, TextCatalogue } from "./table";
import { lowerNames, unprefixed } from "./enums";
import * as pb from "./gen/plateau/v1/protocol";

export interface SeatInfo {
  seat: number; player_id: string; name: string; ready: boolean; connected: boolean;
  /** BotLevel of a seat the server plays; 0 (absent) for a person's. */
  bot?: number;
  /** After the game: this seat wants a rematch. */
  rematch?: boolean;
  /** Presence of a person's seat; 0 for a free seat or a bot's. */
  presence?: number;
  /** How long its player had been offline (or gone) when the RoomInfo was sent. */
  offline_ms?: number;
  /** BotLevel of a bot playing this person's seat in their place; 0 when they play it. */
  stand_in?: number;
  /** Timed rooms, once the game has started. */
  clock?: SeatClock | null;
}
export interface SeatClock {
  running: boolean;
  /** Running: what was left for this decision when the RoomInfo was sent; otherwise the bank. */
  remaining_ms: number;
  /** Times in a row the seat's time ran out. */
  timeouts: number;
}
export interface TurnTimer {
  mode: number; per_move_seconds: number; bank_seconds: number; increment_seconds: number;
  timeouts_to_abandon: number;
}
export interface TimerPreset { name: string; timer: TurnTimer | null }
export interface RoomInfo {
  room_id: string; game: string; is_private: boolean; status: number;
  /** Sent only to the members who may sit: the seated, and spectators who came with it. */
  join_code: string;
  /** Sent to every member: it lets whoever holds it watch, never sit. */
  watch_code: string;
  host_player_id: string; max_seats: number; seats: SeatInfo[]; spectators: string[];
  options: Uint8Array; title: string; your_seat: number; game_id: string;
  /** null: no turn timer. */
  timer: TurnTimer | null;
  /** How long a seat's player must be offline before the others may replace it. */
  offline_grace_seconds: number;
  /** Whether the room lets a player take back his last move. */
  undo: boolean;
  /** After the game: the rematch's terms and what keeps one from starting (null before). */
  rematch?: RematchInfo | null;
}
export interface RematchInfo {
  /** The offer being made leaves the away players out. */
  without_absent: boolean;
  /** Why a rematch with every seat (bots standing in for the away) cannot start; "" when it can. */
  unavailable: string;
  /** Why one without the away players cannot; "" when it can. */
  without_unavailable: string;
  /** Seats whose player is away (left, gone or offline). */
  absent_seats: number[];
}
export interface ChatLine { room_id: string; from_name: string; from_player_id: string; text: string; at_unix_ms: number }
export interface SeatResult { seat: number; name: string; score: number; rank: number; detail: string }
export interface GameInfo {
  id: string; title: string; min_seats: number; max_seats: number;
  options_type: string; action_type: string; view_type: string;
  /** Every template the game's Texts use, the core's included (null from a server without them). */
  texts: TextCatalogue | null;
  /** The fixed option lists its questions may name (Prompt.option_set). */
  option_sets: OptionSet[];
  /** Full name of its static data message, and that message serialized (both empty if none). */
  static_type: string;
  static_data: Uint8Array;
  /** Turn timers fitted to the game, offered by the room form. */
  timer_presets: TimerPreset[];
  /** `static_data` decoded once when the list arrives (client-side only). */
  data?: any;
}
export interface GameState {
  version: number; seat: number; viewType: string;
  /**
   * The decoded View. Never written to: each diff makes a new root that shares every unchanged
   * subtree with the previous one (src/diff.ts), so components may compare parts by identity.
   */
  view: any;
  acting: number[]; gameOver: boolean;
  /** The server says this seat may take back its last move now (UndoMove). */
  canUndo: boolean;
}
export interface RoomState {
  id: string;
  info: RoomInfo | null;
  /** Date.now() when `info` arrived: clocks and offline times count on from it. */
  infoAt: number;
  chat: ChatLine[];
  game: GameState | null;
  /** What changed on the board since the local player's last move, and by whom (src/lastmove.ts). */
  moves?: MoveTrack | null;
  results: SeatResult[] | null;
  gameId: string;
  /** A private room's finished game: the key its replay link carries (GameOver). */
  replayToken: string;
  lastError: string;
  /** How the local player is in this room. */
  role: "player" | "spectator";
}
export interface Toast { id: number; kind: "error" | "info"; text: string }
export const SessionNoticeKind = unprefixed(pb.SessionNoticeKind, "SESSION_NOTICE_");
/** What the server said about this player's other connections (SessionNotice). */
export interface SessionNotice { kind: number; connections: number }

export const RoomStatus = unprefixed(pb.RoomStatus, "ROOM_STATUS_");
export const BotLevel = unprefixed(pb.BotLevel, "BOT_");
export const BOT_LEVEL_NAME = lowerNames(pb.BotLevel, "BOT_");
export const Presence = unprefixed(pb.Presence, "PRESENCE_");
export const TimerMode = unprefixed(pb.TimerMode, "TIMER_");
export const LeaveMode = unprefixed(pb.LeaveMode, "LEAVE_");
export const ReplaceKind = unprefixed(pb.ReplaceKind, "REPLACE_");
export const ActionOrigin = unprefixed(pb.ActionOrigin, "ORIGIN_");

/** The lobby's public rooms, live while the lobby shows (src/roomlist.ts). */
export interface RoomListState {
  /** Wanted: listed again with a watch after every reconnect. */
  watching: boolean;
  /** null until the first page arrives. */
  listing: RoomListing | null;
  /** A page has been asked for and has not arrived. */
  loading: boolean;
}

export const state = {
  connection: "idle" as "idle" | "connecting" | "open" | "closed",
  session: null as null | { token: string; player_id: string; name: string },
  games: [] as GameInfo[],
  rooms: new Map<string, RoomState>(),
  joinCodes: new Map<string, string>(), // join code -> room id
  roomList: { watching: false, listing: null, loading: false } as RoomListState,
  toasts: [] as Toast[],
  /** The last notice about this player's other connections, until dismissed. */
  sessionNotice: null as SessionNotice | null,
};

let version = 0;
const listeners = new Set<() => void>();
let scheduled = false;

/** Call after mutating `state`; subscribers re-render once per frame. */
export function changed(): void {
  version++;
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    for (const l of [...listeners]) l();
  });
}

export function useStore(): typeof state {
  const [, setV] = useState(0);
  useEffect(() => {
    const l = () => setV(version);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return state;
}

let toastSeq = 0;
export function toast(text: string, kind: Toast["kind"] = "error"): void {
  const t = { id: ++toastSeq, kind, text };
  state.toasts = [...state.toasts, t].slice(-4);
  changed();
  setTimeout(() => {
    state.toasts = state.toasts.filter((x) => x.id !== t.id);
    changed();
  }, kind === "error" ? 7000 : 3500);
}

export function roomState(id: string): RoomState {
  let r = state.rooms.get(id);
  if (!r) {
    r = { id, info: null, infoAt: 0, chat: [], game: null, results: null, gameId: "", replayToken: "", lastError: "", role: "player" };
    state.rooms.set(id, r);
  }
  return r;
}

export function gameInfo(id: string): GameInfo | undefined {
  return state.games.find((g) => g.id === id);
}

/**
 * A game's words, as the server lists them: the only source, so a phrase reads the same in every
 * client and a new template needs no client release. Until the list arrives (or for a game it
 * lacks) phrases show as their keys.
 */
export function gameTexts(id: string): TextCatalogue | undefined {
  return gameInfo(id)?.texts ?? undefined;
}

// ----- persisted bits -----
const LS_NAME = "plateau.name";
const LS_TOKEN = "plateau.token";
const LS_SPECTATING = "plateau.spectating";

export const saved = {
  get name(): string { return localStorage.getItem(LS_NAME) ?? ""; },
  set name(v: string) { localStorage.setItem(LS_NAME, v); },
  get token(): string { return localStorage.getItem(LS_TOKEN) ?? ""; },
  set token(v: string) { v ? localStorage.setItem(LS_TOKEN, v) : localStorage.removeItem(LS_TOKEN); },
  get spectating(): string[] {
    try { return JSON.parse(localStorage.getItem(LS_SPECTATING) ?? "[]"); } catch { return []; }
  },
  set spectating(v: string[]) { localStorage.setItem(LS_SPECTATING, JSON.stringify(v.slice(-20))); },
};
