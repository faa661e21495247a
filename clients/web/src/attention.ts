// "Your turn" outside the board: the tab's title and icon while any of your tables waits on you,
// and, if you turned them on, a sound and a browser notification when a table starts waiting on
// you while the tab is in the background.
import type { RoomState } from "./store";
import { standIn } from "./timers";

export const BASE_TITLE = "Plateau — board games online";

/**
 * Whether the local player must act at this table now (a move or a question of theirs). Not while
 * a bot stands in for them: it answers for the seat.
 */
export function waitsOnMe(r: RoomState): boolean {
  const g = r.game;
  if (!g || g.gameOver || g.seat < 0 || !g.acting.includes(g.seat)) return false;
  return !standIn(r.info, g.seat);
}

/** The tab's title when `waiting` tables wait on you (`current`: the table on screen, if any). */
export function titleFor(waiting: RoomState[], current?: RoomState): string {
  if (waiting.length === 0) return current?.info?.title ? `${current.info.title} · Plateau` : BASE_TITLE;
  const here = current && waiting.includes(current);
  const where = here ? current!.info?.title : waiting.length === 1 ? waiting[0].info?.title : "";
  const count = waiting.length > 1 ? ` (${waiting.length})` : "";
  return `● Your turn${count}${where ? ` — ${where}` : ""} · Plateau`;
}

const ICON = (badge: boolean) =>
  "data:image/svg+xml," +
  encodeURIComponent(
    "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'>" +
      "<rect x='6' y='6' width='52' height='52' rx='12' fill='#16324f'/>" +
      "<rect x='16' y='16' width='14' height='14' rx='3' fill='#f5a524'/>" +
      "<rect x='34' y='34' width='14' height='14' rx='3' fill='#f5a524'/>" +
      (badge ? "<circle cx='48' cy='16' r='14' fill='#e0483e' stroke='#fff' stroke-width='4'/>" : "") +
      "</svg>",
  );

/** The settings a player may turn on (kept in localStorage). */
export const alerts = {
  get sound(): boolean { return localStorage.getItem("plateau.alert.sound") === "1"; },
  set sound(on: boolean) { localStorage.setItem("plateau.alert.sound", on ? "1" : "0"); },
  get notify(): boolean { return localStorage.getItem("plateau.alert.notify") === "1"; },
  set notify(on: boolean) { localStorage.setItem("plateau.alert.notify", on ? "1" : "0"); },
};

function chime(): void {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.35);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.35);
    osc.onended = () => void ctx.close();
  } catch {
    // No audio here (a browser without Web Audio, or one that blocks it): the title still says so.
  }
}

let waitingBefore = new Set<string>();

/**
 * Brings the title and icon up to date with `rooms`; call after every change of the store.
 * `currentId` is the table on screen.
 */
export function updateAttention(rooms: Iterable<RoomState>, currentId?: string): void {
  const all = [...rooms];
  const waiting = all.filter(waitsOnMe);
  const current = all.find((r) => r.id === currentId);
  const title = titleFor(waiting, current);
  if (document.title !== title) document.title = title;
  const icon = document.querySelector<HTMLLinkElement>("link[rel=icon]");
  const href = ICON(waiting.length > 0);
  if (icon && icon.href !== href) icon.href = href;
  const now = new Set(waiting.map((r) => r.id));
  const fresh = waiting.filter((r) => !waitingBefore.has(r.id));
  waitingBefore = now;
  if (fresh.length === 0 || !document.hidden) return;
  if (alerts.sound) chime();
  if (alerts.notify && "Notification" in window && Notification.permission === "granted") {
    const where = fresh[0].info?.title ?? "your table";
    new Notification("Plateau: your turn", { body: `${where} is waiting for you.`, tag: fresh[0].id });
  }
}
