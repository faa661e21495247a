#pragma once
// Which region of the world map a point falls in, from the outlines the web client draws
// (data/world_regions.txt, embedded). A terminal draws no map, so a map question ("point at this
// country") is answered there with a latitude and a longitude instead of a click.
#include <string>
#include <string_view>

#include "engine/core/status.h"

namespace plateau::cli {

struct LatLon {
  double lat = 0;  // degrees, north positive
  double lon = 0;  // degrees, east positive
};

// "48.9N 2.3E", "33.9S 151.2E", "48.9 2.3", "-33.9, 151.2": latitude first. Refused when the
// words are not two numbers (with N/S and E/W, or signs) within the globe's bounds.
engine::StatusOr<LatLon> ParseLatLon(std::string_view words);

// Whether the words look like a point rather than a name or a map number.
bool LooksLikeLatLon(std::string_view words);

// The map number ("250") of the region holding the point; "" at sea.
std::string RegionAt(LatLon point);

}  // namespace plateau::cli
