// Application state: one mutable object, and a version counter components subscribe to.
import { useEffect, useState } from "preact/hooks";
import type { MoveTrack } from "./lastmove";
import type { RoomListing } from "./roomlist";
import type { TextCatalogue } from "./table";
import { lowerNames, unprefixed } from "./enums";
import * as pb from "./gen/plateau/v1/protocol";
import type { Plain } from "./proto";

// The lobby's messages as src/client.ts keeps them: plain objects, 64-bit fields as numbers.
export type SeatInfo = Plain<pb.SeatInfo>;
export type SeatClock = Plain<pb.SeatClock>;
export type TurnTimer = Plain<pb.TurnTimer>;
export type TimerPreset = Plain<pb.TimerPreset>;
export type RoomInfo = Plain<pb.RoomInfo>;
export type RematchInfo = Plain<pb.RematchInfo>;
export type ChatLine = Plain<pb.ChatMessage>;
export type SeatResult = Plain<pb.SeatResult>;
/** A game as ListGames describes it; `texts` is null from a server without catalogues. */
export type GameInfo = Plain<pb.GameInfo> & {
  /** `static_data` decoded once when the list arrives (client-side only): see `gameData`. */
  data?: unknown;
};
export interface GameState {
  version: number; seat: number; viewType: string;
  /**
   * The decoded View. Never written to: each diff makes a new root that shares every unchanged
   * subtree with the previous one (src/diff.ts), so components may compare parts by identity.
   */
  view: object;
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
export type SessionNotice = Plain<pb.SessionNotice>;

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
