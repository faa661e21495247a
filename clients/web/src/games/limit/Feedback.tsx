// The board's account of what happened without the player: the last social phase (or the final
// resilience test) as a table that waits until dismissed, and the hits other nations' cards
// landed on the viewer. Both are gathered from the core's log by ./summary.ts.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { LogEntry } from "../../table";
import { toNumber } from "../../table";
import { seatColor, useSelfMark } from "../../ui/common";
import { Txt } from "../../ui/TextRender";
import { playerName } from "./model";
import {
  hitNoticeText, keptSummary, latestPhaseSummary, pendingHits, phaseTitle,
  type HitNotice, type NationPhaseRow, type PhaseSummary,
} from "./summary";
import type { ComponentChildren } from "preact";

// Dismissals survive a reload of the tab, per room page and seat; storage may be refused
// (private modes), and then they only last as long as the board.
function storageKey(what: string, seat: number): string {
  const where = typeof location === "undefined" ? "" : location.hash || location.pathname;
  return `plateau.limit.${what}.${where}.${seat}`;
}

function load(key: string): string[] {
  try {
    const raw = typeof sessionStorage === "undefined" ? null : sessionStorage.getItem(key);
    const v = raw ? JSON.parse(raw) : [];
    return Array.isArray(v) ? v.filter((x) => typeof x === "string") : [];
  } catch {
    return [];
  }
}

function save(key: string, values: string[]): void {
  try {
    if (typeof sessionStorage !== "undefined") sessionStorage.setItem(key, JSON.stringify(values));
  } catch {
    // Storage refused: the dismissal holds for this board only.
  }
}

// Enough to cover every hit a game can hold; the oldest are forgotten first.
const MAX_ACKS = 60;

// The entry's number alone could name a phase of an earlier game in the same room.
function summaryId(s: PhaseSummary): string {
  return `${s.kind}:${s.startSeq}:${s.generation}`;
}

