#include "clients/cli/world_map.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace plateau::data::plateau_cli_lib {
extern const std::string_view kworld_regions;
}  // namespace plateau::data::plateau_cli_lib

namespace plateau::cli {
namespace {

struct Ring {
  std::vector<double> lon, lat;
  double min_lon = 1e9, max_lon = -1e9, min_lat = 1e9, max_lat = -1e9;
};

struct Region {
  std::string id;
  std::vector<Ring> rings;
};

std::vector<Region> Load() {
  std::vector<Region> regions;
  std::istringstream in{std::string(data::plateau_cli_lib::kworld_regions)};
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    Region region;
    const size_t space = line.find(' ');
    region.id = line.substr(0, space);
    std::istringstream rings(line.substr(space + 1));
    std::string text;
    while (std::getline(rings, text, ';')) {
      Ring ring;
      std::istringstream points(text);
      long lon = 0, lat = 0;
      while (points >> lon >> lat) {
        ring.lon.push_back(lon / 100.0);
        ring.lat.push_back(lat / 100.0);
      }
      if (ring.lon.size() < 3) continue;
      // An outline that crosses the 180th meridian (Russia, Fiji) jumps from one edge of the map
      // to the other; drawn flat, its jumps would run across the whole world. Unwrapped, it goes
      // on past 180 (or -180), and a point is also tried 360 degrees east and west. An outline
      // that does not close once unwrapped goes round a pole (Antarctica) and is kept as drawn.
      std::vector<double> unwrapped = ring.lon;
      for (size_t i = 1; i < unwrapped.size(); ++i) {
        while (unwrapped[i] - unwrapped[i - 1] > 180) unwrapped[i] -= 360;
        while (unwrapped[i] - unwrapped[i - 1] < -180) unwrapped[i] += 360;
      }
      if (std::abs(unwrapped.back() - unwrapped.front()) < 180) ring.lon = std::move(unwrapped);
      for (size_t i = 0; i < ring.lon.size(); ++i) {
        ring.min_lon = std::min(ring.min_lon, ring.lon[i]);
        ring.max_lon = std::max(ring.max_lon, ring.lon[i]);
        ring.min_lat = std::min(ring.min_lat, ring.lat[i]);
        ring.max_lat = std::max(ring.max_lat, ring.lat[i]);
      }
      region.rings.push_back(std::move(ring));
    }
    regions.push_back(std::move(region));
  }
  return regions;
}

const std::vector<Region>& Regions() {
  static const std::vector<Region> regions = Load();
  return regions;
}

// Even-odd rule within one ring.
bool InsideRing(const Ring& ring, double lat, double lon) {
  if (lon < ring.min_lon || lon > ring.max_lon || lat < ring.min_lat || lat > ring.max_lat)
    return false;
  bool inside = false;
  const size_t n = ring.lon.size();
  for (size_t i = 0, j = n - 1; i < n; j = i++) {
    const bool crosses = (ring.lat[i] > lat) != (ring.lat[j] > lat);
    if (crosses &&
        lon < (ring.lon[j] - ring.lon[i]) * (lat - ring.lat[i]) / (ring.lat[j] - ring.lat[i]) +
                  ring.lon[i]) {
      inside = !inside;
    }
  }
  return inside;
}

// Even-odd over the region's rings, so holes (lakes, enclaves) count as outside; each ring is
// tried at the point's longitude and 360 degrees either side (unwrapped outlines, see Load).
bool Inside(const Region& region, LatLon p) {
  bool inside = false;
  for (const Ring& ring : region.rings) {
    if (InsideRing(ring, p.lat, p.lon) || InsideRing(ring, p.lat, p.lon + 360) ||
        InsideRing(ring, p.lat, p.lon - 360)) {
      inside = !inside;
    }
  }
  return inside;
}

// One coordinate: a number, optionally followed by a hemisphere letter from `hemispheres`
// (positive first). Returns false when `word` is not one.
bool Coordinate(std::string word, const char* hemispheres, double* out) {
  if (word.empty()) return false;
  double sign = 1;
  const char last = static_cast<char>(std::toupper(static_cast<unsigned char>(word.back())));
  if (last == hemispheres[0] || last == hemispheres[1]) {
    sign = last == hemispheres[0] ? 1 : -1;
    word.pop_back();
    if (word.empty() || word[0] == '-' || word[0] == '+') return false;
  }
  char* end = nullptr;
  const double value = std::strtod(word.c_str(), &end);
  if (end == word.c_str() || *end != '\0' || !std::isfinite(value)) return false;
  *out = sign * value;
  return true;
}

std::vector<std::string> Words(std::string_view text) {
  std::string spaced;
  for (size_t i = 0; i < text.size(); ++i) {
    // A degree sign, typed in UTF-8 or Latin-1, says nothing more than the number.
    if (text.compare(i, 2, "\xc2\xb0") == 0) {
      ++i;
      continue;
    }
    if (text[i] == '\xb0') continue;
    spaced += text[i] == ',' ? ' ' : text[i];
  }
  std::istringstream in(spaced);
  std::vector<std::string> words;
  std::string w;
  while (in >> w) words.push_back(w);
  return words;
}

}  // namespace

engine::StatusOr<LatLon> ParseLatLon(std::string_view words) {
  const std::vector<std::string> parts = Words(words);
  LatLon p;
  if (parts.size() != 2 || !Coordinate(parts[0], "NS", &p.lat) || !Coordinate(parts[1], "EW", &p.lon)) {
    return engine::Status("bad_answer",
                          "Give a latitude then a longitude, separated by a space, e.g. 48.9N 2.3E "
                          "or -33.9 151.2.");
  }
  if (p.lat < -90 || p.lat > 90 || p.lon < -180 || p.lon > 180) {
    return engine::Status("bad_answer",
                          "A latitude lies between 90S and 90N, a longitude between 180W and 180E.");
  }
  return p;
}

bool LooksLikeLatLon(std::string_view words) {
  const std::vector<std::string> parts = Words(words);
  double x = 0;
  return parts.size() == 2 && (Coordinate(parts[0], "NS", &x) && Coordinate(parts[1], "EW", &x));
}

std::string RegionAt(LatLon point) {
  for (const Region& region : Regions())
    if (Inside(region, point)) return region.id;
  return {};
}

}  // namespace plateau::cli
