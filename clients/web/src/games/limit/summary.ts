// What the automatic phases did, read back from the core's log: the social phase (or the final
// resilience test) as one row per nation, and the hits other nations' cards landed on the viewer.
// The engine runs those phases in one go, so the log is the only place their effects are spelled
// out; these pure functions gather them for a panel the player reads at their own pace (tested
// in test/limit_summary.test.ts).
import { argCase, int64String, toNumber, type Arg, type LogEntry, type Text } from "../../table";

export interface NationPhaseRow {
  seat: number;
  fed: number;
  /** Population ranks left unfed (famine). */
  famine: number;
  consumed: number;
  /** Ranks of consumption not served (industrial shortage). */
  shortage: number;
  taxes: number;
  renewable: number;
  industrial: number;
  military: number;
  fossilUsed: number;
  pollution: number;
  /** The productions that lacked fossil, as the log words them (null: not worded). */
  fossilShortages: (Text | null)[];
  /** Intensive agriculture cards removed for want of fossil, named as the log names them. */
  agricultureRemoved: (Text | null)[];
  boom: number;
  boomed: boolean;
  revolt: boolean;
  revoltMilitary: number;
  revoltPaid: number;
  /** Standards of living to lower for want of military in a revolt. */
  revoltShortage: number;
  /** The net change of disorder over the phase (every change is logged with its cause). */
  disorder: number;
  /** Disorder before the phase's first change and after its last (null: it did not change). */
  disorderFrom: number | null;
  disorderTo: number | null;
  /** Each change, in order, with its cause as the log words it. */
  disorderChanges: DisorderChange[];
  /** Standards of living raised or lowered during the phase, in order. */
  classChanges: ClassChange[];
}

export interface DisorderChange {
  from: number;
  to: number;
  cause: Text | null;
}

export interface ClassChange {
  /** The class as the log names it ("Class A"). */
  cls: Text | null;
  /** The standard of living it moved to. */
  level: number;
  up: boolean;
}

export interface PhaseSummary {
  kind: "social" | "resilience";
  /** Seq of the entry that opened the phase: tells phases apart once the log is trimmed. */
  startSeq: string;
  /** The generation the phase closes; 0 when the log no longer tells it. */
  generation: number;
  /** Whether the log shows the phase over (the next generation, or the end of the game). */
  complete: boolean;
  rows: NationPhaseRow[];
  /** Crises and the event card, in the log's words. */
  world: Text[];
}

const P = "limit.log.";
const STARTS = new Set([`${P}social_phase`, `${P}resilience`]);
const WORLD = new Set([`${P}financial_crisis`, `${P}ecological_crisis`, `${P}military_crisis`, `${P}event`, `${P}bank_empty`]);

function seq(e: LogEntry): number {
  return toNumber(e.seq);
}

function arg(t: Text, i: number): Arg | undefined {
  return t.args?.[i];
}

function num(t: Text, i: number): number {
  const a = arg(t, i);
  return argCase(a) === "number" ? toNumber(a!.number) : 0;
}

function seatArg(t: Text, i: number): number | null {
  const a = arg(t, i);
  return argCase(a) === "seat" ? a!.seat ?? 0 : null;
}

function textArg(t: Text, i: number): Text | null {
  const a = arg(t, i);
  return argCase(a) === "text" && a!.text ? a!.text : null;
}

/** What tells an argument apart: a phrase's key (a card is named by its template), or a name. */
function argKey(t: Text, i: number): string {
  const a = arg(t, i);
  const c = argCase(a);
  return c === "text" ? a!.text?.key ?? "" : c === "name" ? a!.name ?? "" : "";
}

function emptyRow(seat: number): NationPhaseRow {
  return {
    seat, fed: 0, famine: 0, consumed: 0, shortage: 0, taxes: 0, renewable: 0, industrial: 0, military: 0,
    fossilUsed: 0, pollution: 0, fossilShortages: [], agricultureRemoved: [], boom: 0, boomed: false, revolt: false,
    revoltMilitary: 0, revoltPaid: 0, revoltShortage: 0, disorder: 0, disorderFrom: null, disorderTo: null,
    disorderChanges: [], classChanges: [],
  };
}

/**
 * The latest social phase (or resilience test) the entries show, or null when they show none.
 * `seats`: the nations to list even when the log names them not (yet); `generation`: the view's,
 * used only when no generation entry around the phase is left in the log.
 */
