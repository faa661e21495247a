#pragma once
// The server's stable error codes (ServerMessage.error.code): programs match on them, so they are
// named once here and never renamed. The engine's own codes (not_your_turn, malformed, bad_answer,
// ...) come from engine/core/status.h and engine/core/table.h; a game adds its own.
namespace plateau::server::codes {

inline constexpr const char* kRoomNotFound = "room_not_found";  // no such room, or it is gone
inline constexpr const char* kNotSeated = "not_seated";  // the request needs a seat in the room
inline constexpr const char* kGameStarted = "game_started";  // the room's game has already started
inline constexpr const char* kNotMember = "not_member";  // the request needs membership of the room
inline constexpr const char* kEmptyChat = "empty_chat";  // a chat message with no text
inline constexpr const char* kChatTooLong = "chat_too_long";  // a chat message over the limit
inline constexpr const char* kCodeRequired = "code_required";  // a private room needs its join code
inline constexpr const char* kRoomFull = "room_full";  // every seat is taken
inline constexpr const char* kNotHost = "not_host";  // only the host may do this
inline constexpr const char* kNotEnoughPlayers = "not_enough_players";  // fewer seated players than the game needs
inline constexpr const char* kNotReady = "not_ready";  // a seated player is not ready
inline constexpr const char* kStorageError = "storage_error";  // the database refused or failed: nothing changed
inline constexpr const char* kRoomMoved = "room_moved";  // another node runs the room now: reconnect
inline constexpr const char* kGameNotRunning = "game_not_running";  // no game is being played in the room
inline constexpr const char* kHelloRequired = "hello_required";  // the first message must be Hello
inline constexpr const char* kAlreadyIdentified = "already_identified";  // a second Hello on one connection
inline constexpr const char* kUnsupportedProtocol = "unsupported_protocol";  // a protocol version this server does not speak
inline constexpr const char* kUnknownToken = "unknown_token";  // a Hello with a token nobody has
inline constexpr const char* kTokenExpired = "token_expired";  // a token unused longer than --token-inactive-days
inline constexpr const char* kTokenRevoked = "token_revoked";  // a token given up by "sign out everywhere"
inline constexpr const char* kBadName = "bad_name";  // a player name that is empty or not text
inline constexpr const char* kBadTitle = "bad_title";  // a room title that is too long or not text
inline constexpr const char* kReplaysUnavailable = "replays_unavailable";  // this server keeps no replays
inline constexpr const char* kBadRecord = "bad_record";  // a stored game that cannot be replayed
inline constexpr const char* kRateLimited = "rate_limited";  // too many requests: slow down (see Error.reason)
inline constexpr const char* kChatRateLimited = "chat_rate_limited";  // too many chat messages
inline constexpr const char* kTooManyRooms = "too_many_rooms";  // rooms created too fast, or too many open
inline constexpr const char* kCodeLockout = "code_lockout";  // too many wrong join codes: wait
inline constexpr const char* kShuttingDown = "shutting_down";  // the server is stopping: reconnect soon
inline constexpr const char* kBadPage = "bad_page";  // a room list page size over the limit
inline constexpr const char* kGameNotOver = "game_not_over";  // a rematch waits for the end of the game
inline constexpr const char* kPlayerLeft = "player_left";  // a player of the game has left the room
inline constexpr const char* kSeatTaken = "seat_taken";  // that seat already has a player or a bot
inline constexpr const char* kNoSuchSeat = "no_such_seat";  // the room has no seat with that number
inline constexpr const char* kNotABot = "not_a_bot";  // that seat holds no bot
inline constexpr const char* kBadBotLevel = "bad_bot_level";  // a bot level this server does not have
inline constexpr const char* kBadTimer = "bad_timer";  // a turn timer outside its limits
inline constexpr const char* kBadLeaveMode = "bad_leave_mode";  // a LeaveMode this server does not know
inline constexpr const char* kPlayerPresent = "player_present";  // that seat's player is here: it cannot be replaced
inline constexpr const char* kTooEarly = "too_early";  // the seat's player has not been away long enough yet
inline constexpr const char* kNotReplaceable = "not_replaceable";  // a bot's seat, one already played by a bot, or a resigned one
inline constexpr const char* kClaimNeedsTwo = "claim_needs_two";  // a win is claimed only in a two-player game
inline constexpr const char* kNoStandIn = "no_stand_in";  // no bot plays for you
inline constexpr const char* kUndoOff = "undo_off";  // this room does not let moves be taken back
inline constexpr const char* kNothingToUndo = "nothing_to_undo";  // you have made no move that could be taken back
inline constexpr const char* kUndoTooLate = "undo_too_late";  // an action was accepted after your move
inline constexpr const char* kUndoUnsafe = "undo_unsafe";  // the move drew or showed something: it stands

}  // namespace plateau::server::codes
