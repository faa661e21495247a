import { describe, expect, it } from "vitest";
import { encode, type } from "../src/proto";
import {
  ActionOrigin, LeaveMode, Presence, ReplaceKind, RoomStatus, SessionNoticeKind, TimerMode,
  type RematchInfo, type RoomInfo, type SeatClock, type SeatInfo, type SessionNotice, type TimerPreset, type TurnTimer,
} from "../src/store";
import {
  abandoned, describeTimer, durationWords, formatClock, offlineMs, originNote, presenceLabel, presetLabel,
  remainingMs, replaceable, roomTimerLabel,
} from "../src/timers";

const enumValues = (message: string, field: string) =>
  (type(message).fields[field].resolve().resolvedType as any).values as Record<string, number>;

describe("the timer and seat types follow the .proto", () => {
  it("has the fields of SeatInfo, SeatClock, TurnTimer, TimerPreset and RoomInfo", () => {
    const fields = (name: string) => type(`plateau.v1.${name}`).fieldsArray.map((f) => f.name).sort();
    const seat = {
      seat: true, player_id: true, name: true, ready: true, connected: true, bot: true, rematch: true, presence: true,
      offline_ms: true, stand_in: true, clock: true,
    } satisfies Record<keyof SeatInfo, true>;
    const clock = { running: true, remaining_ms: true, timeouts: true } satisfies Record<keyof SeatClock, true>;
    const timer = {
      mode: true, per_move_seconds: true, bank_seconds: true, increment_seconds: true, timeouts_to_abandon: true,
    } satisfies Record<keyof TurnTimer, true>;
    const preset = { name: true, timer: true } satisfies Record<keyof TimerPreset, true>;
    const room = {
      room_id: true, game: true, is_private: true, join_code: true, status: true, host_player_id: true, max_seats: true,
      seats: true, spectators: true, options: true, title: true, your_seat: true, game_id: true, timer: true,
      offline_grace_seconds: true, rematch: true, watch_code: true, undo: true,
    } satisfies Record<keyof RoomInfo, true>;
    const rematch = {
      without_absent: true, unavailable: true, without_unavailable: true, absent_seats: true,
    } satisfies Record<keyof RematchInfo, true>;
    const notice = { kind: true, connections: true } satisfies Record<keyof SessionNotice, true>;
    expect(Object.keys(seat).sort()).toEqual(fields("SeatInfo"));
    expect(Object.keys(clock).sort()).toEqual(fields("SeatClock"));
    expect(Object.keys(timer).sort()).toEqual(fields("TurnTimer"));
    expect(Object.keys(preset).sort()).toEqual(fields("TimerPreset"));
    expect(Object.keys(room).sort()).toEqual(fields("RoomInfo"));
    expect(Object.keys(rematch).sort()).toEqual(fields("RematchInfo"));
    expect(Object.keys(notice).sort()).toEqual(fields("SessionNotice"));
  });

  it("matches the enums", () => {
    expect(enumValues("plateau.v1.SeatInfo", "presence")).toEqual({
      PRESENCE_UNSPECIFIED: Presence.UNSPECIFIED, PRESENCE_ONLINE: Presence.ONLINE, PRESENCE_OFFLINE: Presence.OFFLINE,
      PRESENCE_LEFT: Presence.LEFT,
    });
    expect(enumValues("plateau.v1.TurnTimer", "mode")).toEqual({
      TIMER_NONE: TimerMode.NONE, TIMER_PER_MOVE: TimerMode.PER_MOVE, TIMER_CLOCK: TimerMode.CLOCK,
    });
    expect(enumValues("plateau.v1.LeaveRoom", "mode")).toEqual({
      LEAVE_KEEP_SEAT: LeaveMode.KEEP_SEAT, LEAVE_CONCEDE: LeaveMode.CONCEDE, LEAVE_HAND_TO_BOT: LeaveMode.HAND_TO_BOT,
    });
    expect(enumValues("plateau.v1.SessionNotice", "kind")).toEqual({
      SESSION_NOTICE_UNSPECIFIED: 0, SESSION_NOTICE_OPENED_ELSEWHERE: SessionNoticeKind.OPENED_ELSEWHERE,
      SESSION_NOTICE_SIGNED_OUT: SessionNoticeKind.SIGNED_OUT,
    });
    expect(enumValues("plateau.v1.ReplaceSeat", "kind")).toEqual({
      REPLACE_WITH_BOT: ReplaceKind.WITH_BOT, REPLACE_CLAIM_WIN: ReplaceKind.CLAIM_WIN,
    });
    expect(enumValues("plateau.v1.ReplayAction", "origin")).toEqual({
      ORIGIN_PLAYER: ActionOrigin.PLAYER, ORIGIN_CLOCK: ActionOrigin.CLOCK, ORIGIN_STAND_IN: ActionOrigin.STAND_IN,
      ORIGIN_CLAIM: ActionOrigin.CLAIM, ORIGIN_EXPIRED: ActionOrigin.EXPIRED,
    });
  });
});

