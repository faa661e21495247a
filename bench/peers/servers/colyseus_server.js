// A Colyseus server (@colyseus/core with its WebSocket transport) with one room type, "turn": the
// floor's trivial two-seat turn game written the Colyseus way. Its state is a Schema: whose turn
// it is, the move count, whether both seats are taken, and a payload string of --payload-bytes
// (540 by default, as the floor's Diff) that every move replaces, so that each move's patch
// carries about as much as the floor's Diff. The first client to join takes seat 0, the second
// seat 1; a "move" message from the seat to act changes the state, and the patch goes out to
// both seats at once (broadcastPatch), or on Colyseus's own patch timer with --patch-ms N. A move
// out of turn is answered with a "refused" message.
//
//   node servers/colyseus_server.js --port P [--payload-bytes B] [--patch-ms N]
//
// Loopback only; SIGTERM or SIGINT stops it.
import { Server, Room } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { schema, t } from "@colyseus/schema";
import { flag, portFlag } from "./flags.js";

const port = portFlag("colyseus_server", "node servers/colyseus_server.js --port P [--payload-bytes B] [--patch-ms N]");
const payloadBytes = flag("colyseus_server", "--payload-bytes", 540);
const patchMs = flag("colyseus_server", "--patch-ms", 0);

// Two payloads taken in turn: a move always changes the field, so its patch always carries it.
const PAYLOADS = [Buffer.alloc(payloadBytes, "x").toString(), Buffer.alloc(payloadBytes, "y").toString()];

const TurnState = schema({
  turn: t.number().default(0),
  moves: t.number().default(0),
  seated: t.boolean().default(false),
  payload: t.string().default(""),
}, "TurnState");

class TurnRoom extends Room {
  maxClients = 2;

  onCreate() {
    this.state = new TurnState();
    this.patchRate = patchMs > 0 ? patchMs : null;
    this.seats = new Map();  // sessionId -> seat
    this.onMessage("move", (client) => {
      const seat = this.seats.get(client.sessionId);
      if (!this.state.seated || seat !== this.state.turn) {
        client.send("refused", "not_your_turn");
        return;
      }
      const s = this.state;
      s.moves += 1;
      s.turn = 1 - seat;
      s.payload = PAYLOADS[s.moves & 1];
      if (patchMs === 0) this.broadcastPatch();
    });
  }

  onJoin(client) {
    this.seats.set(client.sessionId, this.seats.size);
    if (this.seats.size === 2) {
      this.state.seated = true;
      if (patchMs === 0) this.broadcastPatch();
    }
  }

  onLeave(client) {
    this.seats.delete(client.sessionId);
  }
}

const server = new Server({ transport: new WebSocketTransport(), greet: false, gracefullyShutdown: false });
server.define("turn", TurnRoom);
await server.listen(port, "127.0.0.1");
console.log(`colyseus_server: listening on 127.0.0.1:${port} (payload ${payloadBytes} bytes, ${patchMs > 0 ? `patches every ${patchMs} ms` : "a patch per move"})`);

const stop = () => process.exit(0);
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
