// The shell's side of the last move shown (src/lastmove.ts): the track of the room on screen for
// the boards, the mark an element of a board wears when another seat's move changed it, and the
// "Since your last move" summary.
import { createContext, type ComponentChildren } from "preact";
import { useContext } from "preact/hooks";
import { changedBy, markText, sinceLastMove, summaryLines, type MoveTrack } from "../lastmove";
import { int64String } from "../table";
import { Txt } from "./TextRender";

interface Marks {
  track: MoveTrack | null;
  names: readonly string[];
}

const LastMoveContext = createContext<Marks>({ track: null, names: [] });

/** Gives the boards under it the room's track (replays have none: nothing is marked). */
export function LastMoveProvider({ track, names, children }: Marks & { children: ComponentChildren }) {
  return <LastMoveContext.Provider value={{ track, names }}>{children}</LastMoveContext.Provider>;
}

/** What a marked element adds to its own: a class, and its words for the eye and the ear. */
export interface Mark {
  /** " last-move" when marked, else "": appended to the element's classes. */
  cls: string;
  /** The mark's words, for `title` and `aria-description`; undefined when not marked. */
  text?: string;
  /** Spread on the element: data-last-move and aria-description, or nothing. */
  attrs: { "data-last-move"?: string; "aria-description"?: string };
}

const UNMARKED: Mark = { cls: "", attrs: {} };

/**
 * The board's marker: `mark(select)` says whether the element `select` reads from a view (a card,
 * a slot, a player's resources) changed since the reference point, and by whose move.
 */
export function useLastMove<View>(): (select: (view: View) => unknown) => Mark {
  const { track, names } = useContext(LastMoveContext);
  return (select) => {
    const movers = changedBy(track, select);
    if (!movers) return UNMARKED;
    const text = markText(movers, names);
    return { cls: " last-move", text, attrs: { "data-last-move": text, "aria-description": text } };
  };
}

/** An element's own title, with the mark's words after it when marked. */
export function withMark(title: string | undefined, m: Mark): string | undefined {
  if (!m.text) return title;
  return title ? `${title} — ${m.text}` : m.text;
}

// Above the board, so short: the whole log is below it.
const SUMMARY_LINES = 10;

/** The other seats' log entries since the player's last move, shown while it is his turn. */
export function SinceYourMove({ track, myTurn }: { track: MoveTrack | null | undefined; myTurn: boolean }) {
  const entries = myTurn ? sinceLastMove(track) : [];
  if (entries.length === 0) return null;
  const { earlier, shown } = summaryLines(entries, SUMMARY_LINES);
  return (
    <section class="since-last-move" data-testid="since-last-move" aria-live="polite">
      <h4>Since your last move</h4>
      <ul>
        {earlier > 0 && <li class="muted" data-testid="since-earlier">{earlier} earlier {earlier === 1 ? "entry" : "entries"} in the log</li>}
        {shown.map(({ entry }) => <li key={int64String(entry.seq)} data-seq={int64String(entry.seq)}><Txt text={entry.text} /></li>)}
      </ul>
    </section>
  );
}
