#include "server/net/static_files.h"

#include <filesystem>
#include <optional>

namespace plateau::server {
namespace {

namespace fs = std::filesystem;

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> PercentDecode(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out.push_back(in[i]);
      continue;
    }
    if (i + 2 >= in.size()) return std::nullopt;
    const int hi = HexValue(in[i + 1]);
    const int lo = HexValue(in[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return out;
}

// Whole path components, so "/srv/dist-old/x" is not inside "/srv/dist".
bool Inside(const fs::path& root, const fs::path& file) {
  auto f = file.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++f) {
    if (f == file.end() || *r != *f) return false;
  }
  return f != file.end();
}

// The lexical checks on the target cannot see symlinks: a link in the root (or the root's own
// files replaced by links) may point anywhere. A file counts only if, every link resolved, it
// still lies under the resolved root; one that does not is treated exactly like a missing one,
// so a probe learns nothing about what lies outside.
bool Servable(const fs::path& real_root, const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  const fs::path real = fs::canonical(path, ec);
  return !ec && Inside(real_root, real);
}

}  // namespace

StaticTarget ResolveStatic(const std::string& root, std::string_view target) {
  StaticTarget out;
  const size_t end = target.find_first_of("?#");
  if (end != std::string_view::npos) target = target.substr(0, end);
  auto decoded = PercentDecode(target);
  if (!decoded || decoded->empty() || decoded->front() != '/') {
    out.kind = StaticTarget::Kind::kBadPath;
    return out;
  }
  const std::string& path = *decoded;
  // Checked after decoding, so "%2e%2e" is refused like "..". Backslashes and NULs have no
  // business in a web path and could mean something else to the file system.
  if (path.find('\0') != std::string::npos || path.find('\\') != std::string::npos) {
    out.kind = StaticTarget::Kind::kBadPath;
    return out;
  }
  std::string last_segment;
  size_t start = 1;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    const std::string_view segment(path.data() + start, slash - start);
    if (segment == ".." || segment == ".") {
      out.kind = StaticTarget::Kind::kBadPath;
      return out;
    }
    last_segment = std::string(segment);
    start = slash + 1;
  }
  // Resolved on every request rather than once at start: a deploy may swap the root (a link to
  // the new build), and a few syscalls are nothing beside the file read that follows.
  std::error_code ec;
  const fs::path real_root = fs::canonical(root, ec);
  if (ec) {
    out.kind = StaticTarget::Kind::kNotFound;
    return out;
  }
  const std::string index = root + "/index.html";
  if (path == "/") {
    out.kind =
        Servable(real_root, index) ? StaticTarget::Kind::kFile : StaticTarget::Kind::kNotFound;
    out.path = index;
    return out;
  }
  // The path handed out keeps the name asked for (not the link's target): the Content-Type
  // follows the name the page used.
  const std::string file = root + path;
  if (Servable(real_root, file)) {
    out.kind = StaticTarget::Kind::kFile;
    out.path = file;
    return out;
  }
  if (last_segment.find('.') == std::string::npos && Servable(real_root, index)) {
    out.kind = StaticTarget::Kind::kFile;
    out.path = index;
    return out;
  }
  out.kind = StaticTarget::Kind::kNotFound;
  return out;
}

std::string_view MimeType(std::string_view path) {
  const size_t dot = path.rfind('.');
  const size_t slash = path.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) {
    return "application/octet-stream";
  }
  std::string ext(path.substr(dot + 1));
  for (char& c : ext) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  static constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
      {"html", "text/html; charset=utf-8"},
      {"htm", "text/html; charset=utf-8"},
      {"js", "text/javascript; charset=utf-8"},
      {"mjs", "text/javascript; charset=utf-8"},
      {"css", "text/css; charset=utf-8"},
      {"json", "application/json"},
      {"map", "application/json"},
      {"webmanifest", "application/manifest+json"},
      {"txt", "text/plain; charset=utf-8"},
      {"svg", "image/svg+xml"},
      {"png", "image/png"},
      {"jpg", "image/jpeg"},
      {"jpeg", "image/jpeg"},
      {"gif", "image/gif"},
      {"webp", "image/webp"},
      {"ico", "image/x-icon"},
      {"woff", "font/woff"},
      {"woff2", "font/woff2"},
      {"ttf", "font/ttf"},
      {"wasm", "application/wasm"},
      {"bin", "application/octet-stream"},
  };
  for (const auto& [e, type] : kTypes) {
    if (ext == e) return type;
  }
  return "application/octet-stream";
}

}  // namespace plateau::server
