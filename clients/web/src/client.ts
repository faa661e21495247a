// The WebSocket session: request/reply matching by request_id, pushes, resume after reconnects,
// and the per-room game state kept in step with Snapshots and Diffs.
import type * as wire from "./gen/plateau/v1/protocol";
import { ClientMessage, ServerMessage, decodeStaticData, encode, type, type Draft, type Msg, type Plain } from "./proto";
import { AwayRooms } from "./away";
import { applyDiff, DiffError, type Op } from "./diff";
import { followMove, moverOf, startTrack } from "./lastmove";
import { describeError } from "./errors";
import { addPage, applyChange, type RoomListChange } from "./roomlist";
import { namingRoom, navigate, parseRoute } from "./router";
import { registerOptionSets } from "./table";
import { catalogueKeys, keyTexts } from "./text_ids";
import { fillParamPaths, type MoveChoice } from "./ui/kit/moves";
import {
  changed, roomState, saved, state, toast, LeaveMode, RoomStatus, SessionNoticeKind,
  type ChatLine, type RoomInfo,
} from "./store";

export class RequestError extends Error {
  constructor(public code: string, public reason: string) {
    super(describeError(code, reason));
  }
}

/** The members of ServerMessage's `body` oneof. */
export type ReplyBody = Exclude<keyof wire.ServerMessage, "request_id" | "accepted">;
/** A ServerMessage as the client keeps it (toObject with TO_OBJECT); `body` names its member. */
export type Reply = Plain<wire.ServerMessage> & { body?: ReplyBody };
/** A request: one member of ClientMessage's `body` oneof, as `encode` takes it. */
export type RequestBody = Draft<Omit<wire.ClientMessage, "request_id">>;

type Pending = { resolve: (m: Reply) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> };

const TO_OBJECT = { longs: Number, enums: Number, defaults: true, oneofs: true } as const;
const PROTOCOL_VERSION = 1;

let ws: WebSocket | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();
let welcomed: Promise<void> | null = null;
let welcomedResolve: (() => void) | null = null;
let retryMs = 500;
/** How long a request waits for its answer, or a move for its room to be entered again. */
const REQUEST_TIMEOUT_MS = 20000;
/** The rooms not yet entered again after a reconnect: src/away.ts. */
export const away = new AwayRooms(changed);

let connectTimer: ReturnType<typeof setTimeout> | null = null;
/** This connection was told that the player signed out everywhere (it is closed next). */
let signedOut = false;

/**
 * The WebSocket address. On a room's page (or an invitation or watch link naming the room) it
 * names the room, so that the server seats this connection on the room's network thread: a
 * placement hint only, the room is still entered by Join or Spectate.
 */
export function wsUrl(where: { protocol: string; host: string; hash: string } = location): string {
  const proto = where.protocol === "https:" ? "wss:" : "ws:";
  let roomId: string | undefined;
  try {
    const route = parseRoute(where.hash);
    roomId = "roomId" in route ? route.roomId : undefined;
  } catch {
    roomId = undefined;  // a malformed link (bad escapes): no hint, the connection still opens
  }
  return `${proto}//${where.host}/ws${roomId ? `?room=${encodeURIComponent(roomId)}` : ""}`;
}

/** Resolves once the session is established (after Hello/Welcome). */
export function ready(): Promise<void> {
  if (!welcomed) {
    welcomed = new Promise((r) => (welcomedResolve = r));
  }
  return welcomed;
}

