// The table's log (Table.log), newest first, each entry put into words with the game's catalogue.
import { Component } from "preact";
import { int64String, toNumber, type LogEntry } from "../table";
import { Txt } from "./TextRender";

/** The entries to show, newest first (the view keeps them oldest first). */
export function logLines(log: readonly LogEntry[], limit: number): LogEntry[] {
  return log.slice(Math.max(0, log.length - limit)).reverse();
}

// One line re-renders only when its entry is another object: views are copy-on-write, so an
// entry the latest diff did not touch is the same object and a long log costs one new line per
// entry appended. (Names and catalogue come through the text context, which re-renders on its
// own when they change.)
class LogLine extends Component<{ entry: LogEntry }> {
  shouldComponentUpdate(next: { entry: LogEntry }): boolean {
    return next.entry !== this.props.entry;
  }

  render() {
    const e = this.props.entry;
    // Numbered by the entry's place in the whole game: a viewer may not read every entry and
    // old ones are dropped, so the list's own count would be wrong.
    return <li value={toNumber(e.seq) + 1} data-seq={int64String(e.seq)}><Txt text={e.text} /></li>;
  }
}

export function GameLog({ log, limit = 100, title = "Game log", open = true, testid = "core-log", class: cls }: {
  log: readonly LogEntry[]; limit?: number; title?: string; open?: boolean; testid?: string; class?: string;
}) {
  const lines = logLines(log, limit);
  return (
    <details class={`game-log ${cls ?? ""}`} open={open} data-testid={testid}>
      <summary>{title}</summary>
      {lines.length === 0 ? <p class="muted small">Nothing has happened yet.</p> : (
        <ol reversed>
          {lines.map((e) => <LogLine key={int64String(e.seq)} entry={e} />)}
        </ol>
      )}
    </details>
  );
}
