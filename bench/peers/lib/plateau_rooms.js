// Rooms of two players of a Plateau game (Globalissimo by default) over the real protocol, as
// plateau-load's bots play them (clients/load/room.cc): the host says Hello, creates the room and
// says it is ready; the guest connects naming the room (`/ws?room=ID`), joins it and says it is
// ready; once every room is set up the host starts the game. Each player keeps its own copy of
// its view, from the Snapshot and then every Diff applied to it, and acts only on what that
// view offers. When a game ends both leave it and the same players meet in a new room.
import WebSocket from "ws";
import { applyDiff, canonical, DiffError } from "./diff.js";
import { encodeClient, decodeServer, lookup, oneofCase } from "./proto.js";
import { GameTypes } from "./moves.js";
import { closeSocket, RoomBase } from "./room_base.js";

// What a reply answers, in the low bits of its request id.
const HELLO = 1, CREATE = 2, JOIN = 3, READY = 4, START = 5, SUBMIT = 6, RESYNC = 7, LEAVE = 8, CHECK = 9;
const PURPOSE_BITS = 16;

// After a refusal a player picks again at once this many times in a row, then waits for its view
// to change or for a back-off (20 ms doubling up to 1 s), as plateau-load's bots do.
const IMMEDIATE_PICKS = 3;
// Refusals that say "not now" rather than "not that move": the slot is not given back for them.
const NOT_NOW = new Set(["rate_limited", "storage_error", "shutting_down", "room_moved",
  "game_not_running", "room_not_found", "not_seated", "no_result"]);

const own = (m, name) => m[name] != null && Object.prototype.hasOwnProperty.call(m, name);

// Hello and ListGames on a connection of its own: the game's types and its fixed option lists.
export async function plateauGame(url, gameId) {
  const ws = new WebSocket(`${url}/ws`, { perMessageDeflate: false });
  try {
    const info = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no answer to ListGames in 10 s")), 10000);
      ws.on("error", reject);
      ws.on("open", () => ws.send(encodeClient({ request_id: 1, hello: { name: "bench setup", protocol_version: 1 } })));
      ws.on("message", (data) => {
        const m = decodeServer(data);
        if (own(m, "error")) return reject(new Error(`${m.error.code}: ${m.error.reason}`));
        if (m.request_id === 1) ws.send(encodeClient({ request_id: 2, list_games: {} }));
        if (m.request_id === 2) {
          clearTimeout(timer);
          const game = (m.game_list?.games ?? []).find((g) => g.id === gameId);
          if (!game) reject(new Error(`the server has no game ${gameId}`));
          else resolve(game);
        }
      });
    });
    return new GameTypes(info, lookup);
  } finally {
    ws.close();
  }
}

class Player {
  constructor(room, index) {
    this.room = room;
    this.index = index;  // 0: the host
    this.ws = null;
    this.open = false;
    this.requests = 0;
    this.welcomed = false;
    this.joined = "";
    this.resetGame();
    this.submitId = 0;
    this.leftSubmitId = 0;
    this.submittedAt = 0;
    this.waitForView = false;
    this.refusals = 0;
    this.retry = null;
    this.checking = false;
  }

  resetGame() {
    this.view = null;
    this.viewRoom = "";
    this.version = 0;
    this.seat = -1;
    this.acting = [];
    this.gameOver = false;
    this.resyncing = false;
  }

  connect(target) {
    const ctx = this.room.ctx;
    this.ws = new WebSocket(ctx.url + target, { perMessageDeflate: false });
    this.ws.binaryType = "nodebuffer";
    this.ws.on("open", () => {
      this.open = true;
      this.request({ hello: { name: `bench r${this.room.index} s${this.index}`, protocol_version: 1 } }, HELLO);
    });
    this.ws.on("message", (data) => {
      try {
        this.onMessage(decodeServer(data));
      } catch (e) {
        this.room.fail(`a frame this client could not handle: ${e.stack ?? e}`);
      }
    });
    this.ws.on("error", (e) => this.closed(e.message || String(e)));
    this.ws.on("close", (code) => this.closed(code === 1000 || code === 1005 ? "" : `closed with code ${code}`));
  }

  closed(error) {
    const wasOpen = this.open || this.ws;
    this.open = false;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    if (wasOpen && !this.room.ctx.stopping && !this.room.stopped) this.room.fail(error || "the server closed a connection");
  }

  close() {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    if (!this.ws) return;
    closeSocket(this.ws);
    this.ws = null;
    this.open = false;
  }

  request(body, purpose) {
    const id = ++this.requests * 2 ** PURPOSE_BITS + purpose;
    if (this.open) this.ws.send(encodeClient({ request_id: id, ...body }));
    return id;
  }

  createRoom() {
    this.request({ create_room: { game: this.room.ctx.game.id, seats: 2 } }, CREATE);
  }

