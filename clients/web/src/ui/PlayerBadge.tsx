// A player as every board shows one: seat colour, name, "you", online or not, whose turn.
import type { ComponentChildren } from "preact";
import { Dot, seatColor, useSelfMark } from "./common";

export interface PlayerBadgeProps {
  seat: number;
  name: string;
  /** The viewer's own seat. */
  you?: boolean;
  /** Connected to the room; undefined when unknown (replays), which shows nothing. */
  online?: boolean;
  /** Expected to act now. */
  turn?: boolean;
  /** The words of the turn marker ("to play", "deciding…"). */
  turnLabel?: string;
  size?: number;
  class?: string;
  /** Anything the game adds after the name (a leader's star, a medal). */
  children?: ComponentChildren;
}

/** The badge's classes and its words in full (its tooltip). */
export function badgeModel(p: PlayerBadgeProps, selfMark = "you"): { classes: string; label: string } {
  const classes = ["player-badge"];
  const words = [p.name];
  if (p.you) { classes.push("you"); words.push(selfMark); }
  if (p.online === false) { classes.push("offline"); words.push("offline"); }
  if (p.turn) { classes.push("turn"); words.push(p.turnLabel ?? "to play"); }
  if (p.class) classes.push(p.class);
  return { classes: classes.join(" "), label: words.join(", ") };
}

export function PlayerBadge(p: PlayerBadgeProps) {
  const mark = useSelfMark();
  const { classes, label } = badgeModel(p, mark);
  return (
    <span class={classes} style={{ "--seat": seatColor(p.seat) }} title={label} data-seat={p.seat}>
      <Dot seat={p.seat} size={p.size ?? 14} />
      <span class="pb-name">{p.name}</span>
      {p.you && <span class="pb-you" data-testid="self-mark">{mark}</span>}
      {p.children}
      {/* The dot alone says nothing to a screen reader: its words are there, visually hidden. */}
      {p.online !== undefined && (
        <span class={`pb-presence ${p.online ? "on" : "off"}`}><span class="sr-only">{p.online ? "online" : "offline"}</span></span>
      )}
      {p.turn && <span class="pb-turn">{p.turnLabel ?? "to play"}</span>}
    </span>
  );
}
