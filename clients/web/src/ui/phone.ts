// The room on a phone: what the compact bar says, where its "your move" button leads, and how
// many chat lines came while the chat drawer was shut.
import { useEffect, useState } from "preact/hooks";
import { waitsOnMe } from "../attention";
import { RoomStatus, type ChatLine, type RoomState } from "../store";
import { standIn } from "../timers";

/** The widths laid out for a phone; styles.css uses the same bound. */
export const PHONE_QUERY = "(max-width: 600px)";

/** Whether the window is phone-sized now (re-renders when it crosses the bound). */
export function usePhone(): boolean {
  const [phone, setPhone] = useState(() => typeof matchMedia === "function" && matchMedia(PHONE_QUERY).matches);
  useEffect(() => {
    if (typeof matchMedia !== "function") return;
    const mq = matchMedia(PHONE_QUERY);
    const update = () => setPhone(mq.matches);
    update();
    mq.addEventListener("change", update);
    return () => mq.removeEventListener("change", update);
  }, []);
  return phone;
}

/**
 * Where each board asks the player for their move, most specific first. The boards do not share a
 * component for it, so these are their own test ids: a Globalissimo question put to this player
 * (only the asked player's panel carries data-prompt), the generic panel under any board, LIMIT's
 * decision, Guerre Froide's desk, Globalissimo's cards to place a tile on, Contrôle Global's moves.
 */
export const ACTION_ANCHORS = [
  "[data-testid=question-panel][data-prompt]",
  "[data-testid=core-prompt]",
  "[data-testid=decision]",
  "[data-testid=desk]",
  "[data-testid=display]",
  "[data-testid=cg-moves]",
];

export function findActionAnchor(root: ParentNode): Element | null {
  for (const sel of ACTION_ANCHORS) {
    const el = root.querySelector(sel);
    if (el) return el;
  }
  return null;
}

/** Scrolls the player's move into view below whatever stays stuck at the top of the screen. */
export function scrollToAction(root: ParentNode = document): boolean {
  const target = findActionAnchor(root) ?? root.querySelector("[data-testid=game-area]");
  if (!target) return false;
  let covered = document.querySelector(".topbar")?.getBoundingClientRect().height ?? 0;
  const banner = root.querySelector("[data-testid=turn-banner]");
  if (banner && getComputedStyle(banner).position === "sticky") covered += banner.getBoundingClientRect().height;
  const top = target.getBoundingClientRect().top + window.scrollY - covered - 8;
  const still = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
  window.scrollTo({ top: Math.max(0, top), behavior: still ? "auto" : "smooth" });
  return true;
}

/** The turn in a few words, for the bar: short enough for one line beside two buttons. */
export function phoneStatus(r: RoomState): { text: string; mine: boolean; seat: number } {
  const info = r.info;
  const g = r.game;
  if (!info) return { text: "", mine: false, seat: -1 };
  if (info.status === RoomStatus.WAITING) {
    const seated = info.seats.filter((s) => s.player_id).length;
    return { text: `Waiting to start · ${seated}/${info.max_seats}`, mine: false, seat: -1 };
  }
  if (info.status === RoomStatus.FINISHED || g?.gameOver) return { text: "Game over", mine: false, seat: -1 };
  if (!g) return { text: "Dealing…", mine: false, seat: -1 };
  if (waitsOnMe(r)) return { text: "Your turn", mine: true, seat: g.seat };
  if (g.seat >= 0 && g.acting.includes(g.seat) && standIn(info, g.seat)) return { text: "A bot plays for you", mine: false, seat: g.seat };
  const names = g.acting.map((seat) => info.seats.find((s) => s.seat === seat)?.name || `Seat ${seat + 1}`);
  if (names.length === 0) return { text: "…", mine: false, seat: -1 };
  return { text: `${names.join(", ")} to play`, mine: false, seat: g.acting[0] };
}

/** The last chat line seen: by content, since a reconnection refills the chat with new objects. */
export interface ChatMark { key: string; at: number }

function chatKey(c: ChatLine): string {
  return `${c.at_unix_ms}|${c.from_player_id}|${c.text}`;
}

export function chatMark(chat: readonly ChatLine[]): ChatMark | null {
  const last = chat[chat.length - 1];
  return last ? { key: chatKey(last), at: Number(last.at_unix_ms) } : null;
}

/**
 * Lines from the others after `seen`. A line no longer held (the chat keeps the last 200, and a
 * reconnection empties it before the history comes back) is placed by its server time instead.
 */
export function unreadCount(chat: readonly ChatLine[], seen: ChatMark | null, me: string | undefined): number {
  let from = 0;
  if (seen) {
    let i = chat.length - 1;
    while (i >= 0 && chatKey(chat[i]) !== seen.key) i--;
    if (i >= 0) from = i + 1;
    else {
      from = chat.findIndex((c) => Number(c.at_unix_ms) > seen.at);
      if (from < 0) from = chat.length;
    }
  }
  let n = 0;
  for (let k = from; k < chat.length; k++) if (chat[k].from_player_id !== me) n++;
  return n;
}

const SEEN_KEY = (roomId: string) => `plateau.chat.seen.${roomId}`;

/** The chat mark of a room, kept for the tab's life so a reload does not count old lines again. */
export function loadChatMark(roomId: string): ChatMark | null {
  try {
    const raw = sessionStorage.getItem(SEEN_KEY(roomId));
    return raw ? (JSON.parse(raw) as ChatMark) : null;
  } catch {
    return null;
  }
}

export function saveChatMark(roomId: string, mark: ChatMark | null): void {
  try {
    if (mark) sessionStorage.setItem(SEEN_KEY(roomId), JSON.stringify(mark));
  } catch {
    // Storage refused (private mode, full): the count only lasts until the page reloads.
  }
}