  joinRoom(roomId) {
    this.joined = roomId;
    this.request({ join_room: { room_id: roomId } }, JOIN);
  }

  setReady(roomId) {
    this.request({ set_ready: { room_id: roomId, ready: true } }, READY);
  }

  startGame(roomId) {
    this.request({ start_game: { room_id: roomId } }, START);
  }

  // Leaves the finished room (a player closing the game) and forgets that game.
  leaveFinished(roomId) {
    this.request({ leave_room: { room_id: roomId } }, LEAVE);
    this.joined = "";
    this.resetGame();
    this.leftSubmitId = this.submitId;  // its answer still counts when it comes
    this.submitId = 0;
    this.waitForView = false;
    this.refusals = 0;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  onMessage(m) {
    if (m.request_id !== 0) {
      this.onReply(m);
      if (!own(m, "diff")) return;  // an accepted action's answer is also the mover's Diff
    }
    switch (oneofCase(m, "body")) {
      case "snapshot": return this.onSnapshot(m.snapshot);
      case "diff": return this.onDiff(m.diff);
      case "game_over": return this.room.gameOver(m.game_over.room_id);
      default: return undefined;  // room updates and chat change nothing a player acts on
    }
  }

  onReply(m) {
    const purpose = m.request_id % 2 ** PURPOSE_BITS;
    if (purpose === SUBMIT) return this.onSubmitReply(m);
    if (own(m, "error")) {
      if (purpose === LEAVE) return undefined;  // the finished room may be gone already
      if (purpose === RESYNC || purpose === CHECK) {
        this.resyncing = false;
        this.checking = false;
        return undefined;
      }
      return this.room.fail(`request refused: ${m.error.code}: ${m.error.reason}`);
    }
    switch (purpose) {
      case HELLO:
        this.welcomed = true;
        return this.room.welcomed(this);
      case CREATE:
        if (own(m, "room")) {
          this.joined = m.room.room_id;
          this.room.created(this.joined);
        }
        return undefined;
      case JOIN:
        if (own(m, "room")) this.room.joinedRoom(this, m.room.room_id);
        return undefined;
      case READY:
        return this.room.ready(this);
      case START:
        return this.room.started();
      case RESYNC:
        this.resyncing = false;  // the missed Diffs (or a Snapshot) came before this answer
        return this.maybeAct();
      case CHECK:
        this.checking = false;
        return this.room.checked();
      default:
        return undefined;
    }
  }

  onSubmitReply(m) {
    const current = m.request_id === this.submitId;
    if (!current && m.request_id !== this.leftSubmitId) return;
    const metrics = this.room.ctx.metrics;
    const code = own(m, "accepted") ? "" : own(m, "error") ? m.error.code : "no_result";
    if (code === "") metrics.acceptedAction(performance.now() - this.submittedAt);
    else metrics.refusedAction(code);
    if (!current) {
      this.leftSubmitId = 0;  // the game ended before its answer came: counted, nothing else
      return;
    }
    this.submitId = 0;
    if (code === "") {
      this.refusals = 0;
      this.waitForView = true;  // its effect is the Diff in this very frame
      return;
    }
    if (!NOT_NOW.has(code)) this.room.pace.giveBack();
    if (++this.refusals < IMMEDIATE_PICKS) return this.maybeAct();
    this.waitForView = true;
    const backoff = Math.min(20 * 2 ** Math.min(this.refusals - IMMEDIATE_PICKS, 6), 1000);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.waitForView = false;
      this.maybeAct();
    }, backoff);
  }

  onSnapshot(s) {
    const ctx = this.room.ctx;
    if (s.room_id !== this.room.roomId) return;  // a game this player has left
    if (s.view_type !== ctx.game.view.fullName.slice(1)) return this.room.fail(`a snapshot of a ${s.view_type}`);
    const view = ctx.game.view.decode(s.view);
    if (this.checking && this.view && Number(s.version) === this.version) {
      // The end-of-run check: the view grown from Diffs against the server's own.
      ctx.metrics.viewsChecked++;
      const mine = JSON.stringify(canonical(ctx.game.view, this.view));
      const theirs = JSON.stringify(canonical(ctx.game.view, view));
      if (mine !== theirs) {
        ctx.metrics.viewsDiffering++;
        if (ctx.metrics.viewsDiffering <= 1 && ctx.verbose) console.error(`view differs:\nmine   ${mine}\nserver ${theirs}`);
      }
    }
    this.view = view;
    this.viewRoom = s.room_id;
    this.version = Number(s.version);
    this.seat = s.seat;
    this.acting = s.acting_seats ?? [];
    this.gameOver = s.game_over;
    if (this.gameOver) return this.room.gameOver(s.room_id);
    return this.viewChanged();
  }

  onDiff(d) {
    if (!this.view || d.room_id !== this.viewRoom) return undefined;
    const from = Number(d.diff.from_version);
    if (from < this.version) return undefined;  // already applied (a resync may send it again)
    if (from > this.version) return this.resync(this.version);  // some were missed
    try {
      applyDiff(this.room.ctx.game.view, this.view, d.diff.ops ?? []);
    } catch (e) {
      if (!(e instanceof DiffError)) throw e;
      this.view = null;
      if (this.room.ctx.verbose) console.error(`a Diff did not apply: ${e.message}`);
      this.room.ctx.metrics.failures.push(`a Diff did not apply: ${e.message}`);
      return this.resync(0);
    }
    this.room.ctx.metrics.diffsApplied++;
    this.version = Number(d.diff.to_version);
    this.acting = d.acting_seats ?? [];
    this.gameOver = d.game_over;
    return this.viewChanged();
  }

  viewChanged() {
    this.waitForView = false;
    this.refusals = 0;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.maybeAct();
  }

  resync(have) {
    if (this.resyncing) return;
    this.resyncing = true;
    this.room.ctx.metrics.resyncs = (this.room.ctx.metrics.resyncs ?? 0) + 1;
    this.request({ resync: { room_id: this.viewRoom, have_version: have } }, RESYNC);
  }

  // The end-of-run check: a Snapshot asked for, compared with this player's view when it comes.
  check() {
    if (!this.open || !this.view || !this.viewRoom || this.resyncing) return false;
    this.checking = true;
    this.request({ resync: { room_id: this.viewRoom, have_version: 0 } }, CHECK);
    return true;
  }

  maybeAct() {
    const room = this.room;
    if (!this.open || room.ctx.stopping || room.stopped || !room.went || !this.view ||
        this.viewRoom !== room.roomId || this.gameOver || this.resyncing || this.submitId !== 0 ||
        this.waitForView || !this.acting.includes(this.seat)) {
      return;
    }
    const action = room.ctx.game.choose(this.view, this.seat);
    if (!action) return;  // nothing this view offers: the next Diff may
    if (!room.pace.take(this)) return;
    this.submittedAt = performance.now();
    this.submitId = this.request({ action: { room_id: this.viewRoom, action, view_version: this.version } }, SUBMIT);
  }
}

