import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { fromWire, member, request } from "../client";
import { gameUI } from "../games/registry";
import { type } from "../proto";
import { moveRows, rowIndexForStep, scrollToShow, type ReplayMove } from "../replayMoves";
import { navigate, type Route } from "../router";
import { gameInfo, gameTexts, toast } from "../store";
import { currentPrompt, tableOf } from "../table";
import { originNote } from "../timers";
import { downloadBytes, Panel, Ranking, ReplayViewpoint, seatColor, Spinner } from "./common";
import { PromptPanel } from "./PromptPanel";
import { renderTextParts, TextProvider, useTextScopeFor, type TextPart } from "./TextRender";
import type { ReplaySummary } from "./Replays";
import "./replay.css";

interface ReplayStep {
  summary: ReplaySummary; step: number; seat: number; view_type: string; view: object;
  last_action: { seat: number; text: string; origin: number } | null;
}

const EMPTY_SUMMARY: ReplaySummary = {
  game_id: "", game: "", finished_unix_ms: 0, results: [], steps: 0, is_private: false, replay_token: "",
};

/** Words in runs (renderTextParts), each seat in its colour as <Txt> writes them. */
function Words({ parts }: { parts: readonly TextPart[] }) {
  return (
    <>
      {parts.map((p, i) => p.seat == null ? p.text : (
        <span key={i} class={p.you ? "txt-seat txt-you" : "txt-seat"} style={{ color: seatColor(p.seat) }}>{p.text}</span>
      ))}
    </>
  );
}

