import { describe, expect, it } from "vitest";
import { chatMark, phoneStatus, unreadCount } from "../src/ui/phone";
import { RoomStatus, type ChatLine, type RoomState, type SeatInfo } from "../src/store";

const line = (from: string, text: string, at: number): ChatLine =>
  ({ room_id: "r", from_name: from.toUpperCase(), from_player_id: from, text, at_unix_ms: at });

describe("the chat drawer's unread count", () => {
  const chat = [line("ada", "hi", 100), line("me", "hello", 200), line("bob", "go", 300), line("ada", "now?", 400)];

  it("counts the others' lines after the last one seen", () => {
    expect(unreadCount(chat, null, "me")).toBe(3);
    expect(unreadCount(chat, chatMark(chat.slice(0, 2)), "me")).toBe(2);
    expect(unreadCount(chat, chatMark(chat), "me")).toBe(0);
    expect(unreadCount([], null, "me")).toBe(0);
  });

  it("does not count the player's own lines", () => {
    const mine = [...chat, line("me", "wait", 500)];
    expect(unreadCount(mine, chatMark(chat), "me")).toBe(0);
  });

  it("finds the last line seen again after a reconnection refilled the chat", () => {
    const seen = chatMark(chat.slice(0, 3));
    const refilled = chat.map((c) => ({ ...c }));
    expect(unreadCount(refilled, seen, "me")).toBe(1);
  });

  it("falls back on the time of a line no longer held", () => {
    const seen = chatMark([line("ada", "gone", 250)]);
    expect(unreadCount(chat, seen, "me")).toBe(2);
    // Part of the history is back, the line seen not yet: only the newer lines count.
    expect(unreadCount(chat.slice(0, 2), seen, "me")).toBe(0);
  });
});

describe("the phone bar's status", () => {
  const seat = (n: number, name: string, extra: Partial<SeatInfo> = {}): SeatInfo =>
    ({ seat: n, player_id: name ? `p${n}` : "", name, ready: true, connected: true, bot: 0, rematch: false, presence: 0, offline_ms: 0, stand_in: 0, clock: null, ...extra });
  const room = (status: number, game: Partial<NonNullable<RoomState["game"]>> | null, seats: SeatInfo[]): RoomState => ({
    id: "r", chat: [], results: null, gameId: "", replayToken: "", lastError: "", role: "player", infoAt: 0,
    info: { status, seats, max_seats: seats.length } as unknown as RoomState["info"],
    game: game ? { version: 1, seat: 0, viewType: "", view: {}, acting: [], gameOver: false, canUndo: false, ...game } : null,
  });
  const seats = [seat(0, "Me"), seat(1, "Bot 1", { bot: 1 }), seat(2, "")];

  it("says whose turn it is", () => {
    expect(phoneStatus(room(RoomStatus.PLAYING, { acting: [0] }, seats))).toEqual({ text: "Your turn", mine: true, seat: 0 });
    expect(phoneStatus(room(RoomStatus.PLAYING, { acting: [1] }, seats))).toEqual({ text: "Bot 1 to play", mine: false, seat: 1 });
    expect(phoneStatus(room(RoomStatus.PLAYING, { acting: [1, 2] }, seats)).text).toBe("Bot 1, Seat 3 to play");
    expect(phoneStatus(room(RoomStatus.PLAYING, { seat: -1, acting: [0] }, seats)).text).toBe("Me to play");
  });

  it("is not the player's turn while a bot stands in for them", () => {
    const away = [seat(0, "Me", { stand_in: 1 }), seats[1]];
    expect(phoneStatus(room(RoomStatus.PLAYING, { acting: [0] }, away))).toEqual({ text: "A bot plays for you", mine: false, seat: 0 });
  });

  it("covers the room before and after the game", () => {
    expect(phoneStatus(room(RoomStatus.WAITING, null, seats)).text).toBe("Waiting to start · 2/3");
    expect(phoneStatus(room(RoomStatus.PLAYING, null, seats)).text).toBe("Dealing…");
    expect(phoneStatus(room(RoomStatus.PLAYING, { acting: [], gameOver: true }, seats)).text).toBe("Game over");
    expect(phoneStatus(room(RoomStatus.FINISHED, null, seats)).text).toBe("Game over");
  });
});