export class PlateauRoom extends RoomBase {
  // ctx: { url, game (GameTypes, with .id), rooms, rate, metrics, stopping, verbose, settled(room, failed) }
  constructor(ctx, index) {
    super(ctx, index, (room, seat) => new Player(room, seat));
    this.roomId = "";
    this.creating = false;
    this.readySeats = new Set();
    this.waitingForGo = false;
    this.checksLeft = 0;
    this.onChecked = null;
  }

  start() {
    this.players[0].connect("/ws");
  }

  welcomed(player) {
    if (this.failed || this.stopped) return;
    if (player.index === 0) {
      if (!this.roomId && !this.creating) {
        this.creating = true;
        player.createRoom();
      }
      return;
    }
    if (this.roomId && player.joined !== this.roomId) player.joinRoom(this.roomId);
  }

  created(roomId) {
    this.creating = false;
    if (this.failed || this.stopped) return;
    this.roomId = roomId;
    this.readySeats.clear();
    this.players[0].setReady(roomId);
    const guest = this.players[1];
    if (guest.welcomed) guest.joinRoom(roomId);
    else if (!guest.ws) guest.connect(`/ws?room=${encodeURIComponent(roomId)}`);
  }

  joinedRoom(player, roomId) {
    if (this.failed || this.stopped || roomId !== this.roomId) return;
    player.setReady(roomId);
  }

  ready(player) {
    if (this.failed || this.stopped) return;
    this.readySeats.add(player.index);
    if (this.readySeats.size !== this.players.length) return;
    if (this.went) {
      this.players[0].startGame(this.roomId);
      return;
    }
    this.waitingForGo = true;
    this.settle(false);
  }

  go() {
    this.went = true;
    if (!this.waitingForGo || this.failed || this.stopped) return;
    this.waitingForGo = false;
    this.players[0].startGame(this.roomId);
  }

  started() {
    this.pace.start();
  }

  gameOver(roomId) {
    if (!this.roomId || roomId !== this.roomId) return;  // the other player told it first
    this.ctx.metrics.gameFinished();
    const finished = this.roomId;
    this.roomId = "";
    for (const p of this.players) p.leaveFinished(finished);
    if (this.failed || this.stopped || this.ctx.stopping) return;
    // A finished room does not start again: the same players meet in a new one.
    this.creating = true;
    this.players[0].createRoom();
  }

  // Asks each player's view of the server; resolves once both answered (or after `ms`).
  check(ms) {
    if (this.failed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.onChecked = () => {
        clearTimeout(timer);
        resolve();
      };
      this.checksLeft = 0;
      for (const p of this.players) if (p.check()) this.checksLeft++;
      if (this.checksLeft === 0) this.onChecked();
    });
  }

  checked() {
    if (--this.checksLeft === 0 && this.onChecked) this.onChecked();
  }
}
