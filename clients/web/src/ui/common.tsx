import { createContext, type ComponentChildren } from "preact";
import { useContext } from "preact/hooks";
import type { CountWord } from "../games/types";
import type { SeatResult } from "../store";

/**
 * True inside a replay: the board is drawn as one seat saw the game, for whoever opened the link,
 * who may not have played. That seat is then marked as the replay's viewpoint, never as "you".
 */
export const ReplayViewpoint = createContext(false);

/** The word that marks the seat a board is drawn for: "you" at a table, "viewpoint" in a replay. */
export function useSelfMark(): string {
  return useContext(ReplayViewpoint) ? "viewpoint" : "you";
}

/**
 * How a board names the seat it is drawn for, `name` being that seat's player: "you" / "Your" at
 * a table, the player's name in a replay.
 */
export function useSelfWords(name: string): { you: string; your: string } {
  return useContext(ReplayViewpoint) ? { you: name, your: `${name}'s` } : { you: "you", your: "Your" };
}

/** Player colours by seat, shared by the room and every board. */
export const SEAT_COLORS = ["#e0483e", "#2f7fd8", "#2fa35a", "#e8b410", "#d94fa8", "#20a7a7"];
export const SEAT_COLOR_NAMES = ["red", "blue", "green", "yellow", "pink", "teal"];
export function seatColor(seat: number): string {
  return seat >= 0 ? SEAT_COLORS[seat % SEAT_COLORS.length] : "#888";
}

export function Dot({ seat, size = 12 }: { seat: number; size?: number }) {
  return <span class="dot" style={{ background: seatColor(seat), width: `${size}px`, height: `${size}px` }} />;
}

export function Spinner({ label }: { label?: string }) {
  return (
    <div class="spinner-wrap" role="status">
      <span class="spinner" />
      {label && <span>{label}</span>}
    </div>
  );
}

export function Panel({ title, children, class: cls, actions }: {
  title?: ComponentChildren; children: ComponentChildren; class?: string; actions?: ComponentChildren;
}) {
  return (
    <section class={`panel ${cls ?? ""}`}>
      {(title || actions) && (
        <header class="panel-head">
          {title && <h2>{title}</h2>}
          {actions && <div class="panel-actions">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}

const MEDALS = ["🥇", "🥈", "🥉"];

/** "2 of 3 seats are free." / "1 of 3 seats is free." */
export function freeSeatsText(free: number, seats: number): string {
  return `${free} of ${seats} ${seats === 1 ? "seat" : "seats"} ${free === 1 ? "is" : "are"} free.`;
}

/** A score with its unit: the game's own (CountWord) or points. */
export function scoreText(n: number, unit?: CountWord): string {
  const u = unit ?? { one: "pt", many: "pts" };
  return `${n} ${n === 1 || n === -1 ? u.one : u.many}`;
}

/**
 * Final ranking; equal ranks are ties and share their place. A game of one seat (LIMIT's solo)
 * has no places: the row says the result, and the engine's detail says how it went.
 */
export function Ranking({ results, youSeat, unit }: { results: SeatResult[]; youSeat?: number; unit?: CountWord }) {
  const solo = results.length === 1;
  const sorted = [...results].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  return (
    <ol class="ranking" data-testid="ranking">
      {sorted.map((r) => {
        const tied = sorted.filter((x) => x.rank === r.rank).length > 1;
        return (
          <li key={r.seat} class={`rank-row ${r.rank === 1 ? "winner" : ""} ${r.seat === youSeat ? "you" : ""}`}
            data-testid="ranking-row">
            {!solo && <span class="rank-place">{MEDALS[r.rank - 1] ?? ""} {r.rank}{tied ? "=" : ""}</span>}
            <Dot seat={r.seat} size={14} />
            <span class="rank-name">{r.name}{r.seat === youSeat ? " (you)" : ""}</span>
            <span class="rank-score" data-testid="rank-score">{scoreText(r.score, unit)}</span>
            {r.detail && <span class="rank-detail">{r.detail}</span>}
          </li>
        );
      })}
    </ol>
  );
}

export function timeAgo(ms: number): string {
  if (!ms) return "";
  const s = Math.round((Date.now() - ms) / 1000);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(ms).toLocaleDateString();
}

export function downloadBytes(bytes: Uint8Array, filename: string): void {
  const blob = new Blob([bytes as BlobPart], { type: "application/octet-stream" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}