export function connect(): void {
  if (ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)) return;
  if (connectTimer) { clearTimeout(connectTimer); connectTimer = null; }
  ready();
  state.connection = "connecting";
  changed();
  const sock = new WebSocket(wsUrl());
  sock.binaryType = "arraybuffer";
  ws = sock;
  sock.onopen = () => void hello(sock);
  sock.onmessage = (ev) => onFrame(new Uint8Array(ev.data as ArrayBuffer));
  sock.onclose = (ev) => {
    if (ws !== sock) return;
    // 1001: the server is going away (a restart) and said so; any other close is a drop. Either
    // way the same token brings the seats back below.
    // Closed after signing out everywhere elsewhere: the notice said so, the server is not restarting.
    if (ev.code === 1001 && !signedOut) toast("The server is restarting — reconnecting…", "info");
    signedOut = false;
    ws = null;
    for (const [, p] of pending) { clearTimeout(p.timer); p.reject(new RequestError("disconnected", "Connection lost.")); }
    pending.clear();
    away.left(state.rooms.keys());
    if (state.connection === "open") welcomed = null;
    state.connection = "closed";
    changed();
    connectTimer = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 5000);
  };
}

function sendRaw(sock: WebSocket, body: RequestBody, sent?: (id: number) => void): Promise<Reply> {
  const id = nextId++;
  sent?.(id);
  const bytes = encode(ClientMessage, { request_id: id, ...body });
  return new Promise<Reply>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new RequestError("timeout", "The server did not answer in time."));
    }, REQUEST_TIMEOUT_MS);
    pending.set(id, { resolve, reject, timer });
    sock.send(bytes as Uint8Array<ArrayBuffer>);
  });
}

/** The refusals of a saved token that end its session, in the player's words. */
const TOKEN_GONE: Record<string, string> = {
  unknown_token: "This server does not know your saved player; you start as a new player.",
  token_expired: "Your player was not used for too long and has expired; you start as a new player.",
  token_revoked: "Your player was signed out everywhere; this browser starts as a new player.",
};

async function hello(sock: WebSocket): Promise<void> {
  let reply: Reply;
  try {
    const token = saved.token;
    try {
      reply = await sendRaw(sock, { hello: { name: saved.name, token, protocol_version: PROTOCOL_VERSION } });
    } catch (e) {
      // Only a token the server will never take again means a new session: a refusal for pace or
      // a restart must keep the player (and every open tab of theirs) on the same token, so it
      // just retries later.
      const why = e instanceof RequestError ? TOKEN_GONE[e.code] : undefined;
      if (!token || !why) throw e;
      // Said once, then a Hello without the token: a new player, never the refused token again.
      if (saved.token === token) saved.token = "";
      toast(why, "info");
      reply = await sendRaw(sock, { hello: { name: saved.name, protocol_version: PROTOCOL_VERSION } });
    }
  } catch (e) {
    toast(`Could not open a session: ${(e as Error).message}`);
    sock.close();
    return;
  }
  const w = member(reply, "welcome");
  saved.token = w.token;
  if (w.name) saved.name = w.name;
  state.session = { token: w.token, player_id: w.player_id, name: w.name || saved.name };
  state.connection = "open";
  retryMs = 500;
  changed();
  // A watch lives and dies with its connection.
  if (state.roomList.watching) void listRooms(sock, "");
  try {
    const games = await sendRaw(sock, { list_games: {} });
    state.games = member(games, "game_list").games;
    for (const g of state.games) {
      registerOptionSets(g.option_sets);
      g.data = decodeStaticData(g);
    }
    changed();
  } catch (e) {
    toast(`Could not list the games: ${(e as Error).message}`);
  }
  // Re-open every room this player belongs to, with the view version already held.
  const spectating = new Set(saved.spectating);
  const ids = new Set<string>(w.room_ids);
  for (const [id] of state.rooms) ids.add(id);
  for (const id of ids) void reopenRoom(sock, id, spectating.has(id));
  welcomedResolve?.();
}