export function ReplayViewer({ route }: { route: Extract<Route, { page: "replay" }> }) {
  const [data, setData] = useState<ReplayStep | null>(null);
  const [error, setError] = useState("");
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);
  const step = route.step ?? 0;
  const seat = route.seat;
  // Every move in words, as the seat reads them (a seat reads its own private entries): the list
  // is asked for once per seat and kept, since it costs the server a replay of the whole game;
  // stepping asks for one position only.
  const movesKey = `${route.gameId}|${seat}`;
  const [moves, setMoves] = useState<{ key: string; list: ReplayMove[] } | null>(null);
  // The key of the list held or on its way, so that quick steps do not ask for it again.
  const movesFor = useRef("");

  useEffect(() => {
    const n = ++seq.current;
    const key = movesKey;
    const withMoves = movesFor.current !== key;
    if (withMoves) movesFor.current = key;
    setLoading(true);
    request({ get_replay: { game_id: route.gameId, step, seat, replay_token: route.token ?? "", with_moves: withMoves } })
      .then((reply) => {
        const r = member(reply, "replay");
        // The list does not depend on the step: kept even when a later step overtook this reply.
        if (withMoves && movesFor.current === key) setMoves({ key, list: r.moves ?? [] });
        if (n !== seq.current) return;
        const view = type(r.view_type).decode(r.view);
        fromWire(view, r.view_type);
        setData({
          summary: r.summary ?? EMPTY_SUMMARY, step: r.step, seat: r.seat, view_type: r.view_type,
          view,
          last_action: r.last_action ? { seat: r.last_action.seat, text: r.last_action.text, origin: r.last_action.origin } : null,
        });
        setError("");
      })
      .catch((e) => {
        // Asked again with the next request.
        if (withMoves && movesFor.current === key) movesFor.current = "";
        if (n === seq.current) setError((e as Error).message);
      })
      .finally(() => n === seq.current && setLoading(false));
  }, [route.gameId, step, seat, route.token]);

  const total = data?.summary.steps ?? 0;
  // A player of a private game may come without the token (it opens to them anyway); the
  // server's copy goes into the address so that the link they copy opens it for friends too.
  const token = route.token || data?.summary.replay_token || undefined;
  // Said, not silently corrected: a step asked for outside the game (a typed number, an edited
  // link) shows the nearest one with a note.
  const [bound, setBound] = useState("");
  const boundNote = (asked: number) =>
    asked > total ? `This game has ${total} moves: move ${asked} does not exist, here is the last one.`
      : asked < 0 ? "Moves start at 0 (the deal): here is the start." : "";
  const go = (to: number, toSeat = seat) => {
    const clamped = Math.max(0, Math.min(total, Math.round(to)));
    setBound(boundNote(Math.round(to)));
    navigate({ page: "replay", gameId: route.gameId, step: clamped, seat: toSeat, token }, true);
  };
  useEffect(() => {
    if (!data || route.step == null) return;
    const note = boundNote(route.step);
    if (!note) return;
    setBound(note);
    navigate({ ...route, step: Math.max(0, Math.min(total, route.step)), token }, true);
  }, [data, route.step]);
  useEffect(() => {
    if (token && !route.token) navigate({ ...route, token }, true);
  }, [token, route.token]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
      if (e.key === "ArrowRight") { e.preventDefault(); go(step + 1); }
      else if (e.key === "ArrowLeft") { e.preventDefault(); go(step - 1); }
      else if (e.key === "Home") { e.preventDefault(); go(0); }
      else if (e.key === "End") { e.preventDefault(); go(total); }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const exportFile = async () => {
    try {
      const reply = await request({ export_replay: { game_id: route.gameId, replay_token: token ?? "" } });
      downloadBytes(member(reply, "replay_export").record, `${data?.summary.game ?? "game"}-${route.gameId}.plateau`);
    } catch (e) {
      toast((e as Error).message);
    }
  };

  const names: string[] = [];
  for (const r of data?.summary.results ?? []) names[r.seat] = r.name;
  const ui = data ? gameUI(data.summary.game) : undefined;
  // Whoever opens a replay may not have played: no seat's words are marked as the reader's own.
  const scope = useTextScopeFor(data ? gameTexts(data.summary.game) : undefined, names, -1);
  // A list asked for another seat is not shown while this seat's is on its way: the words differ.
  const list = moves?.key === movesKey ? moves.list : null;
  const rows = useMemo(() => list && moveRows(list, (t) => renderTextParts(t, scope)), [list, scope]);
  const shown = data?.step ?? -1;
  const currentIndex = rows ? rowIndexForStep(rows, shown) : -1;
  const current = rows?.[currentIndex];
  const listRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const box = listRef.current;
    const row = box?.querySelector<HTMLElement>("[aria-current=step]");
    if (!box || !row) return;
    box.scrollTop = scrollToShow(row.offsetTop, row.offsetHeight, box.scrollTop, box.clientHeight);
  }, [currentIndex, rows]);

  if (error && !data) {
    return <Panel title="Replay unavailable" class="narrow"><p class="form-error">{error}</p><a class="btn" href="#/replays">All replays</a></Panel>;
  }
  if (!data) return <Spinner label="Loading the replay…" />;
  const seats = [...data.summary.results].sort((a, b) => a.seat - b.seat);
  // What the seat was asked at this step, when its board does not show the question itself.
  const prompt = currentPrompt(tableOf(data.view), data.seat);
  const asked = prompt && ui && !ui.drawsPrompt?.(prompt, data.view) ? prompt : null;
  // A move the seat's player did not make (the clock, a stand-in bot, a claimed win) says so.
  const origin = originNote(data.last_action?.origin);
  return (
    <div class="replay" data-testid="replay-viewer">
      <div class="room-head">
        <div>
          <h1>Replay · {gameInfo(data.summary.game)?.title ?? data.summary.game}
            {data.summary.is_private && <span class="chip" data-testid="replay-private" title="Only its players and whoever has this link can watch it"> 🔒 private</span>}
          </h1>
          <p class="muted">{names.filter(Boolean).join(" vs ")}</p>
        </div>
        <div class="row-actions">
          <button class="btn ghost" onClick={() => {
            void navigator.clipboard?.writeText(location.href).then(() => toast("Link copied", "info"), () => {});
          }}>🔗 Copy link</button>
          <button class="btn" onClick={() => void exportFile()} data-testid="replay-export">⬇ Export</button>
        </div>
      </div>
      <div class="replay-bar panel">
        <div class="replay-buttons">
          <button class="btn icon" onClick={() => go(0)} disabled={step <= 0} title="First (Home)" data-testid="replay-first">⏮</button>
          <button class="btn icon" onClick={() => go(step - 1)} disabled={step <= 0} title="Back (←)" data-testid="replay-prev">◀</button>
          <span class="replay-step" data-testid="replay-step" data-step={data.step} data-total={total}>
            Move <b>{data.step}</b> / {total}
          </span>
          <button class="btn icon" onClick={() => go(step + 1)} disabled={step >= total} title="Forward (→)" data-testid="replay-next">▶</button>
          <button class="btn icon" onClick={() => go(total)} disabled={step >= total} title="Last (End)" data-testid="replay-last">⏭</button>
        </div>
        <input type="range" min={0} max={total} value={step} class="replay-slider" data-testid="replay-slider"
          onInput={(e) => go(Number((e.target as HTMLInputElement).value))} aria-label="Move" />
        {bound && <p class="replay-bound muted small" data-testid="replay-bound">{bound}</p>}
        <label class="replay-jump">Go to
          <input type="number" min={0} max={total} value={step} data-testid="replay-step-input"
            onChange={(e) => go(Number((e.target as HTMLInputElement).value))} />
        </label>
        <label class="replay-seat">Seen by
          <select value={String(seat)} data-testid="replay-seat" onChange={(e) => go(step, Number((e.target as HTMLSelectElement).value))}>
            <option value="-1">Spectator (everything public)</option>
            {seats.map((r) => <option key={r.seat} value={String(r.seat)}>{r.name}</option>)}
          </select>
        </label>
        {loading && <span class="spinner small" />}
      </div>
      {/* The action as the server writes it stays a tooltip (what a bug report quotes); the
          line itself is the move in words once the list has come. */}
      <p class="last-action" data-testid="replay-last-action" title={data.last_action?.text || undefined}>
        {data.step > 0
          ? <>Move {data.step}: {current ? <Words parts={current.parts} />
              : <>played by <b>{names[data.last_action?.seat ?? -1] ?? "—"}</b></>}
            {origin && <span class="muted" data-testid="replay-origin"> ({origin})</span>}</>
          : <>Start of the game.{current && current.parts.length > 0 && <> <Words parts={current.parts} /></>}</>}
      </p>
      <div class="room-grid">
        <div class="room-main">
          {ui ? (
            <ReplayViewpoint.Provider value={true}>
              <TextProvider scope={scope}>
                <ui.Board view={data.view} seat={data.seat} names={names} acting={[]} gameOver={data.step >= total}
                  readOnly={true} gameData={gameInfo(data.summary.game)?.data} />
                {asked && <PromptPanel prompt={asked} onAnswer={() => {}} readOnly />}
              </TextProvider>
            </ReplayViewpoint.Provider>
          ) : <p class="form-error">This client cannot show {data.summary.game} games.</p>}
        </div>
        <aside class="room-side">
          <Panel title="Moves" class="replay-moves-panel">
            {!rows ? <p class="muted small">{error && !movesFor.current ? "The moves could not be loaded." : "Loading the moves…"}</p>
              : rows.length === 0 ? <p class="muted small" data-testid="replay-moves">No moves were played.</p> : (
                <ol class="replay-moves" data-testid="replay-moves" data-seat={seat} ref={listRef} aria-label="Moves of the game">
                  {rows.map((r, i) => {
                    const here = i === currentIndex;
                    return (
                      <li key={r.step}>
                        <button type="button" class={here ? "replay-move current" : "replay-move"} data-testid="replay-move"
                          data-step={r.step} aria-current={here ? "step" : undefined} onClick={() => go(r.step)}>
                          <span class="replay-move-step">Step {r.step}{r.step === 0 && " (set-up)"}</span>
                          {r.tag && <span class="replay-move-tag" data-testid="replay-move-tag">{r.tag}</span>}
                          <span class="replay-move-words">{r.parts.length > 0 ? <Words parts={r.parts} /> : "…"}</span>
                        </button>
                      </li>
                    );
                  })}
                </ol>
              )}
          </Panel>
          <Panel title="Final result"><Ranking results={data.summary.results} unit={ui?.scoreUnit} /></Panel>
        </aside>
      </div>
    </div>
  );
}
