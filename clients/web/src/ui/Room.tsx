import { useEffect, useRef, useState } from "preact/hooks";
import { waitsOnMe } from "../attention";
import { fetchResults, joinRoom, leaveRoom, peekRoom, ready, request, RequestError, spectate, submitAction, type RequestBody, type RoomBy } from "../client";
import { gameUI } from "../games/registry";
import { href, inviteRoute, navigate, watchRoute } from "../router";
import {
  BOT_LEVEL_NAME, gameInfo, gameTexts, LeaveMode, Presence, ReplaceKind, roomState, RoomStatus, state, TimerMode, toast,
  useStore, type RoomInfo, type RoomState, type SeatClock, type SeatInfo,
} from "../store";
import { currentPrompt, tableOf } from "../table";
import { formatClock, offlineMs, presenceLabel, remainingMs, replaceable, roomTimerLabel, standIn } from "../timers";
import { BotLevelPicker, preferredBotLevel } from "./BotLevel";
import { Dot, freeSeatsText, Panel, Ranking, Spinner, timeAgo } from "./common";
import { chatMark, loadChatMark, phoneStatus, saveChatMark, scrollToAction, unreadCount, usePhone } from "./phone";
import { answerSender, PromptPanel, ResignButton } from "./PromptPanel";
import { ActionError, useSubmit } from "./submit";
import { LastMoveProvider, SinceYourMove } from "./LastMove";
import { UndoButton } from "./UndoButton";
import { TextProvider, useTextScopeFor } from "./TextRender";

function shareLink(r: RoomState, watch = false): string {
  const info = r.info!;
  return `${location.origin}${location.pathname}${href(watch ? watchRoute(info) : inviteRoute(info))}`;
}

/** A request from a button: busy while it runs, a refusal shown as a toast. */
function useRequest(): [boolean, (body: RequestBody) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const send = async (body: RequestBody) => {
    setBusy(true);
    try {
      await request(body);
    } catch (e) {
      toast((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return [busy, send];
}

function CopyRow({ link, testid }: { link: string; testid: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      const i = document.querySelector<HTMLInputElement>(`[data-testid=${testid}]`);
      i?.select();
      document.execCommand?.("copy");
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1800);
  };
  return (
    <div class="copy-row">
      <input readOnly value={link} data-testid={testid} onFocus={(e) => (e.target as HTMLInputElement).select()} />
      <button class="btn" onClick={() => void copy()} data-testid={`copy-${testid}`}>{copied ? "Copied ✓" : "Copy"}</button>
    </div>
  );
}

function ShareBox({ r, folded }: { r: RoomState; folded?: boolean }) {
  // A spectator hands on watching only: the seats are for whoever the players invite.
  const watcher = r.info!.your_seat < 0;
  const title = watcher ? "👁 Watch link" : r.info!.is_private ? "🔒 Invite link" : "🌍 Room link";
  const body = watcher ? (
    <>
      <p class="muted small">To let someone watch this table:</p>
      <CopyRow link={shareLink(r, true)} testid="watch-link" />
    </>
  ) : (
    <>
      <p class="muted small">{r.info!.is_private ? "This table is private: only people with the link can join." : "Anyone can find this table in the lobby."}</p>
      <CopyRow link={shareLink(r)} testid="share-link" />
      <p class="muted small">To watch only (no seat offered):</p>
      <CopyRow link={shareLink(r, true)} testid="watch-link" />
      {r.info!.is_private && r.info!.join_code && <p class="muted small">Code: <code data-testid="join-code">{r.info!.join_code}</code></p>}
    </>
  );
  // On a phone, once the game runs, the links are rarely wanted and would push the rest down.
  if (folded) {
    return (
      <details class="panel share folded" data-testid="share-box">
        <summary><h2>{title}</h2></summary>
        {body}
      </details>
    );
  }
  return <Panel title={title} class="share">{body}</Panel>;
}

/** Re-renders every second while `on`: clocks count down and offline times grow between pushes. */
function useSecondTicks(on: boolean): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!on) return;
    const id = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(id);
  }, [on]);
}

function SeatClockBadge({ clock, mode, receivedAt, now }: { clock: SeatClock; mode: number; receivedAt: number; now: number }) {
  const left = remainingMs(clock, receivedAt, now);
  // A stopped clock only means something in clock mode: its bank. Per move, every turn starts full.
  if (!clock.running && mode !== TimerMode.CLOCK) return null;
  return (
    <span class={`seat-clock ${clock.running ? "running" : ""} ${clock.running && left < 10_000 ? "urgent" : ""}`}
      data-testid="seat-clock" data-running={clock.running ? "true" : "false"}
      title={clock.running ? "Time left for this decision" : "Time left in the bank"}>⏱ {formatClock(left)}</span>
  );
}