async function reopenRoom(sock: WebSocket, id: string, spectating: boolean): Promise<void> {
  const r = roomState(id);
  if (spectating) r.role = "spectator";
  try {
    if (spectating) {
      // The join code when this spectator holds it (he may sit), else the watch code.
      const code = r.info?.join_code ?? "";
      await sendRaw(sock, { spectate: { room_id: id, join_code: code, watch_code: code ? "" : r.info?.watch_code ?? "" } });
    } else {
      await sendRaw(sock, { join_room: { room_id: id, join_code: r.info?.join_code ?? "" } });
    }
    if (r.info && r.info.status !== RoomStatus.WAITING) {
      await sendRaw(sock, { resync: { room_id: id, have_version: r.game?.version ?? 0 } });
    }
    away.back(id);
  } catch (e) {
    // Entered on the next connection (room_moved closes this one).
    if (e instanceof RequestError && (e.code === "disconnected" || e.code === "room_moved")) return;
    away.back(id);
    if (e instanceof RequestError && e.code === "timeout") return;
    r.lastError = (e as Error).message;
    changed();
  }
}

/**
 * Sends one request and resolves with the decoded reply (rejects with RequestError on Error).
 * `sent` learns its request id before any answer can arrive.
 */
export async function request(body: RequestBody, sent?: (id: number) => void): Promise<Reply> {
  await ready();
  if (!ws || ws.readyState !== WebSocket.OPEN) throw new RequestError("disconnected", "Not connected to the server.");
  return sendRaw(ws, body, sent);
}

/**
 * Signs the player out everywhere: this tab keeps the player under a new token, and every other
 * device or browser holding the old one is closed and must start again.
 */
export async function signOutEverywhere(): Promise<void> {
  const w = member(await request({ sign_out_everywhere: {} }), "welcome");
  saved.token = w.token;
  state.session = { token: w.token, player_id: w.player_id, name: w.name };
  changed();
}

/** Changes the player's name for the tables joined from now on (those joined keep the old one). */
export async function rename(name: string): Promise<void> {
  const w = member(await request({ rename: { name } }), "welcome");
  saved.name = w.name;
  if (state.session) state.session = { ...state.session, name: w.name };
  changed();
}

function onFrame(bytes: Uint8Array): void {
  let raw: Msg<wire.ServerMessage>, msg: Reply;
  try {
    const decoded = ServerMessage.decode(bytes);
    raw = decoded as unknown as Msg<wire.ServerMessage>;
    msg = ServerMessage.toObject(decoded, TO_OBJECT) as Reply;
  } catch (e) {
    console.error("undecodable frame", e);
    return;
  }
  const id = Number(msg.request_id);
  // Another server runs the game now (several nodes): a new connection, through the same
  // address, reaches it and resyncs; the refused request is answered as any other below.
  if (msg.error?.code === "room_moved" && ws) {
    // A code typed alone: the room it names, so that the new connection names it too.
    const named = namingRoom(parseRoute(location.hash), msg.error.room_id ?? "");
    if (named) navigate(named, true);
    toast(describeError(msg.error.code, msg.error.reason), "info");
    ws.close();
  }
  // Game state travels in every room message, whether it answers a request or is a push; a
  // peek's answer describes a room we are not in, and only its caller reads it.
  if (!peeks.delete(id)) handleBody(msg, raw);
  if (id !== 0) {
    const p = pending.get(id);
    if (p) {
      pending.delete(id);
      clearTimeout(p.timer);
      if (msg.error) p.reject(new RequestError(msg.error.code, msg.error.reason));
      else p.resolve(msg);
    }
  } else if (msg.error) {
    toast(describeError(msg.error.code, msg.error.reason));
  }
}

/**
 * The member `key` of a reply's body. The server answers each request with the body it is
 * documented to (docs/protocol.md): another one is a broken server, reported as a refusal.
 */
export function member<K extends ReplyBody>(reply: Reply, key: K): NonNullable<Reply[K]> {
  const m = reply[key];
  if (m == null) throw new RequestError("bad_reply", `The server answered ${reply.body ?? "nothing"} instead of ${key}.`);
  return m as NonNullable<Reply[K]>;
}

