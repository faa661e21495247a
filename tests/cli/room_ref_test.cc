// What `join` and `watch` are given, read as the server's request takes it: ids, codes, and the
// web client's links pasted whole; and the links the `room` command hands on.
#include <gtest/gtest.h>

#include "clients/cli/client.h"
#include "clients/cli/shell.h"

namespace plateau::cli {
namespace {

RoomRef Ref(const std::vector<std::string>& args, bool watching) {
  auto ref = ParseRoomRef(args, watching);
  EXPECT_TRUE(ref.ok()) << ref.status().ToString();
  return ref.ok() ? ref.value() : RoomRef{};
}

TEST(RoomRef, IdsAndCodes) {
  EXPECT_EQ(Ref({"r12ab"}, false).room_id, "r12ab");
  EXPECT_EQ(Ref({"K7PQ2X"}, false).join_code, "K7PQ2X");
  const RoomRef both = Ref({"r12ab", "K7PQ2X"}, false);
  EXPECT_EQ(both.room_id, "r12ab");
  EXPECT_EQ(both.join_code, "K7PQ2X");
  // Watching: a join code still works, anything else after the room is its watch code.
  EXPECT_EQ(Ref({"r12ab", "K7PQ2X"}, true).join_code, "K7PQ2X");
  const RoomRef watch = Ref({"r12ab", "abcdefghjkmn"}, true);
  EXPECT_EQ(watch.room_id, "r12ab");
  EXPECT_EQ(watch.watch_code, "abcdefghjkmn");
  EXPECT_TRUE(watch.join_code.empty());
  EXPECT_EQ(ParseRoomRef({}, true).status().code(), "usage");
  EXPECT_EQ(ParseRoomRef({"a", "b", "c"}, false).status().code(), "usage");
}

TEST(RoomRef, WebLinks) {
  const RoomRef invite = Ref({"http://example.org:8080/#/join/r12ab/K7PQ2X"}, false);
  EXPECT_EQ(invite.room_id, "r12ab");
  EXPECT_EQ(invite.join_code, "K7PQ2X");
  // An invitation is a way to watch too.
  EXPECT_EQ(Ref({"http://example.org/#/join/r12ab/K7PQ2X"}, true).join_code, "K7PQ2X");
  const RoomRef watch = Ref({"https://example.org/#/watch/r12ab/abcdefghjkmn"}, true);
  EXPECT_EQ(watch.room_id, "r12ab");
  EXPECT_EQ(watch.watch_code, "abcdefghjkmn");
  EXPECT_EQ(Ref({"#/watch/room/r12ab"}, true).room_id, "r12ab");
  EXPECT_TRUE(Ref({"#/watch/room/r12ab"}, true).watch_code.empty());
  EXPECT_EQ(Ref({"http://h/#/room/r12ab"}, false).room_id, "r12ab");
  EXPECT_EQ(Ref({"http://h/#/join/K7PQ2X"}, false).join_code, "K7PQ2X");
  EXPECT_EQ(Ref({"http://h/#/watch/K7PQ2X"}, true).join_code, "K7PQ2X");
  // A watch code never seats anyone: refused before anything is sent.
  auto sit = ParseRoomRef({"http://h/#/watch/r12ab/abcdefghjkmn"}, false);
  EXPECT_EQ(sit.status().code(), "usage");
  EXPECT_NE(sit.status().reason().find("watch only"), std::string::npos);
  EXPECT_EQ(ParseRoomRef({"http://h/#/replays"}, true).status().code(), "usage");
  EXPECT_EQ(ParseRoomRef({"http://h/#/join/r12ab/K7PQ2X", "extra"}, false).status().code(), "usage");
}

TEST(RoomLinks, OnlyTheCodesTheServerSent) {
  plateau::v1::RoomInfo room;
  room.set_room_id("r12ab");
  room.set_is_private(true);
  room.set_watch_code("abcdefghjkmn");
  // A spectator who came with the watch code: no invitation to hand on.
  EXPECT_EQ(RoomLinks(room, "http://h:1/"),
            std::vector<std::string>{"watch link: http://h:1/#/watch/r12ab/abcdefghjkmn"});
  room.set_join_code("K7PQ2X");
  EXPECT_EQ(RoomLinks(room, "http://h:1/"),
            (std::vector<std::string>{"invitation: http://h:1/#/join/r12ab/K7PQ2X",
                                      "watch link: http://h:1/#/watch/r12ab/abcdefghjkmn"}));
  // A public room is named by its id alone, and the links read back as the room.
  room.set_is_private(false);
  const auto links = RoomLinks(room, "http://h:1/");
  EXPECT_EQ(links, (std::vector<std::string>{"invitation: http://h:1/#/room/r12ab",
                                             "watch link: http://h:1/#/watch/room/r12ab"}));
  EXPECT_EQ(Ref({links[0].substr(links[0].find("http"))}, false).room_id, "r12ab");
  EXPECT_EQ(Ref({links[1].substr(links[1].find("http"))}, true).room_id, "r12ab");
}

// A reconnection brings a spectator of a private room back with the code he holds: the room id
// alone would be refused (code_required).
TEST(ReenterRoom, WithTheCodeTheSpectatorHolds) {
  plateau::v1::RoomInfo room;
  room.set_room_id("r12ab");
  room.set_is_private(true);
  room.set_watch_code("abcdefghjkmn");
  room.set_your_seat(-1);
  plateau::v1::ClientMessage m = ReenterRoom(room);
  ASSERT_TRUE(m.has_spectate());
  EXPECT_EQ(m.spectate().room_id(), "r12ab");
  EXPECT_EQ(m.spectate().watch_code(), "abcdefghjkmn");
  EXPECT_TRUE(m.spectate().join_code().empty());
  room.set_join_code("K7PQ2X");
  m = ReenterRoom(room);
  EXPECT_EQ(m.spectate().join_code(), "K7PQ2X");
  EXPECT_TRUE(m.spectate().watch_code().empty()) << "the join code lets him sit later: kept";
  room.set_your_seat(1);
  m = ReenterRoom(room);
  ASSERT_TRUE(m.has_join_room());
  EXPECT_EQ(m.join_room().room_id(), "r12ab");
}

// A reconnection names its room in the WebSocket path, for the server to seat the socket on the
// room's thread; no room, or an id that is not plain, opens the bare path.
TEST(WsTarget, NamesThePlainRoomOnly) {
  EXPECT_EQ(WsTarget(""), "/ws");
  EXPECT_EQ(WsTarget("r12ab"), "/ws?room=r12ab");
  EXPECT_EQ(WsTarget("floor-3_x"), "/ws?room=floor-3_x");
  EXPECT_EQ(WsTarget("a&b"), "/ws");
  EXPECT_EQ(WsTarget("a b"), "/ws");
  EXPECT_EQ(WsTarget(std::string(65, 'a')), "/ws");
  EXPECT_EQ(WsTarget(std::string(64, 'a')), "/ws?room=" + std::string(64, 'a'));
}

}  // namespace
}  // namespace plateau::cli
