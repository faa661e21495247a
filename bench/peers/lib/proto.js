// Plateau's protobuf messages, read at run time from the repository's proto/ directory with
// protobufjs reflection: no generated code, no build step. 64-bit fields decode as JS numbers
// (every id, version and count this client meets stays far below 2^53).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";

protobuf.util.Long = undefined;
protobuf.configure();

const here = path.dirname(fileURLToPath(import.meta.url));
export const PROTO_DIR = path.resolve(here, "../../../proto");

function protoFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...protoFiles(full));
    else if (entry.name.endsWith(".proto")) out.push(full);
  }
  return out.sort();
}

// Every .proto file under proto/ parsed into one root. options.proto is left out: it extends
// google/protobuf/descriptor.proto, which protobufjs does not carry; the custom options it
// declares stay as uninterpreted marks on the fields that use them, which is all this needs.
function buildRoot() {
  const root = new protobuf.Root();
  for (const file of protoFiles(PROTO_DIR)) {
    if (file.endsWith(path.join("plateau", "v1", "options.proto"))) continue;
    protobuf.parse(fs.readFileSync(file, "utf8"), root, { keepCase: true });
  }
  root.resolveAll();
  return root;
}

export const root = buildRoot();

export function lookup(name) {
  return root.lookupType(name.startsWith(".") ? name.slice(1) : name);
}

export const ClientMessage = lookup("plateau.v1.ClientMessage");
export const ServerMessage = lookup("plateau.v1.ServerMessage");

// The member of a oneof a decoded message has set (protobufjs's virtual oneof property).
export function oneofCase(message, oneofName) {
  const v = message[oneofName];
  return typeof v === "string" ? v : undefined;
}

// `obj` in the shape protobufjs decodes to (plain objects and arrays, bytes as Uint8Array), which
// its encoder takes as it is.
export function encodeClient(obj) {
  return ClientMessage.encode(obj).finish();
}

export function decodeServer(bytes) {
  return ServerMessage.decode(bytes);
}
