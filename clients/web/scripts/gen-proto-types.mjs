// Generates src/gen/ (TypeScript types and enums, no code) from the same .proto files src/proto.ts
// loads at run time, with ts-proto through protoc: the types can never drift from the wire.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const protoRoot = join(web, "..", "..", "proto");
const out = join(web, "src", "gen");
const plugin = join(web, "node_modules", ".bin", "protoc-gen-ts_proto");

// options.proto only steers the server's diffs and extends protobuf's own descriptor: the
// client loads neither (src/proto.ts), so no types are made for them.
function protos(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return protos(path);
    return name.endsWith(".proto") && name !== "options.proto" ? [relative(protoRoot, path)] : [];
  });
}

const opts = [
  "onlyTypes=true",          // interfaces and enums; protobufjs does the decoding
  "snakeToCamel=false",      // field names as in the .proto files (protobufjs keepCase)
  "forceLong=long",          // 64-bit fields decode as Long (src/proto.ts)
  "useOptionals=none",
  "useNullAsOptional=true",  // an absent message field decodes as null
  "emitImportedFiles=false",
  "esModuleInterop=true",
].join(",");

if (!existsSync(plugin)) {
  console.error(`gen-proto-types: ${plugin} is missing: run npm ci first`);
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
try {
  execFileSync("protoc", [
    `--plugin=protoc-gen-ts_proto=${plugin}`, `--ts_proto_out=${out}`, `--ts_proto_opt=${opts}`,
    `-I${protoRoot}`, ...protos(protoRoot),
  ], { stdio: "inherit" });
} catch (e) {
  console.error(`gen-proto-types: protoc failed (${e.message}); it comes with Debian's protobuf-compiler`);
  process.exit(1);
}
