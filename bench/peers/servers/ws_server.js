// The floor's trivial two-seat turn game (bench/floor_server.cc) served by plain Node: the `ws`
// package's WebSocket server and protobufjs, speaking Plateau's protobuf frames.
//   - JoinRoom{room_id}: the first connection to name a room takes seat 0, the second seat 1
//     (answered Ok; a third is refused). Once both sit, each gets a Snapshot (version 0, its
//     seat, seat 0 to act).
//   - SubmitAction{room_id}: from the seat whose turn it is, the version goes up by one and both
//     seats get a Diff with one op carrying --diff-bytes of payload (540 by default), the mover's
//     copy answering the request; from the other seat, Error{not_your_turn}.
//
//   node servers/ws_server.js --port P [--diff-bytes B]
//
// Loopback only; SIGTERM or SIGINT stops it.
import { WebSocketServer } from "ws";
import { ClientMessage, ServerMessage, oneofCase } from "../lib/proto.js";
import { flag, portFlag } from "./flags.js";

const port = portFlag("ws_server", "node servers/ws_server.js --port P [--diff-bytes B]");
const payload = Buffer.alloc(flag("ws_server", "--diff-bytes", 540, { whole: true }), "x");

const rooms = new Map();  // room id -> { seats: [ws, ws], joined, version }

const send = (ws, message) => ws.send(ServerMessage.encode(message).finish());
const refuse = (ws, requestId, code) => send(ws, ServerMessage.create({ request_id: requestId, error: { code } }));

function join(ws, requestId, roomId) {
  if (ws.room) return refuse(ws, requestId, "already_seated");
  let room = rooms.get(roomId);
  if (!room) rooms.set(roomId, (room = { seats: [null, null], joined: 0, version: 0 }));
  if (room.joined === 2) return refuse(ws, requestId, "room_full");
  ws.seat = room.joined++;
  ws.room = room;
  ws.roomId = roomId;
  room.seats[ws.seat] = ws;
  send(ws, ServerMessage.create({ request_id: requestId, ok: {} }));
  if (room.joined === 2) {
    room.seats.forEach((seatWs, seat) => {
      if (seatWs) send(seatWs, ServerMessage.create({ snapshot: { room_id: roomId, seat, acting_seats: [0] } }));
    });
  }
  return undefined;
}

function act(ws, requestId) {
  const room = ws.room;
  if (!room) return refuse(ws, requestId, "not_seated");
  if (room.joined < 2 || room.version % 2 !== ws.seat) return refuse(ws, requestId, "not_your_turn");
  const version = ++room.version;
  const diff = {
    room_id: ws.roomId,
    diff: { from_version: version - 1, to_version: version, ops: [{ set_message: payload }] },
    acting_seats: [version % 2],
  };
  // The mover's answer first, then the other seat's copy.
  send(ws, ServerMessage.create({ request_id: requestId, accepted: { action_index: version - 1 }, diff }));
  const other = room.seats[1 - ws.seat];
  if (other) send(other, ServerMessage.create({ diff }));
  return undefined;
}

const wss = new WebSocketServer({ host: "127.0.0.1", port, perMessageDeflate: false });
wss.on("connection", (ws) => {
  ws.on("message", (data) => {
    let m;
    try {
      m = ClientMessage.decode(data);
    } catch {
      return refuse(ws, 0, "bad_message");
    }
    switch (oneofCase(m, "body")) {
      case "join_room": return join(ws, m.request_id, m.join_room.room_id);
      case "action": return act(ws, m.request_id);
      default: return refuse(ws, m.request_id, "not_supported");
    }
  });
  ws.on("close", () => {
    if (ws.room) ws.room.seats[ws.seat] = null;
  });
});
wss.on("listening", () => console.log(`ws_server: listening on 127.0.0.1:${port}`));
wss.on("error", (e) => {
  console.error(`ws_server: ${e.message}`);
  process.exit(1);
});

const stop = () => process.exit(0);
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