/** The kept phase summary and whether the viewer dismissed it. */
export function usePhaseSummary(log: readonly LogEntry[], seats: readonly number[], generation: number, seat: number) {
  const seatsKey = seats.join(",");
  const fresh = useMemo(() => latestPhaseSummary(log, seats, generation), [log, seatsKey, generation]);
  const lastSeq = log.length ? toNumber(log[log.length - 1].seq) : 0;
  // Kept across renders so the panel outlives the trimming of its entries from the log.
  const kept = useRef<PhaseSummary | null>(null);
  const summary = useMemo(() => (kept.current = keptSummary(kept.current, fresh, lastSeq)), [fresh, lastSeq]);
  const key = storageKey("summary", seat);
  const [dismissed, setDismissed] = useState<string | null>(() => load(key)[0] ?? null);
  const dismiss = (s: PhaseSummary) => {
    setDismissed(summaryId(s));
    save(key, [summaryId(s)]);
  };
  return { summary: summary && summaryId(summary) !== dismissed ? summary : null, dismiss };
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function orderCell(r: NationPhaseRow): preact.JSX.Element | string {
  if (r.revolt) {
    const cost = r.revoltPaid > 0 ? `paid ${r.revoltPaid} $` : `spent ${r.revoltMilitary} M`;
    return (
      <span class="lm-sum-bad">Revolt: {cost}{r.revoltShortage > 0 ? `, ${plural(r.revoltShortage, "standard", "standards")} to lower` : ""}</span>
    );
  }
  if (r.boomed) return <span class="lm-sum-good">Boom: +{r.boom} $</span>;
  return "—";
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

// Where disorder went and why: "5 → 7 (class struggle +2)", each change with the log's cause.
function disorderCell(r: NationPhaseRow): preact.JSX.Element | string {
  if (r.disorderFrom == null || r.disorderTo == null) return "no change";
  const causes = r.disorderChanges.map((c, i) => (
    <span key={i}>{i > 0 ? ", " : ""}{c.cause ? <Txt text={c.cause} /> : "change"} {signed(c.to - c.from)}</span>
  ));
  return <>{r.disorderFrom} → {r.disorderTo} <small data-testid="disorder-causes">({causes})</small></>;
}

function SummaryRow({ r, names, you }: { r: NationPhaseRow; names: string[]; you: boolean }) {
  const mark = useSelfMark();
  const notes = [
    ...r.fossilShortages.map((t, i) => <span key={`f${i}`} class="lm-sum-bad">fossil shortage{t ? <> ({<Txt text={t} />})</> : null}</span>),
    ...r.agricultureRemoved.map((c, i) => <span key={`a${i}`} class="lm-sum-bad">removed {c ? <Txt text={c} /> : "a card"}</span>),
    ...r.classChanges.map((c, i) => (
      <span key={`c${i}`} data-testid="class-change" class={c.up ? "lm-sum-good" : "lm-sum-bad"}>
        {c.cls ? <Txt text={c.cls} /> : "a class"} {c.up ? "up" : "down"} to {c.level}
      </span>
    )),
  ];
  return (
    <tr data-testid="phase-summary-row" data-seat={r.seat} class={you ? "you" : ""}>
      <th scope="row" style={{ color: seatColor(r.seat) }}>{playerName(names, r.seat)}{you && <small data-testid="self-mark"> ({mark})</small>}</th>
      <td data-col="fed">{r.fed} R{r.famine > 0 && <span class="lm-sum-bad"> · famine: {plural(r.famine, "rank", "ranks")} unfed</span>}</td>
      <td data-col="consumed">{r.consumed} I{r.shortage > 0 && <span class="lm-sum-bad"> · shortage: {plural(r.shortage, "rank", "ranks")}</span>}</td>
      <td data-col="produced">R +{r.renewable} · I +{r.industrial} · M +{r.military}</td>
      <td data-col="fossil">F −{r.fossilUsed} · P +{r.pollution}</td>
      <td data-col="taxes">{r.taxes > 0 ? `+${r.taxes} $` : "—"}</td>
      <td data-col="order">{orderCell(r)}</td>
      <td data-col="disorder" class={r.disorder > 0 ? "lm-sum-bad" : ""}>{disorderCell(r)}</td>
      <td data-col="notes">{notes.length ? notes.reduce<ComponentChildren[]>((out, n, i) => (i ? [...out, ", ", n] : [n]), []) : ""}</td>
    </tr>
  );
}

export function PhaseSummaryPanel({ summary, names, seat, onDismiss }: {
  summary: PhaseSummary; names: string[]; seat: number; onDismiss: () => void;
}) {
  return (
    <section class="lm-phase-summary" data-testid="phase-summary" data-kind={summary.kind} data-start-seq={summary.startSeq}
      data-complete={summary.complete ? "true" : "false"} aria-label={phaseTitle(summary)}>
      <header>
        <h4>{phaseTitle(summary)}{!summary.complete && <small class="muted"> — still running</small>}</h4>
        <button type="button" class="btn small" data-testid="phase-summary-dismiss" onClick={onDismiss}>Got it</button>
      </header>
      <div class="lm-sum-scroll">
        <table class="lm-sum-table">
          <thead>
            <tr>
              <th scope="col">Nation</th><th scope="col">Fed</th><th scope="col">Consumed</th><th scope="col">Produced</th>
              <th scope="col">Fossil · pollution</th><th scope="col">Taxes</th><th scope="col">Public order</th>
              <th scope="col">Disorder</th><th scope="col">Notes</th>
            </tr>
          </thead>
          <tbody>
            {summary.rows.map((r) => <SummaryRow key={r.seat} r={r} names={names} you={r.seat === seat} />)}
          </tbody>
        </table>
      </div>
      {summary.world.length > 0 && (
        <ul class="lm-sum-world" data-testid="phase-summary-world">
          {summary.world.map((t, i) => <li key={i}><Txt text={t} /></li>)}
        </ul>
      )}
    </section>
  );
}

/** The hits on the viewer, kept across log trims until acknowledged. */
export function useHitNotices(log: readonly LogEntry[], seat: number, enabled: boolean) {
  const key = storageKey("hits", seat);
  const [acked, setAcked] = useState<string[]>(() => load(key));
  const [kept, setKept] = useState<HitNotice[]>([]);
  const ackSet = useMemo(() => new Set(acked), [acked]);
  const hits = useMemo(() => (enabled ? pendingHits(kept, log, seat, ackSet) : []), [kept, log, seat, ackSet, enabled]);
  const sig = hits.map((h) => h.seq).join(",");
  useEffect(() => {
    if (sig !== kept.map((h) => h.seq).join(",")) setKept(hits);
  }, [sig]);
  const acknowledge = (h: HitNotice) => {
    const next = [...acked.filter((a) => a !== h.ack), h.ack].slice(-MAX_ACKS);
    setAcked(next);
    save(key, next);
  };
  return { hits, acknowledge };
}

export function HitNotices({ hits, onDismiss }: { hits: HitNotice[]; onDismiss: (h: HitNotice) => void }) {
  if (!hits.length) return null;
  return (
    <div class="lm-hits">
      {hits.map((h) => (
        <div key={h.seq} class="lm-hit" data-testid="hit-notice" role="status" data-seq={h.seq}>
          <span class="lm-ico">🎯</span>
          <span class="lm-hit-text"><Txt text={hitNoticeText(h)} /></span>
          <button type="button" class="btn small" data-testid="hit-notice-dismiss" aria-label="Dismiss this notice"
            onClick={() => onDismiss(h)}>OK</button>
        </div>
      ))}
    </div>
  );
}