function handleBody(msg: Reply, raw: Msg<wire.ServerMessage>): void {
  switch (msg.body) {
    case "room": {
      const room = member(msg, "room");
      // A reply to our own join/spectate is followed by the room's chat history: start afresh.
      if (Number(msg.request_id) !== 0) roomState(room.room_id).chat = [];
      onRoomInfo(room);
      break;
    }
    case "chat": {
      const c: ChatLine = member(msg, "chat");
      const r = roomState(c.room_id);
      const dup = r.chat.some((x) => x.at_unix_ms === c.at_unix_ms && x.from_player_id === c.from_player_id && x.text === c.text);
      if (!dup) r.chat = [...r.chat, c].slice(-200);
      changed();
      break;
    }
    case "room_list_changed": onRoomListChanged(member(msg, "room_list_changed")); break;
    case "session_notice": {
      const n = member(msg, "session_notice");
      state.sessionNotice = { kind: n.kind, connections: n.connections };
      if (n.kind === SessionNoticeKind.SIGNED_OUT) signedOut = true;
      changed();
      break;
    }
    case "snapshot": onSnapshot(member(msg, "snapshot")); break;
    case "diff": {
      const d = member(msg, "diff");
      if (raw.diff?.diff) onDiff(d, raw.diff.diff.ops);
      break;
    }
    case "game_over": {
      const g = member(msg, "game_over");
      const r = roomState(g.room_id);
      r.results = g.results;
      r.gameId = g.game_id;
      r.replayToken = g.replay_token ?? "";
      changed();
      break;
    }
  }
}

function onRoomInfo(info: RoomInfo): void {
  const r = roomState(info.room_id);
  const wasPlaying = r.info?.status === RoomStatus.PLAYING;
  const wasFinished = r.info?.status === RoomStatus.FINISHED;
  r.info = info;
  r.infoAt = Date.now();
  if (info.join_code) state.joinCodes.set(info.join_code, info.room_id);
  if (info.game_id) r.gameId = info.game_id;
  if (info.your_seat >= 0) r.role = "player";
  // Back to waiting, or a rematch begun: the last game's board and results go (the new game's
  // Snapshot follows this RoomInfo on the same connection).
  if ((info.status === RoomStatus.WAITING && wasPlaying) || (info.status === RoomStatus.PLAYING && wasFinished)) {
    r.game = null;
    r.results = null;
    r.replayToken = "";
  }
  changed();
}

/** The keys of the phrases of the game whose views are `viewType`, by number (Text.id). */
function textKeys(viewType: string): readonly string[] {
  return catalogueKeys(state.games.find((g) => g.view_type === viewType)?.texts);
}

/**
 * What the wire form sends once given back to a view of type `viewType` as it arrives (Text
 * keys, param paths).
 */
export function fromWire(view: object, viewType: string): void {
  keyTexts(view, textKeys(viewType));
  fillParamPaths((view as { table?: { moves?: MoveChoice[] | null } | null }).table?.moves);
}

function onSnapshot(s: Plain<wire.Snapshot>): void {
  const r = roomState(s.room_id);
  try {
    const t = type(s.view_type);
    const view = t.decode(s.view);
    fromWire(view, s.view_type);
    r.game = {
      version: Number(s.version), seat: s.seat, viewType: s.view_type,
      view, acting: s.acting_seats, gameOver: s.game_over, canUndo: !!s.can_undo,
    };
    r.moves = startTrack(r.game.view, s.seat);
  } catch (e) {
    console.error("bad snapshot", e);
    r.lastError = `Could not read the game view: ${(e as Error).message}`;
  }
  changed();
}

const resyncing = new Set<string>();

function resync(roomId: string, have: number): void {
  if (resyncing.has(roomId)) return;
  resyncing.add(roomId);
  request({ resync: { room_id: roomId, have_version: have } })
    .catch((e) => toast(`Could not resynchronise: ${(e as Error).message}`))
    .finally(() => resyncing.delete(roomId));
}

