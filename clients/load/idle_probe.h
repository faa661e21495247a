#pragma once
// The idle-connection probe: what one connected, identified, silent client costs the server in
// memory.
#include "clients/load/options.h"

namespace plateau::load {

// Opens options.idle_connections connections that each say Hello (a fresh name) and then stay
// silent; once all are welcomed, waits 2 s, reads the server's resident memory, and reports
// (RSS after - RSS before opening) / connections welcomed. Returns the exit status.
int RunIdleProbe(const LoadOptions& options);

}  // namespace plateau::load
