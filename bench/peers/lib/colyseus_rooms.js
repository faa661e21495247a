// Rooms of servers/colyseus_server.js's "turn" game, played with Colyseus's own client SDK
// (@colyseus/sdk): the host creates a room (Client.create), the guest joins it by its id
// (Client.joinById), and each seat sends "move" when the state says it is its turn. A move's
// result is the first state patch that shows the move count past the one the move was sent on.
import { Client } from "@colyseus/sdk";
import { RoomBase } from "./room_base.js";

class ColyseusPlayer {
  constructor(room, seat) {
    this.room = room;
    this.seat = seat;
    this.conn = null;
    this.state = null;
    this.submitted = false;
    this.sentOn = 0;  // the move count the move in flight was sent on
    this.submittedAt = 0;
  }

  attach(conn) {
    this.conn = conn;
    conn.onStateChange((state) => this.onState(state));
    conn.onMessage("refused", (code) => this.onRefused(code));
    conn.onLeave((code) => {
      const room = this.room;
      if (!room.ctx.stopping && !room.stopped && this.conn) room.fail(`left the room (code ${code})`);
    });
    conn.onError((code, message) => this.room.fail(`error ${code}: ${message}`));
  }

  onState(state) {
    this.state = state;
    if (this.submitted && state.moves > this.sentOn) {
      this.submitted = false;
      this.room.ctx.metrics.acceptedAction(performance.now() - this.submittedAt);
    }
    if (state.seated) this.room.seatedOne(this);
    this.maybeAct();
  }

  onRefused(code) {
    if (!this.submitted) return;
    this.submitted = false;
    this.room.ctx.metrics.refusedAction(String(code));
    this.room.pace.giveBack();
  }

  maybeAct() {
    const room = this.room;
    const s = this.state;
    if (!this.conn || !s || !s.seated || s.turn !== this.seat || this.submitted || !room.went || room.ctx.stopping || room.stopped) return;
    if (!room.pace.take(this)) return;
    this.submitted = true;
    this.sentOn = s.moves;
    this.submittedAt = performance.now();
    this.conn.send("move");
  }

  close() {
    const conn = this.conn;
    this.conn = null;
    if (conn) conn.leave(true).catch(() => {});
  }
}

export class ColyseusRoom extends RoomBase {
  constructor(ctx, index) {
    super(ctx, index, (room, seat) => new ColyseusPlayer(room, seat));
    if (!ctx.colyseusClient) ctx.colyseusClient = new Client(ctx.url.replace(/^ws:/, "http:"));
    this.seatedSeats = new Set();
  }

  async start() {
    try {
      const client = this.ctx.colyseusClient;
      const host = await client.create("turn", {});
      if (this.stopped) return void host.leave(true).catch(() => {});
      this.players[0].attach(host);
      const guest = await client.joinById(host.roomId, {});
      if (this.stopped) return void guest.leave(true).catch(() => {});
      this.players[1].attach(guest);
    } catch (e) {
      this.fail(`matchmaking: ${e.message ?? e}`);
    }
  }

  seatedOne(player) {
    this.seatedSeats.add(player.seat);
    if (this.seatedSeats.size === 2) this.settle(false);
  }
}
