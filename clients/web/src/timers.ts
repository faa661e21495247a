// Turn timers and seats left empty, in words and numbers: what the room form offers, the clock a
// seat shows, and whether the others may replace a seat now. Pure: the time is always passed in.
import {
  ActionOrigin, Presence, RoomStatus, TimerMode,
  type RoomInfo, type SeatClock, type SeatInfo, type TimerPreset, type TurnTimer,
} from "./store";

/** Whether a bot stands in for the player of `seat` (handed over, or abandoned to the clock). */
export function standIn(info: RoomInfo | null | undefined, seat: number): boolean {
  return !!info?.seats.find((s) => s.seat === seat)?.stand_in;
}

/** A countdown: m:ss, or h:mm:ss from an hour. Rounded up, so 0:00 means the time is out. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/**
 * What a seat's clock shows at `now`: a running clock counts down from what the server said when
 * the RoomInfo was sent, taken as the moment it arrived (`receivedAt`); a stopped one is its bank.
 */
export function remainingMs(clock: SeatClock, receivedAt: number, now: number): number {
  if (!clock.running) return clock.remaining_ms;
  return Math.max(0, clock.remaining_ms - Math.max(0, now - receivedAt));
}

/** A duration in seconds as people say it: "45 s", "90 s", "5 min", "2 min 30 s", "2 h". */
export function durationWords(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
  const parts: string[] = [];
  if (h) parts.push(`${h} h`);
  if (m) parts.push(`${m} min`);
  if (s) parts.push(`${s} s`);
  return parts.join(" ");
}

/** "60 s per move", "5 min + 10 s per move", "10 min each"; "" for no timer. */
export function describeTimer(timer: TurnTimer | null | undefined): string {
  if (!timer) return "";
  if (timer.mode === TimerMode.PER_MOVE) return `${durationWords(timer.per_move_seconds)} per move`;
  if (timer.mode === TimerMode.CLOCK) {
    const bank = durationWords(timer.bank_seconds);
    return timer.increment_seconds ? `${bank} + ${durationWords(timer.increment_seconds)} per move` : `${bank} each`;
  }
  return "";
}

/** A preset as the room form lists it: "Casual — 60 s per move". */
export function presetLabel(preset: TimerPreset): string {
  return `${preset.name} — ${describeTimer(preset.timer)}`;
}

function sameClock(a: TurnTimer, b: TurnTimer): boolean {
  return a.mode === b.mode && a.per_move_seconds === b.per_move_seconds && a.bank_seconds === b.bank_seconds &&
    a.increment_seconds === b.increment_seconds;
}

/** "a bot after 2 timeouts in a row", "no bot takes over". */
export function takeoverWords(timeouts: number): string {
  return timeouts > 0 ? `a bot after ${timeouts} timeout${timeouts === 1 ? "" : "s"} in a row` : "no bot takes over";
}

/**
 * A room's timer as its header and the lobby say it: named after the game's preset whose clock it
 * has ("Casual: 60 s per move"), else only described (a room made by another client), with when
 * a bot takes a seat over if the host changed it from the preset's; "" for none.
 */
export function roomTimerLabel(timer: TurnTimer | null | undefined, presets: TimerPreset[] = []): string {
  const words = describeTimer(timer);
  if (!words) return "";
  const preset = presets.find((p) => p.timer && sameClock(p.timer, timer!));
  const takeover = preset && (preset.timer?.timeouts_to_abandon ?? 0) === (timer!.timeouts_to_abandon ?? 0) ? ""
    : `, ${takeoverWords(timer!.timeouts_to_abandon ?? 0)}`;
  return `${preset?.name ?? "Turn timer"}: ${words}${takeover}`;
}

/** "online", "offline", "offline 3 min", "left"; "" for a free seat or a bot's. */
export function presenceLabel(seat: SeatInfo, offlineMs: number): string {
  switch (seat.presence) {
    case Presence.ONLINE: return "online";
    case Presence.LEFT: return "left";
    case Presence.OFFLINE: {
      const min = Math.floor(offlineMs / 60_000);
      if (min < 1) return "offline";
      return min < 60 ? `offline ${min} min` : `offline ${Math.floor(min / 60)} h`;
    }
    default: return "";
  }
}

/** How long the seat's player has been away at `now` (0 when they are not). */
export function offlineMs(seat: SeatInfo, receivedAt: number, now: number): number {
  if (seat.presence !== Presence.OFFLINE && seat.presence !== Presence.LEFT) return 0;
  return (seat.offline_ms ?? 0) + Math.max(0, now - receivedAt);
}

/** The clock ran out on the seat often enough in a row for the server to count it abandoned. */
export function abandoned(seat: SeatInfo, timer: TurnTimer | null | undefined): boolean {
  const limit = timer?.timeouts_to_abandon ?? 0;
  return limit > 0 && (seat.clock?.timeouts ?? 0) >= limit;
}

/**
 * Whether the local player may hand `seat` to a bot now (ReplaceSeat), by the server's rules:
 * during the game, from a seat of one's own, for another person's seat nobody plays for, whose
 * player left, has been offline for the room's grace period, or was abandoned to the clock.
 * `resigned`: the view's table.resigned (a resigned seat is already played by the game).
 */
export function replaceable(info: RoomInfo, seat: SeatInfo, resigned: number[], receivedAt: number, now: number): boolean {
  if (info.status !== RoomStatus.PLAYING || info.your_seat < 0 || seat.seat === info.your_seat) return false;
  if (!seat.player_id || seat.bot || resigned.includes(seat.seat)) return false;
  // A seat a bot already plays can still be claimed in a two-player game, not handed over again.
  if (seat.stand_in && info.seats.length !== 2) return false;
  if (seat.presence === Presence.LEFT || abandoned(seat, info.timer)) return true;
  return seat.presence === Presence.OFFLINE && offlineMs(seat, receivedAt, now) >= info.offline_grace_seconds * 1000;
}

/** Who made a replay's move, when not its seat's player ("" for them). */
export function originNote(origin: number | undefined): string {
  switch (origin) {
    case ActionOrigin.CLOCK: return "time ran out: the server played";
    case ActionOrigin.STAND_IN: return "played by a bot standing in";
    case ActionOrigin.CLAIM: return "resigned: the opponent claimed the win";
    case ActionOrigin.EXPIRED: return "resigned: nobody came back to the game";
    default: return "";
  }
}