export function latestPhaseSummary(log: readonly LogEntry[], seats: readonly number[] = [], generation = 0): PhaseSummary | null {
  const entries = [...log].filter((e) => e?.text).sort((a, b) => seq(a) - seq(b));
  let start = -1;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (STARTS.has(entries[i].text!.key)) { start = i; break; }
  }
  if (start < 0) return null;
  const opener = entries[start].text!;
  const kind = opener.key === `${P}resilience` ? "resilience" : "social";
  let gen = kind === "resilience" ? num(opener, 0) : 0;
  if (!gen) {
    for (let i = start - 1; i >= 0 && !gen; i--) if (entries[i].text!.key === `${P}generation`) gen = num(entries[i].text!, 0);
  }
  const rows = new Map<number, NationPhaseRow>();
  for (const s of seats) rows.set(s, emptyRow(s));
  const row = (t: Text): NationPhaseRow | null => {
    const s = seatArg(t, 0);
    if (s == null) return null;
    let r = rows.get(s);
    if (!r) rows.set(s, (r = emptyRow(s)));
    return r;
  };
  const world: Text[] = [];
  let complete = false;
  for (let i = start + 1; i < entries.length; i++) {
    const t = entries[i].text!;
    const key = t.key;
    if (key === `${P}generation`) {
      // The next generation's opening line closes the phase; it tells the generation too when
      // the line before the phase was trimmed away.
      if (!gen) gen = num(t, 0) - 1;
      complete = true;
      break;
    }
    if (key === `${P}game_over`) { complete = true; break; }
    if (WORLD.has(key)) { world.push(t); continue; }
    if (!key.startsWith(P)) continue;
    const r = row(t);
    if (!r) continue;
    switch (key) {
      case `${P}feeds`: r.fed += num(t, 1); break;
      case `${P}famine`: r.famine += num(t, 1); break;
      case `${P}consumes`: r.consumed += num(t, 1); break;
      case `${P}industrial_shortage`: r.shortage += num(t, 1); break;
      case `${P}disorder`:
      case `${P}disorder_past_top`: {
        const from = num(t, 1), to = num(t, 2);
        if (r.disorderFrom == null) r.disorderFrom = from;
        r.disorderTo = to;
        r.disorder += to - from;
        r.disorderChanges.push({ from, to, cause: textArg(t, 3) });
        break;
      }
      case `${P}class_up`:
      case `${P}class_down`:
        r.classChanges.push({ cls: textArg(t, 1), level: num(t, 2), up: key === `${P}class_up` });
        break;
      case `${P}taxes`: r.taxes += num(t, 1); break;
      case `${P}produces`:
        r.renewable += num(t, 1); r.industrial += num(t, 2); r.military += num(t, 3);
        r.fossilUsed += num(t, 4); r.pollution += num(t, 5);
        break;
      case `${P}fossil_shortage`: r.fossilShortages.push(textArg(t, 1)); break;
      case `${P}agriculture_removed`: r.agricultureRemoved.push(textArg(t, 1)); break;
      case `${P}revolt_spends`: r.revoltMilitary += num(t, 1); break;
      case `${P}revolt_shortage`: r.revoltShortage += num(t, 1); break;
      case `${P}revolt_pays`: r.revoltPaid += num(t, 1); break;
      case `${P}revolt`: r.revolt = true; break;
      case `${P}boom`: r.boomed = true; r.boom += num(t, 1); break;
      default: break;
    }
  }
  if (!gen) gen = generation;
  return {
    kind, startSeq: int64String(entries[start].seq), generation: gen, complete,
    rows: [...rows.values()].sort((a, b) => a.seat - b.seat), world,
  };
}

/**
 * The summary to keep: a later phase replaces the kept one, and the kept one stays when the log
 * no longer holds its opening entry (trimmed). Only a log whose newest entry is older than the
 * kept phase (a replay stepped back) brings an older phase back.
 */
export function keptSummary(kept: PhaseSummary | null, fresh: PhaseSummary | null, lastSeq: number): PhaseSummary | null {
  if (!kept) return fresh;
  if (lastSeq < Number(kept.startSeq)) return fresh;
  if (!fresh) return kept;
  const k = Number(kept.startSeq), f = Number(fresh.startSeq);
  if (f > k) return fresh;
  if (f < k) return kept;
  // The same phase: the fresh one has every entry the log holds now.
  if (!fresh.generation && kept.generation) return { ...fresh, generation: kept.generation };
  return fresh;
}

export function phaseTitle(s: PhaseSummary): string {
  const gen = s.generation > 0 ? `, generation ${s.generation}` : "";
  return s.kind === "resilience" ? `Resilience test${gen}` : `Social phase${gen}`;
}

// ----- hits on the viewer -----

export interface HitNotice {
  seq: string;
  /** Tells a hit apart across games played in one room (their entries' numbers start over). */
  ack: string;
  attacker: Arg;
  card: Arg;
  changes: Arg;
}

const HIT = `${P}hit`;

export function hitAckKey(seqText: string, t: Text): string {
  return `${seqText}:${seatArg(t, 0) ?? ""}:${argKey(t, 1)}`;
}

/**
 * The hits on `viewer` not yet acknowledged, newest first, at most `max`: those kept from earlier
 * logs and those of `log`. A spectator (viewer < 0) is hit by nothing.
 */
export function pendingHits(kept: readonly HitNotice[], log: readonly LogEntry[], viewer: number,
  acked: ReadonlySet<string>, max = 5): HitNotice[] {
  if (viewer < 0) return [];
  const bySeq = new Map<string, HitNotice>();
  for (const h of kept) bySeq.set(h.seq, h);
  for (const e of log) {
    const t = e?.text;
    if (!t || t.key !== HIT || seatArg(t, 2) !== viewer) continue;
    const s = int64String(e.seq);
    if (bySeq.has(s)) continue;
    bySeq.set(s, { seq: s, ack: hitAckKey(s, t), attacker: t.args[0], card: t.args[1], changes: t.args[3] ?? { name: "" } });
  }
  return [...bySeq.values()].filter((h) => !acked.has(h.ack))
    .sort((a, b) => Number(b.seq) - Number(a.seq)).slice(0, max);
}

/** The words of a notice: the viewer stands as "you", the rest as the log put it (the game's
 * catalogue has the template, next to the log entry's). */
export const HIT_YOU_KEY = "limit.notice.hit_you";

export function hitNoticeText(h: HitNotice): Text {
  return { key: HIT_YOU_KEY, args: [h.attacker, h.card, h.changes] };
}
