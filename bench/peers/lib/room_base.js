// What every kind of bench room shares: its two players, its pace, and how it fails, settles and
// stops. A room kind passes its players and adds how they connect, join and act.
import { Pace } from "./pace.js";

export class RoomBase {
  // ctx: { rooms, rate, metrics, settled(room, failed), ... }; makePlayer(room, seat).
  constructor(ctx, index, makePlayer) {
    this.ctx = ctx;
    this.index = index;
    this.players = [makePlayer(this, 0), makePlayer(this, 1)];
    this.pace = new Pace(ctx.rooms, ctx.rate);
    this.went = false;
    this.failed = false;
    this.stopped = false;
    this.isSettled = false;
  }

  // Every room is set up: the moves begin.
  go() {
    this.went = true;
    this.pace.start();
    for (const p of this.players) p.maybeAct();
  }

  fail(why) {
    if (this.failed || this.stopped) return;
    this.failed = true;
    this.ctx.metrics.roomFailed(`room ${this.index}: ${why}`);
    this.pace.stop();
    this.settle(true);
    for (const p of this.players) p.close();
  }

  // Tells the driver once that this room is ready to go, or failed.
  settle(failed) {
    if (this.isSettled) return;
    this.isSettled = true;
    this.ctx.settled(this, failed);
  }

  // The end-of-run check of the players' views: only Plateau's rooms have views to check.
  check() {
    return Promise.resolve();
  }

  stop() {
    this.stopped = true;
    this.pace.stop();
    for (const p of this.players) p.close();
  }
}

// Closes a player's WebSocket, at once if the close handshake cannot start.
export function closeSocket(ws) {
  try {
    ws.close();
  } catch {
    ws.terminate();
  }
}