/** Another person's seat nobody is at: a bot may take it over, or, with two players, the asker wins. */
function ReplaceSeatActions({ r, seat }: { r: RoomState; seat: SeatInfo }) {
  const [busy, send] = useRequest();
  const [claiming, setClaiming] = useState(false);
  const replace = (kind: number) =>
    send({ replace_seat: { room_id: r.id, seat: seat.seat, kind } }).finally(() => setClaiming(false));
  if (claiming) {
    return (
      <div class="seat-replace">
        <span class="muted small">Win now? {seat.name} resigns and the game ends.</span>
        <button type="button" class="btn small danger" disabled={busy} data-testid={`claim-win-confirm-${seat.seat}`}
          onClick={() => void replace(ReplaceKind.CLAIM_WIN)}>Claim the win</button>
        <button type="button" class="btn small ghost" data-testid={`claim-win-cancel-${seat.seat}`}
          onClick={() => setClaiming(false)}>Wait</button>
      </div>
    );
  }
  return (
    <div class="seat-replace">
      {!seat.stand_in && (
        <button type="button" class="btn small" disabled={busy} data-testid={`replace-bot-${seat.seat}`}
          onClick={() => void replace(ReplaceKind.WITH_BOT)}>🤖 Hand to a bot</button>
      )}
      {r.info!.seats.length === 2 && (
        <button type="button" class="btn small ghost" disabled={busy} data-testid={`claim-win-${seat.seat}`}
          onClick={() => setClaiming(true)}>🏆 Claim the win</button>
      )}
    </div>
  );
}

function Seats({ r, compact }: { r: RoomState; compact?: boolean }) {
  const info = r.info!;
  const game = r.game;
  const waiting = info.status === RoomStatus.WAITING;
  const playing = info.status === RoomStatus.PLAYING;
  useSecondTicks(playing && info.seats.some((s) => s.clock?.running || s.presence === Presence.OFFLINE));
  const now = Date.now();
  const resigned = game ? tableOf(game.view).resigned : [];
  // The host fills free seats with bots (and takes them out) until the start.
  const seatsBots = waiting && !compact && info.host_player_id === state.session?.player_id;
  // The picker's choice shows in the Add bot buttons' titles at once.
  const [, setLevel] = useState(0);
  const refresh = (level: number) => setLevel(level);
  const bots = async (body: RequestBody) => {
    try {
      await request(body);
    } catch (e) {
      toast((e as Error).message);
    }
  };
  return (
    <>
    {seatsBots && info.seats.some((s) => !s.player_id) && <BotLevelPicker onChange={refresh} />}
    <ul class={`seats ${compact ? "compact" : ""}`} data-testid="seats">
      {info.seats.map((s) => {
        const host = s.player_id && s.player_id === info.host_player_id;
        const acting = game && !game.gameOver && game.acting.includes(s.seat);
        const bot = s.bot ? BOT_LEVEL_NAME[s.bot] ?? "bot" : "";
        const presence = presenceLabel(s, offlineMs(s, r.infoAt, now));
        const timeouts = s.clock?.timeouts ?? 0;
        return (
          <li key={s.seat} class={`seat ${s.player_id ? "" : "free"} ${s.seat === info.your_seat ? "you" : ""} ${acting ? "acting" : ""} ${bot ? "bot" : ""}`}
            data-testid="seat" data-bot={bot || undefined}>
            <Dot seat={s.seat} size={14} />
            <span class="seat-name">
              {s.player_id ? s.name : <em>Free seat</em>}
              {host && <span class="crown" title="Host">👑</span>}
              {s.seat === info.your_seat && <span class="you-tag">you</span>}
            </span>
            {bot && <span class="badge bot" title={`A bot the server plays (${bot})`}>🤖 {bot}</span>}
            {presence && (
              <span class={`badge ${s.presence === Presence.ONLINE ? "on" : "off"}`} data-testid="presence">{presence}</span>
            )}
            {s.stand_in ? (
              <span class="badge bot standin" data-testid="stand-in" title={`A bot (${BOT_LEVEL_NAME[s.stand_in] ?? "bot"}) plays this seat until its player takes it back`}>
                🤖 Bot plays for {s.name}
              </span>
            ) : null}
            {s.player_id && !bot && waiting && !host && (
              <span class={`badge ${s.ready ? "ready" : "notready"}`}>{s.ready ? "ready" : "not ready"}</span>
            )}
            {acting && <span class="badge turn">to play</span>}
            {playing && s.clock && <SeatClockBadge clock={s.clock} mode={info.timer?.mode ?? TimerMode.NONE} receivedAt={r.infoAt} now={now} />}
            {playing && timeouts > 0 && (
              <span class="badge warn" data-testid="timeouts" title="Times in a row this seat's time ran out">timeouts: {timeouts}</span>
            )}
            {seatsBots && !s.player_id && (
              <button type="button" class="btn small" data-testid={`add-bot-${s.seat}`}
                title={`A bot at the ${BOT_LEVEL_NAME[preferredBotLevel()]} level`}
                onClick={() => void bots({ add_bot: { room_id: r.id, seat: s.seat, level: preferredBotLevel() } })}>+ Add bot</button>
            )}
            {seatsBots && bot && (
              <button type="button" class="btn small" data-testid={`remove-bot-${s.seat}`}
                onClick={() => void bots({ remove_bot: { room_id: r.id, seat: s.seat } })}>Remove</button>
            )}
            {replaceable(info, s, resigned, r.infoAt, now) && <ReplaceSeatActions r={r} seat={s} />}
          </li>
        );
      })}
    </ul>
    </>
  );
}