const perMove = (seconds: number, abandon = 3): TurnTimer =>
  ({ mode: TimerMode.PER_MOVE, per_move_seconds: seconds, bank_seconds: 0, increment_seconds: 0, timeouts_to_abandon: abandon });
const clocked = (bank: number, increment: number): TurnTimer =>
  ({ mode: TimerMode.CLOCK, per_move_seconds: 0, bank_seconds: bank, increment_seconds: increment, timeouts_to_abandon: 3 });

describe("clocks", () => {
  it("counts down in m:ss, rounding up so that 0:00 means out of time", () => {
    expect(formatClock(60_000)).toBe("1:00");
    expect(formatClock(59_001)).toBe("1:00");
    expect(formatClock(9_500)).toBe("0:10");
    expect(formatClock(1)).toBe("0:01");
    expect(formatClock(0)).toBe("0:00");
    expect(formatClock(-500)).toBe("0:00");
    expect(formatClock(754_000)).toBe("12:34");
    expect(formatClock(3_723_000)).toBe("1:02:03");
  });

  it("runs from the moment the RoomInfo arrived; a stopped clock is its bank", () => {
    const running: SeatClock = { running: true, remaining_ms: 30_000, timeouts: 0 };
    expect(remainingMs(running, 1_000, 1_000)).toBe(30_000);
    expect(remainingMs(running, 1_000, 13_500)).toBe(17_500);
    expect(remainingMs(running, 1_000, 60_000)).toBe(0);
    // A local clock a little behind the receipt time does not add time.
    expect(remainingMs(running, 1_000, 900)).toBe(30_000);
    expect(remainingMs({ running: false, remaining_ms: 240_000, timeouts: 0 }, 1_000, 99_000)).toBe(240_000);
  });
});

describe("timers in words", () => {
  it("says durations as people do", () => {
    expect(durationWords(0)).toBe("0 s");
    expect(durationWords(45)).toBe("45 s");
    expect(durationWords(90)).toBe("90 s");
    expect(durationWords(120)).toBe("2 min");
    expect(durationWords(150)).toBe("2 min 30 s");
    expect(durationWords(300)).toBe("5 min");
    expect(durationWords(5400)).toBe("1 h 30 min");
    expect(durationWords(86400)).toBe("24 h");
  });

  it("describes each mode, and nothing without a timer", () => {
    expect(describeTimer(perMove(60))).toBe("60 s per move");
    expect(describeTimer(perMove(45))).toBe("45 s per move");
    expect(describeTimer(clocked(300, 10))).toBe("5 min + 10 s per move");
    expect(describeTimer(clocked(600, 0))).toBe("10 min each");
    expect(describeTimer(null)).toBe("");
    expect(describeTimer({ ...perMove(60), mode: TimerMode.NONE })).toBe("");
  });

  it("labels the presets a GameInfo lists, as the client decodes them", () => {
    const t = type("plateau.v1.GameInfo");
    const decoded = t.toObject(t.decode(encode(t, {
      id: "guerre_froide",
      timer_presets: [
        { name: "Casual", timer: { mode: TimerMode.PER_MOVE, per_move_seconds: 45, timeouts_to_abandon: 3 } },
        { name: "Clocked", timer: { mode: TimerMode.CLOCK, bank_seconds: 300, increment_seconds: 5, timeouts_to_abandon: 3 } },
      ],
    })), { longs: Number, enums: Number, defaults: true, oneofs: true });
    const presets = decoded.timer_presets as TimerPreset[];
    expect(presets.map(presetLabel)).toEqual(["Casual — 45 s per move", "Clocked — 5 min + 5 s per move"]);
    expect(roomTimerLabel(presets[1].timer, presets)).toBe("Clocked: 5 min + 5 s per move");
  });

  it("names a room's timer after its preset, else only describes it", () => {
    const presets: TimerPreset[] = [{ name: "Casual", timer: perMove(45) }];
    expect(roomTimerLabel(perMove(45), presets)).toBe("Casual: 45 s per move");
    // The host chose when a bot takes over: the preset keeps its name, the choice is said.
    expect(roomTimerLabel(perMove(45, 1), presets)).toBe("Casual: 45 s per move, a bot after 1 timeout in a row");
    expect(roomTimerLabel(perMove(45, 0), presets)).toBe("Casual: 45 s per move, no bot takes over");
    expect(roomTimerLabel(perMove(10))).toBe("Turn timer: 10 s per move, a bot after 3 timeouts in a row");
    expect(roomTimerLabel(null, presets)).toBe("");
  });

  it("says who made a replayed move when it was not the seat's player", () => {
    expect(originNote(ActionOrigin.PLAYER)).toBe("");
    expect(originNote(undefined)).toBe("");
    expect(originNote(ActionOrigin.CLOCK)).toMatch(/time ran out/);
    expect(originNote(ActionOrigin.STAND_IN)).toMatch(/bot/);
    expect(originNote(ActionOrigin.CLAIM)).toMatch(/claimed/);
    expect(originNote(ActionOrigin.EXPIRED)).toMatch(/nobody came back/);
  });
});

