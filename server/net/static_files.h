#pragma once
// Maps request targets to files of the web client. Pure (no sockets), so it is tested alone.
#include <string>
#include <string_view>

namespace plateau::server {

struct StaticTarget {
  enum class Kind {
    kFile,      // serve `path`
    kNotFound,  // a file-like path that does not exist
    kBadPath,   // undecodable, not absolute, or escaping the root (".." and friends)
  };
  Kind kind = Kind::kNotFound;
  std::string path;
};

// `target` is the request target ("/assets/app.js?v=3"). "/" serves index.html. A missing path
// whose last segment has no dot ("/lobby", "/room/abc") is a client-side route: it gets
// index.html so the single-page app can handle it (the SPA fallback). Missing paths with a dot
// ("/missing.js") are real 404s, so a broken asset link shows up as one. Symlinks are followed
// only while they stay under `root` (itself resolved): a file that resolves outside is kNotFound,
// as if it did not exist.
StaticTarget ResolveStatic(const std::string& root, std::string_view target);

// Content-Type for a file name, by extension; application/octet-stream when unknown.
std::string_view MimeType(std::string_view path);

}  // namespace plateau::server