function Chat({ r, onClose }: { r: RoomState; onClose?: () => void }) {
  const [text, setText] = useState("");
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [r.chat.length]);
  const send = async () => {
    const t = text.trim();
    if (!t) return;
    setText("");
    try {
      await request({ chat: { room_id: r.id, text: t } });
    } catch (e) {
      toast((e as Error).message);
      setText(t);
    }
  };
  const me = state.session?.player_id;
  return (
    <Panel title="Chat" class="chat" actions={onClose && (
      <button type="button" class="btn small ghost" data-testid="chat-close" aria-label="Close the chat" onClick={onClose}>✕</button>
    )}>
      <div class="chat-lines" ref={list} data-testid="chat-lines">
        {r.chat.length === 0 && <p class="muted small">Say hello to the table.</p>}
        {r.chat.map((c, i) => {
          const seat = r.info?.seats.find((s) => s.player_id === c.from_player_id)?.seat ?? -1;
          return (
            <div key={i} class={`chat-line ${c.from_player_id === me ? "mine" : ""}`} title={timeAgo(c.at_unix_ms)}>
              <Dot seat={seat} size={8} /> <b>{c.from_name}</b> {c.text}
            </div>
          );
        })}
      </div>
      <form class="chat-form" onSubmit={(e) => { e.preventDefault(); void send(); }}>
        <input value={text} maxLength={300} placeholder="Message…" data-testid="chat-input"
          onInput={(e) => setText((e.target as HTMLInputElement).value)} />
        <button class="btn" type="submit" disabled={!text.trim()} data-testid="chat-send">Send</button>
      </form>
    </Panel>
  );
}

function WaitingControls({ r }: { r: RoomState }) {
  const info = r.info!;
  const me = state.session?.player_id;
  const game = gameInfo(info.game);
  const isHost = info.host_player_id === me;
  const mySeat = info.seats.find((s) => s.seat === info.your_seat);
  const seated = info.seats.filter((s) => s.player_id);
  const notReady = seated.filter((s) => s.player_id !== info.host_player_id && !s.ready);
  const othersNotReady = notReady.filter((s) => s.seat !== info.your_seat).map((s) => s.name);
  const meNotReady = notReady.some((s) => s.seat === info.your_seat);
  const minSeats = game?.min_seats ?? 1;
  const [busy, act] = useRequest();
  let blocker = "";
  if (seated.length < minSeats) blocker = `Waiting for players: ${seated.length} of at least ${minSeats}.`;
  else if (meNotReady) {
    blocker = othersNotReady.length
      ? `Press “I'm ready” when you are (the table also waits for ${othersNotReady.join(", ")}).`
      : "Press “I'm ready” when you are: the host starts once everyone is.";
  } else if (notReady.length) blocker = `Waiting for ${othersNotReady.join(", ")} to be ready.`;
  return (
    <div class="waiting-controls">
      {mySeat && !isHost && (
        <button class={`btn big ${mySeat.ready ? "" : "primary"}`} disabled={busy} data-testid="ready-toggle"
          aria-pressed={mySeat.ready}
          onClick={() => void act({ set_ready: { room_id: r.id, ready: !mySeat.ready } })}>
          {mySeat.ready ? "✓ Ready — click to cancel" : "I'm ready"}
        </button>
      )}
      {isHost && (
        <button class="btn big primary" disabled={busy || Boolean(blocker)} data-testid="start-game"
          onClick={() => void act({ start_game: { room_id: r.id } })}>▶ Start the game</button>
      )}
      <p class="muted" data-testid="waiting-status">
        {blocker || (isHost ? "Everyone is ready. Start when you like." : "Waiting for the host to start.")}
      </p>
      {!mySeat && <p class="muted">You are watching this table.</p>}
      {!mySeat && <TakeASeat r={r} />}
    </div>
  );
}