/** `ops`: the diff's ops as decoded (64-bit values as Long). */
function onDiff(d: Plain<wire.Diff>, ops: Op[]): void {
  const r = roomState(d.room_id);
  const g = r.game;
  const from = Number(d.diff?.from_version), to = Number(d.diff?.to_version);
  if (!g) {
    resync(d.room_id, 0);
    return;
  }
  if (to <= g.version) return; // already have it (e.g. answer to a resync that raced a push)
  if (from !== g.version) {
    resync(d.room_id, g.version);
    return;
  }
  let view: object;
  try {
    // A new root whose unchanged parts are the old objects: memoised parts of a board skip
    // their render, and the old view stays whole if an op fails.
    view = applyDiff(type(g.viewType), g.view, ops);
    // After the ops, only what they made is without its key (see keyTexts).
    if (view !== g.view) fromWire(view, g.viewType);
  } catch (e) {
    console.error("diff failed", e);
    if (e instanceof DiffError) {
      g.version = 0;
      resync(d.room_id, 0);
      return;
    }
    throw e;
  }
  r.game = { ...g, view, version: to, acting: d.acting_seats, gameOver: d.game_over, canUndo: !!d.can_undo };
  const mover = moverOf(d);
  r.moves = followMove(r.moves ?? startTrack(g.view, g.seat), g.view, view, mover);
  changed();
}

// ----- the lobby's live room list -----

const ROOM_PAGE = 100;
// Pushes received while a page is on its way: the page is the state when it was asked for, so
// they go on top of it rather than under it.
let heldChanges: RoomListChange[] = [];
// Only the latest page request may land (an older one may answer after a reconnect's relist).
let listSeq = 0;

async function listRooms(sock: WebSocket, after: string): Promise<void> {
  const seq = ++listSeq;
  const list = state.roomList;
  list.loading = true;
  if (!after) heldChanges = [];
  changed();
  let page: Plain<wire.RoomList> | null = null;
  try {
    // Every ListRooms replaces the connection's watch, so the next page keeps it on too.
    const reply = await sendRaw(sock, { list_rooms: { game: "", limit: ROOM_PAGE, after_room_id: after, watch: true } });
    page = member(reply, "room_list");
  } catch (e) {
    const lost = e instanceof RequestError && (e.code === "disconnected" || e.code === "timeout");
    if (!lost) toast((e as Error).message);
    // A refused first page (the pace limit, say) leaves no watch: ask again, as polling would
    // have. A lost connection needs nothing: hello() lists after the reconnect.
    if (!lost && !after) {
      setTimeout(() => {
        const list = state.roomList;
        if (ws === sock && state.connection === "open" && list.watching && !list.listing && !list.loading) void listRooms(sock, "");
      }, 4000);
    }
  }
  if (seq !== listSeq) return;
  list.loading = false;
  if (page && list.watching && (!after || list.listing)) {
    let l = addPage(after ? list.listing : null, page);
    for (const c of heldChanges) l = applyChange(l, c);
    list.listing = l;
  }
  heldChanges = [];
  changed();
}

function onRoomListChanged(c: RoomListChange): void {
  const list = state.roomList;
  if (!list.watching) return;
  if (list.loading) {
    heldChanges.push(c);
    return;
  }
  if (!list.listing) return;
  list.listing = applyChange(list.listing, c);
  changed();
}

/** The lobby shows: list the public rooms and keep the list live (again after reconnects). */
export function watchRooms(): void {
  const list = state.roomList;
  if (list.watching && (list.loading || list.listing)) return;
  list.watching = true;
  // Not connected yet: hello() lists once the session is open.
  if (ws && state.connection === "open") void listRooms(ws, "");
}

/** The page after the rooms listed so far. */
export function moreRooms(): void {
  const list = state.roomList;
  if (!list.watching || list.loading || !list.listing?.next) return;
  if (ws && state.connection === "open") void listRooms(ws, list.listing.next);
}

/** The lobby is gone: the server stops pushing. Without a connection there is no watch to end. */
export function unwatchRooms(): void {
  const list = state.roomList;
  list.watching = false;
  list.listing = null;
  list.loading = false;
  listSeq++;
  heldChanges = [];
  if (ws && state.connection === "open") {
    sendRaw(ws, { list_rooms: { game: "", limit: 1, watch: false } }).catch(() => {});
  }
}

