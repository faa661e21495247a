// The command line of the peer servers: numeric flags (`--name N`) and the port they must be
// given. A bad value stops the server with a line naming it and the flag.

// `--name N` as a number of at least 0 (a whole one when `whole`), or `fallback` when absent.
export function flag(server, name, fallback, { whole = false } = {}) {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!(whole ? Number.isInteger(v) : Number.isFinite(v)) || v < 0) {
    console.error(`${server}: ${name} wants a ${whole ? "whole number" : "number"}`);
    process.exit(2);
  }
  return v;
}

// `--port P`, required; `usage` is printed when it is missing or out of range.
export function portFlag(server, usage) {
  const port = flag(server, "--port", -1, { whole: true });
  if (port < 0 || port > 65535) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  return port;
}
