// The terminal client's world map: which region a latitude and longitude fall in (the outlines of
// the map the web client draws), and how a point is written.
#include <gtest/gtest.h>

#include "clients/cli/world_map.h"

namespace plateau::cli {
namespace {

std::string At(const char* words) {
  auto p = ParseLatLon(words);
  EXPECT_TRUE(p.ok()) << words << ": " << p.status().reason();
  return p.ok() ? RegionAt(p.value()) : "?";
}

TEST(WorldMap, CapitalsFallInTheirCountries) {
  EXPECT_EQ(At("48.86N 2.35E"), "250");     // Paris, France
  EXPECT_EQ(At("35.3S 149.1E"), "036");     // Canberra, Australia
  EXPECT_EQ(At("15.8S 47.9W"), "076");      // Brasília, Brazil
  EXPECT_EQ(At("55.75N 37.6E"), "643");     // Moscow, Russia
  EXPECT_EQ(At("-1.29, 36.82"), "404");     // Nairobi, Kenya, with signs and a comma
  EXPECT_EQ(At("64.1N 21.9W"), "352");      // Reykjavik, Iceland
  EXPECT_EQ(At("39.9n 116.4e"), "156");     // Beijing, China, lower case
  EXPECT_EQ(At("48.86\xc2\xb0" "N 2.35\xc2\xb0" "E"), "250");  // with degree signs
  EXPECT_EQ(At("48.86\xc2\xb0 2.35\xc2\xb0"), "250");
}

// Russia and Fiji cross the 180th meridian: their outlines must not run across the map.
TEST(WorldMap, OutlinesAcrossThe180thMeridianStayWhereTheyAre) {
  EXPECT_EQ(At("67.85N 20.2E"), "752");   // Kiruna, Sweden, on Russia's latitude
  EXPECT_EQ(At("67.25N 150.2W"), "840");  // Coldfoot, Alaska
  EXPECT_EQ(At("66N 172W"), "643");       // Chukotka, Russia east of the 180th meridian
  EXPECT_EQ(At("16.7S 47E"), "450");      // Madagascar, on Fiji's latitude
  EXPECT_EQ(At("18.1S 178.4E"), "242");   // Suva, Fiji
  EXPECT_EQ(At("67N 0E"), "");            // the Norwegian Sea
  EXPECT_EQ(At("80S 0E"), "010");         // Antarctica, round the pole
}

TEST(WorldMap, TheSeaIsNoCountry) {
  EXPECT_EQ(At("30N 40W"), "");    // the middle of the Atlantic
  EXPECT_EQ(At("0 -160"), "");     // the Pacific
}

TEST(WorldMap, APointIsALatitudeThenALongitude) {
  EXPECT_TRUE(LooksLikeLatLon("48.9N 2.3E"));
  EXPECT_TRUE(LooksLikeLatLon("-33.9, 151.2"));
  EXPECT_FALSE(LooksLikeLatLon("250"));
  EXPECT_FALSE(LooksLikeLatLon("France"));
  EXPECT_FALSE(LooksLikeLatLon("2.3E 48.9N"));  // longitude first
  for (const char* bad : {"", "48.9N", "95N 2E", "45N 190E", "abc def", "48.9N 2.3E 7", "-48.9N 2E"}) {
    EXPECT_FALSE(ParseLatLon(bad).ok()) << bad;
  }
  EXPECT_EQ(ParseLatLon("95N 2E").status().reason(),
            "A latitude lies between 90S and 90N, a longitude between 180W and 180E.");
}

}  // namespace
}  // namespace plateau::cli