// ----- actions used by the pages -----

export function markSpectating(roomId: string, on: boolean): void {
  const s = new Set(saved.spectating);
  on ? s.add(roomId) : s.delete(roomId);
  saved.spectating = [...s];
  roomState(roomId).role = on ? "spectator" : "player";
}

/** How a page names a room: its id, and the code its link carried (a join or a watch code). */
export type RoomBy = { room_id?: string; join_code?: string; watch_code?: string };

export async function joinRoom(by: RoomBy): Promise<RoomInfo> {
  const reply = await request({ join_room: { room_id: by.room_id ?? "", join_code: by.join_code ?? "" } });
  const info = member(reply, "room");
  markSpectating(info.room_id, false);
  if (info.status !== RoomStatus.WAITING) {
    await request({ resync: { room_id: info.room_id, have_version: roomState(info.room_id).game?.version ?? 0 } });
  }
  return info;
}

/** Request ids of peeks in flight (see onFrame). */
const peeks = new Set<number>();

/** The room an invitation leads to, without entering it (PeekRoom). */
export async function peekRoom(by: RoomBy): Promise<RoomInfo> {
  const reply = await request({ peek_room: { room_id: by.room_id ?? "", join_code: by.join_code ?? "" } },
    (id) => peeks.add(id));
  return member(reply, "room");
}

export async function spectate(by: RoomBy): Promise<RoomInfo> {
  const reply = await request({
    spectate: { room_id: by.room_id ?? "", join_code: by.join_code ?? "", watch_code: by.watch_code ?? "" },
  });
  const info: RoomInfo | null = reply.room ?? null;
  const id = info?.room_id ?? by.room_id ?? state.joinCodes.get(by.join_code ?? "") ?? "";
  markSpectating(id, true);
  if (!info || info.status !== RoomStatus.WAITING) {
    await request({ resync: { room_id: id, have_version: 0 } });
  }
  const held = roomState(id).info ?? info;
  if (!held) throw new RequestError("bad_reply", "The server did not describe the room.");
  return held;
}

/** `mode` only matters during a game: what becomes of the seat (LeaveMode). */
export async function leaveRoom(roomId: string, mode: number = LeaveMode.KEEP_SEAT): Promise<void> {
  try {
    await request({ leave_room: { room_id: roomId, mode } });
  } finally {
    markSpectating(roomId, false);
    state.rooms.delete(roomId);
    away.back(roomId);
    changed();
  }
}

/** Once the room is entered on the current connection: a move made while reconnecting is sent
 * then, and the rules judge it as any move that crosses another player's. */
async function roomBack(roomId: string): Promise<void> {
  await ready();
  if (!(await away.whenBack(roomId, REQUEST_TIMEOUT_MS))) {
    throw new RequestError("timeout", "The game could not be reached again in time.");
  }
}

export async function submitAction(roomId: string, actionType: string, action: object): Promise<void> {
  const r = roomState(roomId);
  const bytes = encode(type(actionType), action);
  const version = r.game?.version ?? 0;  // the view the move was made on
  await roomBack(roomId);
  await request({ action: { room_id: roomId, action: bytes, view_version: version } });
}

/** Takes back this seat's last move; rejects with the server's reason when it may not. */
export async function undoMove(roomId: string): Promise<void> {
  await roomBack(roomId);
  await request({ undo_move: { room_id: roomId } });
}

/** The results of a finished game, when its GameOver push was missed (e.g. after a reload). */
export async function fetchResults(roomId: string, gameId: string): Promise<void> {
  const reply = await request({ get_replay: { game_id: gameId, step: 0, seat: -1 } });
  const r = roomState(roomId);
  if (!r.results) {
    const summary = member(reply, "replay").summary;
    r.results = summary?.results ?? [];
    r.gameId = gameId;
    r.replayToken = summary?.replay_token ?? "";
    changed();
  }
}
