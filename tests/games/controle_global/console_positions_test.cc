// Contrôle Global: the positions the rules console's scripts of the rule book's examples load
// (tests/console/scripts/controle_global_*.position.txt) are the ones the rule tests build
// (support.h), so the scripts and the tests never play different situations. Written anew with
// PLATEAU_WRITE_CG_POSITIONS=1.
#include <google/protobuf/text_format.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tests/games/controle_global/support.h"

namespace plateau::games::controle_global::rule_test {
namespace {

std::string ScriptPath(const std::string& name) {
  return std::string(PLATEAU_SOURCE_DIR) + "/tests/console/scripts/controle_global_" + name +
         ".position.txt";
}

void CheckOrWrite(const std::string& name, const internal::StateProto& position) {
  std::string text;
  ASSERT_TRUE(google::protobuf::TextFormat::PrintToString(position, &text));
  const std::string path = ScriptPath(name);
  if (std::getenv("PLATEAU_WRITE_CG_POSITIONS") != nullptr) {
    std::ofstream(path) << text;
    return;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << "no " << path << " (PLATEAU_WRITE_CG_POSITIONS=1 writes it)";
  std::stringstream held;
  held << in.rdbuf();
  EXPECT_EQ(held.str(), text) << path << " is not the position the rule tests build";
}

TEST(ControleGlobalConsolePositions, CommerceExample) { CheckOrWrite("commerce", VioletInvests()); }

TEST(ControleGlobalConsolePositions, Pillages) {
  int r = -1, v = -1;
  const auto s = PillagesPosition(&r, &v);
  ASSERT_GE(r, 0);
  // The script names them: R and V as the rule book's example calls them.
  EXPECT_EQ(r, 0);
  EXPECT_EQ(v, static_cast<int>(s.regions(0).neighbours(1)));
  CheckOrWrite("pillages", s);
}

TEST(ControleGlobalConsolePositions, InstitutDeStatistiques) {
  int a = -1, b = -1;
  CheckOrWrite("institut", InstitutPosition(4, &a, &b));
}

TEST(ControleGlobalConsolePositions, RegionScoring) {
  CheckOrWrite("region_at_8", RegionAt8());
  CheckOrWrite("region_at_6", RegionAt6());
}

}  // namespace
}  // namespace plateau::games::controle_global::rule_test
