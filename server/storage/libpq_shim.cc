// libpq, loaded when a PostgreSQL store is first connected rather than at the start of every
// server: linked, its libraries (Kerberos, LDAP, TLS and theirs) cost each process about 4 MB
// of resident memory before any room, on SQLite too (docs/performance.md). The libpq functions
// the project calls are defined here, each forwarding to the one dlsym finds in libpq.so.5;
// pg::LoadLibpq (pg_util.h) loads it and says why it cannot.
#include <dlfcn.h>
#include <libpq-fe.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "server/storage/pg_util.h"

namespace plateau::server::pg {
namespace {

// One pointer per function, filled from the library; `why` says what failed, empty once loaded.
struct Api {
#define PLATEAU_PQ_POINTER(ret, name, params, args) ret(*name) params = nullptr;
#include "server/storage/libpq_functions.inc"
#undef PLATEAU_PQ_POINTER
  std::string why;
};

const Api& Loaded() {
  static const Api api = [] {
    Api a;
    void* lib = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      const char* error = dlerror();
      a.why = error != nullptr ? error : "libpq.so.5 not found";
      return a;
    }
    // Never closed: the functions stay in use until the process ends.
#define PLATEAU_PQ_POINTER(ret, name, params, args)                       \
    a.name = reinterpret_cast<ret(*) params>(dlsym(lib, #name));          \
    if (a.name == nullptr && a.why.empty()) a.why = "libpq.so.5 has no " #name;
#include "server/storage/libpq_functions.inc"
#undef PLATEAU_PQ_POINTER
    return a;
  }();
  return api;
}

const Api& Use() {
  const Api& api = Loaded();
  if (!api.why.empty()) {
    // Only reached by a call before pg::Connect, which says why instead and makes no connection.
    std::fprintf(stderr, "libpq is not available: %s\n", api.why.c_str());
    std::abort();
  }
  return api;
}

}  // namespace

bool LoadLibpq(std::string* why) {
  const Api& api = Loaded();
  if (why != nullptr) *why = api.why;
  return api.why.empty();
}

}  // namespace plateau::server::pg

extern "C" {
#define PLATEAU_PQ_POINTER(ret, name, params, args) \
  ret name params { return plateau::server::pg::Use().name args; }
#include "server/storage/libpq_functions.inc"
#undef PLATEAU_PQ_POINTER
}
