import { useEffect, useState } from "preact/hooks";
import { joinRoom, moreRooms, request, spectate, unwatchRooms, watchRooms } from "../client";
import { gameUI } from "../games/registry";
import type { CountWord } from "../games/types";
import { waitsOnMe } from "../attention";
import { encode, type } from "../proto";
import { href, inviteRoute, navigate, parseRoute } from "../router";
import { RoomStatus, state, toast, useStore, type GameInfo, type RoomInfo } from "../store";
import { presetLabel, roomTimerLabel } from "../timers";
import { BotLevelPicker, preferredBotLevel } from "./BotLevel";
import { Panel, Spinner } from "./common";

/** What a host may choose for the timeouts in a row that hand a seat to a bot (the server takes 0 to 20). */
const ABANDON_CHOICES = [0, 1, 2, 3, 5, 10];

const STATUS_LABEL: Record<number, string> = {
  [RoomStatus.WAITING]: "Waiting for players",
  [RoomStatus.PLAYING]: "In play",
  [RoomStatus.FINISHED]: "Finished",
};

function CreateRoomModal({ game, onClose }: { game: GameInfo; onClose: () => void }) {
  const ui = gameUI(game.id);
  const me = state.session?.name ?? "My";
  const [title, setTitle] = useState(`${me}'s table`);
  const [seats, setSeats] = useState(Math.min(game.max_seats, Math.max(game.min_seats, 4)));
  const [isPrivate, setPrivate] = useState(true);
  const [options, setOptions] = useState<Record<string, unknown>>(() => ui?.defaultOptions() ?? {});
  // An index into the game's presets; -1: no timer.
  const [timerIndex, setTimerIndex] = useState(-1);
  const preset = game.timer_presets[timerIndex];
  // Timeouts in a row after which a bot takes the seat over (0: never); the preset's by default.
  const [abandonAfter, setAbandonAfter] = useState<number | null>(null);
  const abandon = abandonAfter ?? preset?.timer?.timeouts_to_abandon ?? 0;
  // Taking back a move that revealed nothing: on unless the host turns it off.
  const [undo, setUndo] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const create = async () => {
    setBusy(true);
    setError("");
    try {
      const opts = game.options_type ? encode(type(game.options_type), options) : new Uint8Array();
      const reply = await request({
        create_room: {
          game: game.id, options: opts, is_private: isPrivate, seats, title: title.trim(),
          timer: preset?.timer ? { ...preset.timer, timeouts_to_abandon: abandon } : undefined,  // absent: no timer
          undo,
        },
      });
      const info = reply.room as RoomInfo;
      onClose();
      navigate(inviteRoute(info));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const seatChoices = [];
  for (let n = game.min_seats; n <= game.max_seats; n++) seatChoices.push(n);
  return (
    <div class="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <form class="modal" data-testid="create-room-modal" onSubmit={(e) => { e.preventDefault(); void create(); }}>
        <h2>New {game.title} room</h2>
        <label class="field">
          <span>Title</span>
          <input data-testid="room-title" maxLength={60} value={title}
            onInput={(e) => setTitle((e.target as HTMLInputElement).value)} />
        </label>
        <div class="field">
          <span>Seats</span>
          <div class="seg" role="radiogroup">
            {seatChoices.map((n) => (
              <button type="button" key={n} class={n === seats ? "on" : ""} aria-pressed={n === seats}
                data-testid={`seats-${n}`} onClick={() => setSeats(n)}>{n}</button>
            ))}
          </div>
        </div>
        <div class="field">
          <span>Who can join</span>
          <div class="seg">
            <button type="button" class={isPrivate ? "on" : ""} data-testid="visibility-private"
              onClick={() => setPrivate(true)}>🔒 Private (link only)</button>
            <button type="button" class={!isPrivate ? "on" : ""} data-testid="visibility-public"
              onClick={() => setPrivate(false)}>🌍 Public (listed)</button>
          </div>
        </div>
        <label class="field">
          <span>Turn timer</span>
          <select data-testid="timer-select" value={String(timerIndex)}
            onChange={(e) => {
              setTimerIndex(Number((e.target as HTMLSelectElement).value));
              setAbandonAfter(null);  // each preset brings its own
            }}>
            <option value="-1">No timer</option>
            {game.timer_presets.map((p, i) => <option key={i} value={String(i)}>{presetLabel(p)}</option>)}
          </select>
          {preset?.timer && (
            <small class="muted" data-testid="timer-hint">
              When time runs out the server plays for the seat
              {abandon > 0 && `; after ${abandon} in a row a bot takes it over`}.
            </small>
          )}
        </label>
        {preset?.timer && (
          <label class="field">
            <span>A bot takes over a seat</span>
            <select data-testid="abandon-select" value={String(abandon)}
              onChange={(e) => setAbandonAfter(Number((e.target as HTMLSelectElement).value))}>
              {ABANDON_CHOICES.map((n) => (
                <option key={n} value={String(n)}>{n === 0 ? "never (the server plays each timeout)" : `after ${n} timeout${n === 1 ? "" : "s"} in a row`}</option>
              ))}
            </select>
          </label>
        )}
        <label class="field check">
          <input type="checkbox" data-testid="undo-option" checked={undo}
            onChange={(e) => setUndo((e.target as HTMLInputElement).checked)} />
          <span>Players may take back a move that revealed nothing</span>
        </label>
        {ui?.OptionsForm && <ui.OptionsForm value={options} onChange={setOptions} />}
        {error && <p class="form-error" role="alert">{error}</p>}
        <div class="modal-actions">
          <button type="button" class="btn ghost" onClick={onClose}>Cancel</button>
          <button type="submit" class="btn primary" disabled={busy} data-testid="create-room-submit">
            {busy ? "Creating…" : "Create room"}
          </button>
        </div>
      </form>
    </div>
  );
}

/** One click: a private one-seat room with the default options, started at once. */
async function playSolo(game: GameInfo): Promise<void> {
  const ui = gameUI(game.id);
  try {
    const opts = game.options_type ? encode(type(game.options_type), ui?.defaultOptions() ?? {}) : new Uint8Array();
    const me = state.session?.name ?? "My";
    const reply = await request({
      create_room: { game: game.id, options: opts, is_private: true, seats: 1, title: `${me}'s solo game` },
    });
    const info = reply.room as RoomInfo;
    await request({ start_game: { room_id: info.room_id } });
    navigate(inviteRoute(info));
  } catch (e) {
    toast((e as Error).message);
  }
}

/** Seats of a game against bots: three where the game allows, else as many as it takes. */
export function botTableSeats(game: { min_seats: number; max_seats: number }): number {
  return Math.min(game.max_seats, Math.max(game.min_seats, 2, 3));
}

/** One click: a private room with the default options, a bot in every other seat, started. */
async function playAgainstBots(game: GameInfo, seats = botTableSeats(game)): Promise<void> {
  const ui = gameUI(game.id);
  try {
    const opts = game.options_type ? encode(type(game.options_type), ui?.defaultOptions() ?? {}) : new Uint8Array();
    const me = state.session?.name ?? "My";
    const reply = await request({
      create_room: { game: game.id, options: opts, is_private: true, seats, title: `${me} against bots` },
    });
    const info = reply.room as RoomInfo;
    for (let seat = 1; seat < seats; seat++) {
      await request({ add_bot: { room_id: info.room_id, seat, level: preferredBotLevel() } });
    }
    await request({ start_game: { room_id: info.room_id } });
    navigate(inviteRoute(info));
  } catch (e) {
    toast((e as Error).message);
  }
}

/**
 * "Play against bots", with how many seats where the game allows a choice (LIMIT: 1 to 6
 * nations); three (botTableSeats) until the player picks another number.
 */
function BotTableButton({ game, seatWord, starting, onPlay }: {
  game: GameInfo; seatWord?: CountWord; starting: boolean; onPlay: (seats: number) => void;
}) {
  const [seats, setSeats] = useState(() => botTableSeats(game));
  const word = seatWord ?? { one: "player", many: "players" };
  const counts = Array.from({ length: game.max_seats - game.min_seats + 1 }, (_, i) => game.min_seats + i);
  const bots = seats - 1;
  return (
    <div class="bot-table">
      <button class="btn" disabled={starting} data-testid={`play-bots-${game.id}`}
        title={`You and ${bots} ${bots === 1 ? "bot" : "bots"}, in a private room`} onClick={() => onPlay(seats)}>
        {starting ? "Starting…" : "🤖 Play against bots"}
      </button>
      {counts.length > 1 && (
        <label class="bot-table-seats">
          <select data-testid={`bot-seats-${game.id}`} value={seats} aria-label={`How many ${word.many}`}
            onChange={(e) => setSeats(Number((e.target as HTMLSelectElement).value))}>
            {counts.map((n) => <option key={n} value={n}>{n} {n === 1 ? word.one : word.many}</option>)}
          </select>
        </label>
      )}
    </div>
  );
}

/** A room's options in words, as its game describes them ("" when it cannot). */
export function optionsText(room: RoomInfo, game: GameInfo): string {
  const describe = gameUI(game.id)?.describeOptions;
  if (!describe || !game.options_type) return "";
  try {
    const t = type(game.options_type);
    return describe(t.toObject(t.decode(room.options ?? new Uint8Array()), { defaults: false }));
  } catch {
    return "";
  }
}

function RoomRow({ room, game }: { room: RoomInfo; game: GameInfo }) {
  const taken = room.seats.filter((s) => s.player_id).length;
  const host = room.seats.find((s) => s.player_id && s.player_id === room.host_player_id)?.name;
  const bots = room.seats.filter((s) => s.bot).length;
  const options = optionsText(room, game);
  const timer = roomTimerLabel(room.timer, game.timer_presets);
  const canJoin = room.status === RoomStatus.WAITING && taken < room.max_seats;
  const go = async (watch: boolean) => {
    try {
      if (watch) await spectate({ room_id: room.room_id });
      else await joinRoom({ room_id: room.room_id });
      navigate({ page: "room", roomId: room.room_id });
    } catch (e) {
      toast((e as Error).message);
    }
  };
  return (
    <li class="room-row" data-testid="public-room" data-room-id={room.room_id} data-status={room.status}>
      <div class="room-row-main">
        <strong>{room.title || `${game.title} room`}</strong>
        <span class={`status status-${room.status}`}>{STATUS_LABEL[room.status] ?? ""}</span>
      </div>
      <div class="room-row-about muted small" data-testid="room-about">
        {host && <span>hosted by {host}</span>}
        {options && <span data-testid="room-options">{options}</span>}
        {timer && <span data-testid="room-timer">⏱ {timer}</span>}
        {bots > 0 && <span title="Seats the server plays">🤖 {bots} bot{bots === 1 ? "" : "s"}</span>}
        {room.spectators.length > 0 && <span>👁 {room.spectators.length} watching</span>}
      </div>
      <div class="room-row-seats">
        {room.seats.map((s) => (
          <span key={s.seat} class={`mini-seat ${s.player_id ? "taken" : ""} ${s.bot ? "bot" : ""}`}
            title={s.player_id ? `${s.name}${s.bot ? " (bot)" : ""}` : "free seat"} />
        ))}
        <span class="muted">{taken}/{room.max_seats}</span>
      </div>
      <div class="room-row-actions">
        {canJoin && <button class="btn small primary" onClick={() => void go(false)}>Join</button>}
        <button class="btn small ghost" onClick={() => void go(true)}>Watch</button>
      </div>
    </li>
  );
}

function JoinByCode() {
  const [code, setCode] = useState("");
  return (
    <form class="join-code" onSubmit={(e) => {
      e.preventDefault();
      const c = code.trim();
      // A pasted link goes where it leads (an invitation with its room id, a watch link); a
      // code alone is looked up.
      const link = /#\/(join|watch|room)\//.test(c) ? parseRoute(c.replace(/^[^#]*/, "")) : null;
      if (link && link.page !== "lobby") navigate(link);
      else if (c) navigate({ page: "join", code: c });
    }}>
      <input placeholder="Have a code or an invite link? Paste it here" value={code}
        onInput={(e) => setCode((e.target as HTMLInputElement).value)} data-testid="join-code-input" />
      <button class="btn" type="submit" disabled={!code.trim()}>Join</button>
    </form>
  );
}

function backTo(info: RoomInfo): boolean {
  if (info.your_seat < 0) return false;
  return info.seats.some((s) => s.rematch) || !!info.seats.find((s) => s.seat === info.your_seat)?.stand_in;
}

export function Lobby() {
  const s = useStore();
  const [creating, setCreating] = useState<GameInfo | null>(null);
  const [soloStarting, setSoloStarting] = useState("");
  // One game's card only, or all of them ("").
  const [only, setOnly] = useState(() => sessionStorage.getItem("plateau.lobby.game") ?? "");
  const pick = (id: string) => {
    setOnly(id);
    sessionStorage.setItem("plateau.lobby.game", id);
  };
  // The server pushes the list's changes while the lobby shows (reconnects included: client.ts).
  useEffect(() => {
    watchRooms();
    return unwatchRooms;
  }, []);
  const rooms = s.roomList.listing?.rooms ?? null;
  const morePages = Boolean(s.roomList.listing?.next);
  // A finished table stays listed while a rematch is on offer or a bot holds this player's seat:
  // the way back to it for a player who went away.
  const mine = [...s.rooms.values()].filter((r) => r.info && (r.info.status !== RoomStatus.FINISHED || backTo(r.info)));
  return (
    <div class="lobby">
      <section class="hero">
        <h1>Pick a game, gather your friends.</h1>
        <p class="lede">Create a table, share the link, and play in real time. Every finished game can be replayed move by move.</p>
        <JoinByCode />
        <BotLevelPicker />
      </section>
      {mine.length > 0 && (
        <Panel title="Your tables">
          <ul class="room-list">
            {mine.map((r) => (
              <li class="room-row" key={r.id}>
                <div class="room-row-main">
                  <strong>{r.info!.title || r.info!.game}</strong>
                  <span class={`status status-${r.info!.status}`}>{STATUS_LABEL[r.info!.status]}</span>
                  {waitsOnMe(r) && <span class="badge turn" data-testid="your-move">Your move</span>}
                </div>
                <div class="room-row-actions">
                  <a class="btn small primary" href={href(inviteRoute(r.info!))}>Open</a>
                </div>
              </li>
            ))}
          </ul>
        </Panel>
      )}
      {s.games.length === 0 && <Spinner label="Loading games…" />}
      {s.games.length > 1 && (
        <div class="seg game-filter" role="radiogroup" aria-label="Games shown" data-testid="game-filter">
          <button type="button" class={only === "" ? "on" : ""} aria-pressed={only === ""} data-testid="filter-all"
            onClick={() => pick("")}>All games</button>
          {s.games.map((g) => (
            <button type="button" key={g.id} class={only === g.id ? "on" : ""} aria-pressed={only === g.id}
              data-testid={`filter-${g.id}`} onClick={() => pick(g.id)}>{g.title}</button>
          ))}
        </div>
      )}
      <div class="game-grid">
        {s.games.filter((g) => !only || g.id === only).map((g) => {
          const ui = gameUI(g.id);
          const list = (rooms ?? []).filter((r) => r.game === g.id);
          return (
            <article class="game-card" key={g.id} data-testid={`game-card-${g.id}`}>
              <div class="game-card-top">
                <div class="emblem">{ui?.emblem ?? "🎲"}</div>
                <div>
                  <h2>{g.title}</h2>
                  <p class="muted">{g.min_seats === g.max_seats ? g.min_seats : `${g.min_seats}–${g.max_seats}`} players</p>
                </div>
              </div>
              {ui && <p class="tagline">{ui.tagline}</p>}
              {!ui && <p class="muted">This game has no board in this client yet.</p>}
              <div class="game-card-actions">
                <button class="btn primary" disabled={!ui} onClick={() => setCreating(g)}
                  data-testid={`create-room-${g.id}`}>+ New room</button>
                {g.min_seats === 1 && ui && (
                  <button class="btn" disabled={soloStarting === g.id} data-testid={`play-solo-${g.id}`}
                    onClick={() => { setSoloStarting(g.id); void playSolo(g).finally(() => setSoloStarting("")); }}>
                    {soloStarting === g.id ? "Starting…" : "▶ Play solo"}
                  </button>
                )}
                {ui && (
                  <BotTableButton game={g} seatWord={ui.seatWord} starting={soloStarting === g.id}
                    onPlay={(seats) => { setSoloStarting(g.id); void playAgainstBots(g, seats).finally(() => setSoloStarting("")); }} />
                )}
                {ui?.howToPlay && <a class="btn ghost" href={href({ page: "rules", game: g.id })} data-testid={`rules-${g.id}`}>📖 How to play</a>}
              </div>
              <h3 class="sub">Open tables</h3>
              {rooms === null ? <Spinner /> : list.length === 0 ? (
                <p class="muted empty">{morePages ? "None among the tables listed so far." : "No public table right now — start one!"}</p>
              ) : (
                <ul class="room-list">{list.map((r) => <RoomRow key={r.room_id} room={r} game={g} />)}</ul>
              )}
            </article>
          );
        })}
      </div>
      {morePages && (
        <div class="row-actions">
          <button class="btn" disabled={s.roomList.loading} onClick={moreRooms} data-testid="more-rooms">
            {s.roomList.loading ? "Loading…" : "More rooms"}
          </button>
        </div>
      )}
      {creating && <CreateRoomModal game={creating} onClose={() => setCreating(null)} />}
    </div>
  );
}
