// Rooms of the floor's trivial two-seat turn game (bench/floor_server.cc), spoken in Plateau's
// protobuf frames, as plateau-load --floor plays it (clients/load/floor_room.cc): the first
// connection to join a room takes seat 0, the second (connected once the first sits) seat 1;
// both get a Snapshot with seat 0 to act; a move from the seat to act sends both a Diff whose
// mover's copy answers the request. The same client plays bench/peers/servers/ws_server.js.
// The game has no view: a Diff's only news is its version and whose turn it is.
import WebSocket from "ws";
import { decodeServer, encodeClient, oneofCase } from "./proto.js";
import { closeSocket, RoomBase } from "./room_base.js";

const own = (m, name) => m[name] != null && Object.prototype.hasOwnProperty.call(m, name);
const MOVE = Buffer.from("move");

class FloorPlayer {
  constructor(room, seat) {
    this.room = room;
    this.seat = seat;
    this.ws = null;
    this.open = false;
    this.requests = 0;
    this.joinId = 0;
    this.seated = false;
    this.toAct = false;
    this.submitId = 0;
    this.version = 0;
    this.submittedAt = 0;
  }

  connect() {
    this.ws = new WebSocket(`${this.room.ctx.url}/ws`, { perMessageDeflate: false });
    this.ws.binaryType = "nodebuffer";
    this.ws.on("open", () => {
      this.open = true;
      this.joinId = ++this.requests;
      this.ws.send(encodeClient({ request_id: this.joinId, join_room: { room_id: this.room.roomId } }));
    });
    this.ws.on("message", (data) => this.onMessage(decodeServer(data)));
    this.ws.on("error", (e) => this.closed(e.message || String(e)));
    this.ws.on("close", (code) => this.closed(code === 1000 || code === 1005 ? "" : `closed with code ${code}`));
  }

  closed(error) {
    const was = this.ws;
    this.open = false;
    if (was && !this.room.ctx.stopping && !this.room.stopped) this.room.fail(error || "the server closed a connection");
  }

  close() {
    if (!this.ws) return;
    closeSocket(this.ws);
    this.ws = null;
    this.open = false;
  }

  maybeAct() {
    const room = this.room;
    if (!this.open || !this.toAct || this.submitId !== 0 || !this.seated || !room.went || room.ctx.stopping || room.stopped) return;
    if (!room.pace.take(this)) return;
    this.submitId = ++this.requests;
    this.submittedAt = performance.now();
    this.ws.send(encodeClient({ request_id: this.submitId, action: { room_id: this.room.roomId, action: MOVE } }));
  }

  onMessage(m) {
    const metrics = this.room.ctx.metrics;
    if (own(m, "error")) {
      if (m.request_id !== 0 && m.request_id === this.submitId) {
        this.submitId = 0;  // only out of turn, which this player never is: counted, not fatal
        metrics.refusedAction(m.error.code);
        this.room.pace.giveBack();
        return;
      }
      this.room.fail(`the server refused: ${m.error.code}`);
      return;
    }
    if (m.request_id !== 0 && m.request_id === this.joinId) {
      if (this.seat === 0) this.room.firstJoined();
      return;
    }
    let acting = null;
    const body = oneofCase(m, "body");
    if (body === "snapshot") {
      acting = m.snapshot.acting_seats;
      if (!this.seated) {
        this.seated = true;
        this.room.seatedOne();
      }
    } else if (body === "diff") {
      // Only the newest version says whose turn it is: a late answer must not undo a newer turn.
      const to = Number(m.diff.diff?.to_version ?? 0);
      if (to > this.version) {
        this.version = to;
        acting = m.diff.acting_seats;
      }
      if (m.request_id !== 0 && m.request_id === this.submitId) {
        this.submitId = 0;
        metrics.acceptedAction(performance.now() - this.submittedAt);
      }
    } else {
      return;
    }
    if (acting) this.toAct = acting.includes(this.seat);
    this.maybeAct();
  }
}

export class FloorRoom extends RoomBase {
  constructor(ctx, index) {
    super(ctx, index, (room, seat) => new FloorPlayer(room, seat));
    this.roomId = `floor-${index}`;
    this.seated = 0;
  }

  start() {
    this.players[0].connect();
  }

  firstJoined() {
    if (!this.failed && !this.stopped) this.players[1].connect();
  }

  seatedOne() {
    if (++this.seated === 2) this.settle(false);
  }
}