/**
 * A spectator of a waiting room takes a free seat where he may: a public room, or a private one
 * whose join code he came with (the server sends it to him only then).
 */
function TakeASeat({ r }: { r: RoomState }) {
  const info = r.info!;
  const [busy, setBusy] = useState(false);
  const free = info.seats.some((s) => !s.player_id);
  if (!free || (info.is_private && !info.join_code)) return null;
  const sit = async () => {
    setBusy(true);
    try {
      await joinRoom({ room_id: info.room_id, join_code: info.join_code });
    } catch (e) {
      toast((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return <button class="btn primary" disabled={busy} onClick={() => void sit()} data-testid="take-seat">🪑 Take a seat</button>;
}

function GameArea({ r }: { r: RoomState }) {
  const info = r.info!;
  const ui = gameUI(info.game);
  const ginfo = gameInfo(info.game);
  const g = r.game;
  const names: string[] = [];
  const connected: boolean[] = [];
  for (const s of info.seats) {
    names[s.seat] = s.name || `Seat ${s.seat + 1}`;
    connected[s.seat] = !!s.player_id && s.connected;
  }
  const scope = useTextScopeFor(gameTexts(info.game), names, g?.seat ?? -1);
  // While a bot stands in, it makes the seat's moves: the player's would race it (the banner
  // above offers the seat back).
  const readOnly = !g || g.seat < 0 || g.gameOver || standIn(info, g.seat);
  // Moves sent and not yet answered, shown on the area (data-in-flight): the board may change
  // meanwhile through another player's move, so a change alone does not say this one was taken.
  const [inFlight, setInFlight] = useState(0);
  const submit = async (action: object) => {
    if (!ginfo) throw new Error("Unknown game.");
    setInFlight((n) => n + 1);
    try {
      await submitAction(r.id, ginfo.action_type, action);
    } catch (e) {
      const reason = (e as Error).message;
      toast(reason);
      throw new Error(reason);
    } finally {
      setInFlight((n) => n - 1);
    }
  };
  // Answers through the generic panel and resigning: moves of the core, whatever the game.
  const core = useSubmit(readOnly ? undefined : submit, g?.view);
  const phone = usePhone();
  const area = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (phone && area.current) foldLogs(area.current);
  });
  // The banner stuck at the top is where a phone's eye goes: a tap on it leads to the move too.
  const tapBanner = phone && waitsOnMe(r) ? (e: MouseEvent) => {
    if ((e.target as Element).closest?.("[data-testid=turn-banner]")) scrollToAction();
  } : undefined;
  if (!ui) return <p class="form-error">This client cannot show {info.game} games.</p>;
  if (!g) return <Spinner label="Dealing the game…" />;
  const table = tableOf(g.view);
  const prompt = readOnly ? null : currentPrompt(table, g.seat);
  const generic = prompt && ginfo && !ui.drawsPrompt?.(prompt, g.view) ? prompt : null;
  const resigned = !g.gameOver && g.seat >= 0 && table.resigned.includes(g.seat);
  const canResign = !readOnly && !!ginfo && info.status === RoomStatus.PLAYING && !resigned;
  return (
    <div class="game-area" data-testid="game-area" data-in-flight={inFlight} ref={area} onClick={tapBanner}>
      <TextProvider scope={scope}>
        <SinceYourMove track={r.moves} myTurn={!readOnly && g.acting.includes(g.seat)} />
        <LastMoveProvider track={r.moves ?? null} names={names}>
        <ui.Board view={g.view} seat={g.seat} names={names} acting={g.acting} gameOver={g.gameOver}
          readOnly={readOnly} submit={readOnly ? undefined : submit} actionType={ginfo?.action_type} connected={connected}
          gameData={ginfo?.data} />
        </LastMoveProvider>
        {generic && (
          <PromptPanel prompt={generic} onAnswer={answerSender(ginfo!.action_type, core.run)} busy={core.busy} error={core.error} />
        )}
      </TextProvider>
      {(canResign || resigned) && (
        <div class="game-actions row-actions">
          {canResign && info.undo && <UndoButton roomId={r.id} canUndo={g.canUndo} version={g.version} />}
          {canResign ? <ResignButton actionType={ginfo!.action_type} run={core.run} busy={core.busy} />
            : <span class="muted small" data-testid="resigned">You resigned: the game plays on without you.</span>}
          {!generic && <ActionError error={core.error} />}
        </div>
      )}
    </div>
  );
}

// Logs folded once already: one the player opens again stays open through the next renders.
const foldedLogs = new WeakSet<Element>();

/** Folds the logs the boards draw open: on a phone they are long, and nothing to do comes after them. */
function foldLogs(root: Element): void {
  for (const d of root.querySelectorAll<HTMLDetailsElement>("details[data-testid=game-log], details[data-testid=core-log]")) {
    if (foldedLogs.has(d)) continue;
    foldedLogs.add(d);
    d.open = false;
  }
}

function GameOverPanel({ r }: { r: RoomState }) {
  const gameId = r.gameId || r.info?.game_id || "";
  return (
    <Panel title="🏁 Final ranking" class="gameover" >
      <div data-testid="game-over">
        <Ranking results={r.results!} youSeat={r.info?.your_seat} unit={gameUI(r.info?.game ?? "")?.scoreUnit} />
        <div class="row-actions">
          {gameId && (
            <a class="btn primary" data-testid="replay-link"
              href={href({ page: "replay", gameId, step: 0, seat: r.info?.your_seat ?? -1, token: r.replayToken || undefined })}>
              ⏮ Watch the replay
            </a>
          )}
          <a class="btn ghost" href="#/">Back to the lobby</a>
        </div>
        {r.info && r.info.your_seat >= 0 && <RematchOffer r={r} />}
      </div>
    </Panel>
  );
}

/**
 * Everyone at the table asked: one click to ask or accept, and who has not answered yet. A seat
 * whose player is away does not hold it up: the bot standing in agrees for him, or the players
 * choose to play without him. The button says why when the server says a rematch cannot start.
 */
function RematchOffer({ r }: { r: RoomState }) {
  const info = r.info!;
  const [busy, post] = useRequest();
  const terms = info.rematch ?? { without_absent: false, unavailable: "", without_unavailable: "", absent_seats: [] };
  const away = new Set(terms.absent_seats ?? []);
  const present = (s: { seat: number; bot?: number }) => !s.bot && !away.has(s.seat);
  const asked = info.seats.some((s) => s.rematch && present(s));
  const mine = info.seats.find((s) => s.seat === info.your_seat)?.rematch ?? false;
  const waiting = info.seats.filter((s) => !s.rematch).map((s) => s.name);
  const awayNames = info.seats.filter((s) => away.has(s.seat)).map((s) => s.name).join(", ");
  // Before an offer, the terms are this player's pick; once made, the offer's.
  const [pick, setPick] = useState(false);
  const without = asked ? terms.without_absent : pick;
  const blocked = (without ? terms.without_unavailable : terms.unavailable) ?? "";
  const send = (accept: boolean, w: boolean = without) =>
    post({ rematch: { room_id: r.id, accept, without_absent: w } });
  const choose = (w: boolean) => {
    setPick(w);
    // Other terms than an offer's make a new offer, which the others answer again.
    if (asked && w !== terms.without_absent) void send(true, w);
  };
  return (
    <div class="rematch" data-testid="rematch" data-asked={asked ? "true" : "false"} data-mine={mine ? "true" : "false"}>
      {away.size > 0 && (
        <div class="seg" role="radiogroup" aria-label="Rematch terms" data-testid="rematch-terms">
          <button type="button" class={!without ? "on" : ""} aria-pressed={!without} disabled={busy}
            data-testid="rematch-keep" onClick={() => choose(false)}>With a bot for {awayNames}</button>
          <button type="button" class={without ? "on" : ""} aria-pressed={without}
            disabled={busy || !!terms.without_unavailable} title={terms.without_unavailable || undefined}
            data-testid="rematch-without" onClick={() => choose(true)}>Without {awayNames}</button>
        </div>
      )}
      {!asked && (
        <button class="btn" disabled={busy || !!blocked} title={blocked || undefined} data-testid="rematch-ask"
          onClick={() => void send(true)}>⟳ Rematch</button>
      )}
      {asked && !mine && (
        <>
          <span>{info.seats.filter((s) => s.rematch && present(s)).map((s) => s.name).join(", ")} would like a rematch{without ? ` without ${awayNames}` : ""}.</span>
          <button class="btn primary" disabled={busy || !!blocked} title={blocked || undefined} data-testid="rematch-accept"
            onClick={() => void send(true)}>Play again</button>
          <button class="btn ghost" disabled={busy} data-testid="rematch-decline" onClick={() => void send(false)}>No thanks</button>
        </>
      )}
      {asked && mine && (
        <>
          <span data-testid="rematch-waiting">Rematch asked: waiting for {waiting.join(", ")}.</span>
          <button class="btn ghost" disabled={busy} data-testid="rematch-cancel" onClick={() => void send(false)}>Cancel</button>
        </>
      )}
      {blocked && <span class="muted small" data-testid="rematch-blocked">{blocked}</span>}
    </div>
  );
}

/**
 * Leaving a game one still plays in says what becomes of the seat; otherwise (waiting, watching,
 * the game over or resigned from) the player simply goes.
 */
function LeaveButton({ r }: { r: RoomState }) {
  const [asking, setAsking] = useState(false);
  const info = r.info!;
  const g = r.game;
  const mine = info.seats.find((s) => s.seat === info.your_seat);
  const resigned = !!g && info.your_seat >= 0 && tableOf(g.view).resigned.includes(info.your_seat);
  const deciding = info.status === RoomStatus.PLAYING && !!mine && !g?.gameOver && !resigned;
  const leave = async (mode: number) => {
    setAsking(false);
    try { await leaveRoom(r.id, mode); } catch (e) { toast((e as Error).message); }
    navigate({ page: "lobby" });
  };
  return (
    <>
      <button class="btn ghost" onClick={() => (deciding ? setAsking(true) : void leave(LeaveMode.KEEP_SEAT))}
        data-testid="leave-room">Leave</button>
      {asking && deciding && (
        <div class="modal-backdrop" onClick={(e) => e.target === e.currentTarget && setAsking(false)}>
          <div class="modal leave-dialog" role="dialog" aria-modal="true" aria-labelledby="leave-title" data-testid="leave-dialog">
            <h2 id="leave-title">Leave the game?</h2>
            <p class="muted">The game goes on without you at the table. What becomes of your seat?</p>
            <div class="leave-choices">
              <button type="button" class="btn" data-testid="leave-keep" onClick={() => void leave(LeaveMode.KEEP_SEAT)}>
                <b>Keep my seat — I'll come back</b>
                <small class="muted">It waits for you, but the others may hand it to a bot meanwhile.</small>
              </button>
              {!mine?.stand_in && (
                <button type="button" class="btn" data-testid="leave-bot" onClick={() => void leave(LeaveMode.HAND_TO_BOT)}>
                  <b>Hand my seat to a bot</b>
                  <small class="muted">A bot plays for you; come back to take your seat again.</small>
                </button>
              )}
              <button type="button" class="btn danger" data-testid="leave-concede" onClick={() => void leave(LeaveMode.CONCEDE)}>
                <b>Concede</b>
                <small class="muted">You resign for good; the others play on.</small>
              </button>
            </div>
            <div class="modal-actions">
              <button type="button" class="btn ghost" data-testid="leave-cancel" onClick={() => setAsking(false)}>Cancel</button>
            </div>
          </div>
        </div>
      )}
    </>
  );
}

/** The local player's seat is played by a bot (handed over, or abandoned to the clock). */
function StandInBanner({ r }: { r: RoomState }) {
  const [busy, send] = useRequest();
  const takeBack = () => send({ take_back_seat: { room_id: r.id } });
  return (
    <div class="stand-in-banner" data-testid="stand-in-banner" role="status">
      <span>🤖 A bot is playing for you.</span>
      <button type="button" class="btn primary" disabled={busy} data-testid="take-back" onClick={() => void takeBack()}>
        Take back my seat
      </button>
    </div>
  );
}

/**
 * A phone's room controls, stuck to the bottom of the screen within thumb's reach: whose turn it
 * is, a button to the player's move wherever the board asks for it, and the chat, which opens as a
 * drawer above the bar (the bar stays, so the same button shuts it).
 */
function PhoneBar({ r }: { r: RoomState }) {
  const [open, setOpen] = useState(false);
  const [seen, setSeen] = useState(() => loadChatMark(r.id));
  const me = state.session?.player_id;
  useEffect(() => {
    if (!open) return;
    const mark = chatMark(r.chat);
    setSeen(mark);
    saveChatMark(r.id, mark);
  }, [open, r.chat]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => { if (e.key === "Escape") setOpen(false); };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);
  const unread = open ? 0 : unreadCount(r.chat, seen, me);
  const status = phoneStatus(r);
  return (
    <div class={`phone-bar ${status.mine ? "mine" : ""}`} data-testid="phone-bar" data-my-turn={status.mine ? "true" : "false"}>
      <div class="chat-drawer" id="chat-drawer" data-testid="chat-drawer" data-open={open ? "true" : "false"} aria-hidden={!open}>
        <Chat r={r} onClose={() => setOpen(false)} />
      </div>
      <span class="phone-status" data-testid="phone-status" role="status">
        {status.seat >= 0 && <Dot seat={status.seat} size={10} />}
        <span>{status.text}</span>
      </span>
      {status.mine && (
        <button type="button" class="btn small primary" data-testid="jump-to-action" onClick={() => scrollToAction()}>
          Your move ↓
        </button>
      )}
      <button type="button" class={`btn small chat-toggle ${open ? "on" : ""}`} data-testid="chat-toggle"
        aria-expanded={open} aria-controls="chat-drawer" onClick={() => setOpen(!open)}
        aria-label={unread ? `Chat, ${unread} unread` : "Chat"}>
        💬 Chat
        {unread > 0 && <span class="unread" data-testid="chat-unread">{unread > 99 ? "99+" : unread}</span>}
      </button>
    </div>
  );
}

/** What an invitation leads to, before choosing: take a seat or watch. */
function Invitation({ info, maySit, onSit, onWatch }: {
  info: RoomInfo; maySit: boolean; onSit: () => void; onWatch: () => void;
}) {
  const ginfo = gameInfo(info.game);
  const host = info.seats.find((s) => s.player_id && s.player_id === info.host_player_id)?.name;
  const taken = info.seats.filter((s) => s.player_id).length;
  const free = maySit && info.status === RoomStatus.WAITING && taken < info.max_seats;
  const status = info.status === RoomStatus.PLAYING ? "The game has started: you can watch it."
    : info.status === RoomStatus.FINISHED ? "This game is over."
    : !maySit ? "You are invited to watch: the seats are for those given the invite link."
    : free ? freeSeatsText(info.max_seats - taken, info.max_seats) : "Every seat is taken: you can watch.";
  return (
    <Panel title="You are invited" class="narrow invitation">
      <div data-testid="invite" data-status={info.status}>
        <h2>{info.title || `${ginfo?.title ?? info.game} table`}</h2>
        <p class="muted">{ginfo?.title ?? info.game}{host ? ` · hosted by ${host}` : ""} · {taken}/{info.max_seats} players
          {info.spectators.length > 0 && ` · ${info.spectators.length} watching`}</p>
        <p data-testid="invite-status">{status}</p>
        <div class="row-actions">
          <button class="btn primary" disabled={!free} onClick={onSit} data-testid="take-seat">🪑 Take a seat</button>
          <button class="btn" onClick={onWatch} data-testid="spectate">👁 Watch</button>
          <a class="btn ghost" href="#/">Back to the lobby</a>
        </div>
      </div>
    </Panel>
  );
}

/** Refusals of a seat that leave watching open: the game began, or the seats are taken. */
const WATCHABLE = new Set(["game_started", "room_full"]);
// Refusals that say to come back on the next connection (several nodes: room_moved), not that
// the room cannot be entered.
const TRANSIENT = new Set(["room_moved", "disconnected"]);

export function RoomPage({ roomId, joinCode, watchCode, watch: watchOnly }: {
  roomId?: string; joinCode?: string; watchCode?: string; watch?: boolean;
}) {
  useStore();  // re-rendered on every change of the store (the room state below reads it)
  const phone = usePhone();
  const [error, setError] = useState<RequestError | Error | null>(null);
  const [invite, setInvite] = useState<RoomInfo | null>(null);
  // Only a room we are in: a room state made for a room we only peeked at would be re-entered on
  // the next reconnection (client.ts reopens every room it holds).
  // The room this page names, when this tab is already in it.
  const heldId = () => {
    const known = roomId ?? (joinCode ? state.joinCodes.get(joinCode) : undefined);
    const info = known ? state.rooms.get(known)?.info : null;
    // A spectator without the join code who now opens an invitation is offered the seat.
    if (!known || !info || (joinCode && info.your_seat < 0 && !info.join_code)) return null;
    return known;
  };
  const [resolvedId, setResolvedId] = useState<string | null>(heldId);
  // The room id with the code the link carried: the server never refuses that pair for the
  // address's wrong codes, as it does a code alone.
  const by: RoomBy = { room_id: roomId, join_code: joinCode, watch_code: watchCode };
  // Whether watching may still work after the error shown: only a seat refused for the game or
  // the seats, never a room that is not there, a code refused, or a refused watch.
  const [canWatch, setCanWatch] = useState(false);
  const enter = (how: typeof joinRoom) => async () => {
    setError(null);
    setInvite(null);
    try {
      setResolvedId((await how(by)).room_id);
    } catch (e) {
      setCanWatch(how === joinRoom && e instanceof RequestError && WATCHABLE.has(e.code));
      setError(e as Error);
    }
  };
  const watch = enter(spectate);
  const sit = enter(joinRoom);
  useEffect(() => {
    let alive = true;
    setError(null);
    (async () => {
      for (;;) {
        await ready();
        if (!alive) return;
        const known = heldId();
        if (known) {
          setResolvedId(known);
          return;
        }
        if (watchOnly) {
          await watch();
          return;
        }
        try {
          // A seat of ours (another tab, a reload) is taken back at once; anyone else chooses.
          const peek = await peekRoom(by);
          if (!alive) return;
          if (peek.your_seat >= 0) await sit();
          else setInvite(peek);
          return;
        } catch (e) {
          const known2 = heldId();
          if (known2) { setResolvedId(known2); return; }
          if (!alive) return;
          // Another node runs the room (the connection is being made again, naming it), or the
          // connection went meanwhile: asked again once the next one is open.
          if (e instanceof RequestError && TRANSIENT.has(e.code)) {
            await new Promise((r) => setTimeout(r, 200));
            continue;
          }
          setCanWatch(false);
          setError(e as Error);
          return;
        }
      }
    })();
    return () => { alive = false; };
  }, [roomId, joinCode, watchCode, watchOnly]);

  const r = resolvedId ? roomState(resolvedId) : null;
  const finishedWithoutResults = r?.info?.status === RoomStatus.FINISHED && !r.results && (r.gameId || r.info.game_id);
  useEffect(() => {
    if (r && finishedWithoutResults) fetchResults(r.id, r.gameId || r.info!.game_id).catch(() => {});
  }, [finishedWithoutResults]);

  if (error) {
    return (
      <Panel title="Can't join this table" class="narrow">
        <p class="form-error" data-testid="join-error">{error.message}</p>
        <div class="row-actions">
          {canWatch && <button class="btn" onClick={() => void watch()} data-testid="spectate">👁 Watch instead</button>}
          <a class="btn ghost" href="#/">Back to the lobby</a>
        </div>
      </Panel>
    );
  }
  if (invite && !(r && r.info)) {
    // A private room's seat needs its join code: from this link, or held as a member.
    const maySit = !invite.is_private || Boolean(joinCode) || Boolean(invite.join_code);
    return <Invitation info={invite} maySit={maySit} onSit={() => void sit()} onWatch={() => void watch()} />;
  }
  if (!r || !r.info) return <Spinner label="Joining the table…" />;
  const info = r.info;
  const ginfo = gameInfo(info.game);
  const playing = info.status !== RoomStatus.WAITING;
  const timer = roomTimerLabel(info.timer, ginfo?.timer_presets);
  const playedForMe = info.status === RoomStatus.PLAYING && standIn(info, info.your_seat);
  return (
    <div class={`room ${playing ? "room-playing" : "room-waiting"}`} data-testid="room" data-status={info.status}
      data-offline-grace={info.offline_grace_seconds}>
      <div class="room-head">
        <div>
          <h1 data-testid="room-title">{info.title || `${ginfo?.title ?? info.game} table`}</h1>
          <p class="muted">{ginfo?.title ?? info.game} <a href={href({ page: "rules", game: info.game })} data-testid="rules-link" target="_blank" rel="noopener">📖 rules</a> · {info.seats.filter((x) => x.player_id).length}/{info.max_seats} players
            {info.spectators.length > 0 && ` · ${info.spectators.length} watching`}
            {r.role === "spectator" && " · you are watching"}
            {timer && <> · <span data-testid="room-timer">⏱ {timer}</span></>}</p>
        </div>
        <LeaveButton r={r} />
      </div>
      {r.lastError && <p class="form-error">{r.lastError}</p>}
      <div class="room-grid">
        <div class="room-main">
          {playedForMe && <StandInBanner r={r} />}
          {r.results && <GameOverPanel r={r} />}
          {playing ? <GameArea r={r} /> : (
            <Panel title="Seats">
              <Seats r={r} />
              <WaitingControls r={r} />
            </Panel>
          )}
        </div>
        <aside class="room-side">
          {playing && <Panel title="Players"><Seats r={r} compact /></Panel>}
          <ShareBox r={r} folded={phone && playing} />
          {info.spectators.length > 0 && (
            <Panel title="Watching">
              <ul class="spectators">{info.spectators.map((n, i) => <li key={i}>👁 {n}</li>)}</ul>
            </Panel>
          )}
          {!phone && <Chat r={r} />}
        </aside>
      </div>
      {phone && <PhoneBar r={r} />}
    </div>
  );
}