function seat(n: number, over: Partial<SeatInfo> = {}): SeatInfo {
  return {
    seat: n, player_id: `p${n}`, name: `Player ${n}`, ready: true, connected: true, presence: Presence.ONLINE,
    offline_ms: 0, stand_in: 0, clock: null, bot: 0, rematch: false, ...over,
  };
}

function playing(seats: SeatInfo[], over: Partial<RoomInfo> = {}): RoomInfo {
  return {
    room_id: "r", game: "guerre_froide", is_private: true, join_code: "", watch_code: "", status: RoomStatus.PLAYING, host_player_id: "p0",
    max_seats: seats.length, seats, spectators: [], options: new Uint8Array(), title: "", your_seat: 0, game_id: "g",
    timer: null, offline_grace_seconds: 60, undo: true, rematch: null, ...over,
  };
}

describe("presence", () => {
  it("says online, left, and for how long offline", () => {
    expect(presenceLabel(seat(0), 0)).toBe("online");
    expect(presenceLabel(seat(0, { presence: Presence.LEFT }), 600_000)).toBe("left");
    expect(presenceLabel(seat(0, { presence: Presence.OFFLINE }), 59_000)).toBe("offline");
    expect(presenceLabel(seat(0, { presence: Presence.OFFLINE }), 180_000)).toBe("offline 3 min");
    expect(presenceLabel(seat(0, { presence: Presence.OFFLINE }), 2 * 3_600_000 + 5)).toBe("offline 2 h");
    expect(presenceLabel(seat(0, { presence: Presence.UNSPECIFIED, player_id: "" }), 0)).toBe("");
  });

  it("counts the time offline on from the RoomInfo's arrival", () => {
    expect(offlineMs(seat(1, { presence: Presence.OFFLINE, offline_ms: 20_000 }), 5_000, 15_000)).toBe(30_000);
    expect(offlineMs(seat(1), 5_000, 15_000)).toBe(0);
  });
});

describe("which seats the others may replace", () => {
  const at = 1_000_000;

  it("a seat whose player left, at once", () => {
    const left = seat(1, { presence: Presence.LEFT, connected: false });
    expect(replaceable(playing([seat(0), left]), left, [], at, at)).toBe(true);
  });

  it("an offline seat once the grace period is over, counting from the RoomInfo's arrival", () => {
    const off = seat(1, { presence: Presence.OFFLINE, connected: false, offline_ms: 50_000 });
    const info = playing([seat(0), off]);
    expect(replaceable(info, off, [], at, at + 9_000)).toBe(false);
    expect(replaceable(info, off, [], at, at + 10_000)).toBe(true);
  });

  it("a seat abandoned to the clock, even online", () => {
    const timer = perMove(10, 2);
    const idle = seat(1, { clock: { running: true, remaining_ms: 5_000, timeouts: 2 } });
    expect(replaceable(playing([seat(0), idle], { timer }), idle, [], at, at)).toBe(true);
    const once = seat(1, { clock: { running: true, remaining_ms: 5_000, timeouts: 1 } });
    expect(replaceable(playing([seat(0), once], { timer }), once, [], at, at)).toBe(false);
    expect(abandoned(idle, { ...timer, timeouts_to_abandon: 0 })).toBe(false);
  });

  it("never one that is present, one's own, a bot's, resigned, or played by a bot beyond two players", () => {
    const left = seat(1, { presence: Presence.LEFT, connected: false });
    expect(replaceable(playing([seat(0), seat(1)]), seat(1), [], at, at)).toBe(false);
    expect(replaceable(playing([seat(0), left], { your_seat: 1 }), left, [], at, at)).toBe(false);
    const info = playing([seat(0), left]);
    expect(replaceable(info, left, [1], at, at)).toBe(false);
    // With two players a seat a bot plays may still be claimed; with three there is nothing to do.
    expect(replaceable(info, { ...left, stand_in: 1 }, [], at, at)).toBe(true);
    const three = playing([seat(0), { ...left, stand_in: 1 }, seat(2)]);
    expect(replaceable(three, three.seats[1], [], at, at)).toBe(false);
    const bot = seat(1, { bot: 1, presence: Presence.UNSPECIFIED });
    expect(replaceable(playing([seat(0), bot]), bot, [], at, at)).toBe(false);
  });

  it("only during the game, and only for the players", () => {
    const left = seat(1, { presence: Presence.LEFT, connected: false });
    expect(replaceable(playing([seat(0), left], { your_seat: -1 }), left, [], at, at)).toBe(false);
    expect(replaceable(playing([seat(0), left], { status: RoomStatus.FINISHED }), left, [], at, at)).toBe(false);
  });
});
