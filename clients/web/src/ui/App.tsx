import { useEffect, useState } from "preact/hooks";
import { away, connect, rename, signOutEverywhere } from "../client";
import { useRoute, href } from "../router";
import { updateAttention, alerts } from "../attention";
import { changed, saved, state, toast, useStore, SessionNoticeKind } from "../store";
import { Lobby } from "./Lobby";
import { RoomPage } from "./Room";
import { ReplayList } from "./Replays";
import { ReplayViewer } from "./ReplayViewer";
import { RulesPage } from "./Rules";

function NameModal({ onDone }: { onDone: (name: string) => void }) {
  const [name, setName] = useState(saved.name);
  const ok = name.trim().length >= 1 && name.trim().length <= 32;
  return (
    <div class="modal-backdrop">
      <form class="modal welcome" data-testid="name-modal"
        onSubmit={(e) => { e.preventDefault(); if (ok) onDone(name.trim()); }}>
        <div class="brand-big"><Logo /> Plateau</div>
        <p class="lede">Board games with friends, right in the browser. Pick a name the other players will see.</p>
        <label class="field">
          <span>Your name</span>
          <input data-testid="name-input" autoFocus maxLength={32} value={name} placeholder="e.g. Alice"
            onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          <small class="muted" data-testid="name-length">Up to 32 characters ({[...name.trim()].length}/32). At a table where
            someone already has it, you appear as “{name.trim() || "Name"} (2)”.</small>
        </label>
        <button class="btn primary big" type="submit" disabled={!ok} data-testid="name-submit">Let's play</button>
      </form>
    </div>
  );
}

export function Logo() {
  return (
    <svg class="logo" viewBox="0 0 64 64" aria-hidden="true">
      <rect x="4" y="4" width="56" height="56" rx="14" fill="currentColor" opacity="0.18" />
      <rect x="14" y="14" width="16" height="16" rx="4" fill="#f5a524" />
      <rect x="34" y="34" width="16" height="16" rx="4" fill="#f5a524" />
      <rect x="34" y="14" width="16" height="16" rx="4" fill="currentColor" opacity="0.5" />
      <rect x="14" y="34" width="16" height="16" rx="4" fill="currentColor" opacity="0.5" />
    </svg>
  );
}

function Header({ page }: { page: string }) {
  const s = useStore();
  const conn = s.connection;
  // On a phone the links fold into a menu (styles.css shows the button only there).
  const [menu, setMenu] = useState(false);
  useEffect(() => setMenu(false), [page]);
  useEffect(() => {
    if (!menu) return;
    const away = (e: Event) => {
      if (!(e.target as Element).closest?.(".topbar nav, .nav-toggle")) setMenu(false);
    };
    const onKey = (e: KeyboardEvent) => { if (e.key === "Escape") setMenu(false); };
    document.addEventListener("click", away);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("click", away);
      document.removeEventListener("keydown", onKey);
    };
  }, [menu]);
  return (
    <header class="topbar">
      <a class="brand" href="#/" aria-label="Plateau, the lobby"><Logo /> <span class="brand-name">Plateau</span></a>
      <button type="button" class="icon-btn nav-toggle" data-testid="nav-toggle" aria-expanded={menu} aria-controls="main-nav"
        aria-label="Menu" onClick={() => setMenu(!menu)}>☰</button>
      <nav id="main-nav" class={menu ? "open" : ""} onClick={() => setMenu(false)}>
        <a href="#/" class={page === "lobby" ? "active" : ""} data-testid="nav-lobby">Lobby</a>
        <a href={href({ page: "replays" })} class={page === "replays" || page === "replay" ? "active" : ""}
          data-testid="nav-replays">Replays</a>
      </nav>
      <div class="me">
        <AlertSettings />
        <AccountMenu />
        <span class={`conn conn-${conn}`} title={conn === "open" ? "Connected" : conn === "closed" ? "Reconnecting…" : "Connecting…"} />
        <RenameMe name={s.session?.name ?? saved.name} />
      </div>
    </header>
  );
}

/** Runs one request at a time: busy meanwhile, and a refusal shown as a toast. */
function useBusy(): [boolean, (fn: () => Promise<void>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    try {
      await fn();
    } catch (e) {
      toast((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return [busy, run];
}

/** The player's name, which a click turns into a form to change it. */
function RenameMe({ name }: { name: string }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);
  const [busy, run] = useBusy();
  const chars = [...value.trim()].length;
  if (!editing) {
    return (
      <button type="button" class="me-name linklike" data-testid="me-name" title="Change your name"
        onClick={() => { setValue(name); setEditing(true); }}>{name}</button>
    );
  }
  const save = () => run(async () => {
    await rename(value.trim());
    setEditing(false);
    toast("Your new name is used at the tables you join from now on.", "info");
  });
  return (
    <form class="rename" data-testid="rename-form" onSubmit={(e) => { e.preventDefault(); if (chars >= 1 && chars <= 32) void save(); }}>
      <input data-testid="rename-input" autoFocus maxLength={32} value={value} aria-label="Your name"
        onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
      <button type="submit" class="btn small primary" disabled={busy || chars < 1 || chars > 32} data-testid="rename-save">Save</button>
      <button type="button" class="btn small ghost" onClick={() => setEditing(false)}>Cancel</button>
    </form>
  );
}

/**
 * Signing out everywhere: whoever copied this browser's key to the player (another device, a
 * shared computer) loses the player's seats; this tab keeps them under a new key.
 */
function AccountMenu() {
  const [open, setOpen] = useState(false);
  const [busy, run] = useBusy();
  const s = useStore();
  const go = () => run(async () => {
    await signOutEverywhere();
    setOpen(false);
    toast("Signed out everywhere: only this browser still holds your player.", "info");
  });
  return (
    <div class="alerts">
      <button type="button" class="icon-btn" data-testid="account-menu" aria-expanded={open}
        title="Your player on other devices" onClick={() => setOpen(!open)}>🔑</button>
      {open && (
        <div class="alerts-menu" data-testid="account-panel">
          <p class="muted small">Your player and its seats are kept by a key in this browser. Signing out
            everywhere gives this browser a new key: every other device or browser using the old one is
            closed and starts again as a new player.</p>
          <button type="button" class="btn small" data-testid="sign-out-everywhere"
            disabled={busy || s.connection !== "open"} onClick={() => void go()}>Sign out everywhere</button>
        </div>
      )}
    </div>
  );
}

/** What the server said about this player's other connections, until dismissed. */
function SessionNoticeBanner() {
  const s = useStore();
  const n = s.sessionNotice;
  if (!n) return null;
  const text = n.kind === SessionNoticeKind.SIGNED_OUT
    ? "Your player was signed out everywhere from another device: this tab is closed off from it."
    : `Your player was just opened on another device or tab (${n.connections} open now). If it was not you, use 🔑 Sign out everywhere.`;
  return (
    <div class="notice" role="status" data-testid="session-notice" data-kind={n.kind}>
      <span>{text}</span>
      <button type="button" class="btn small ghost" data-testid="session-notice-dismiss"
        onClick={() => { state.sessionNotice = null; changed(); }}>Dismiss</button>
    </div>
  );
}

/** The optional alerts when a table starts waiting on you in the background. */
function AlertSettings() {
  const [open, setOpen] = useState(false);
  const [, redraw] = useState(0);
  const setNotify = async (on: boolean) => {
    if (on && "Notification" in window && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission();
      if (answer !== "granted") {
        toast("The browser does not allow notifications for this site.");
        return;
      }
    }
    alerts.notify = on;
    redraw((n) => n + 1);
  };
  return (
    <div class="alerts">
      <button type="button" class="icon-btn" data-testid="alert-settings" aria-expanded={open}
        title="Alerts when it is your turn" onClick={() => setOpen(!open)}>🔔</button>
      {open && (
        <div class="alerts-menu" data-testid="alert-menu">
          <p class="muted small">When a table waits for you while this tab is in the background:</p>
          <label><input type="checkbox" data-testid="alert-sound" checked={alerts.sound}
            onChange={(e) => { alerts.sound = (e.target as HTMLInputElement).checked; redraw((n) => n + 1); }} /> play a sound</label>
          <label><input type="checkbox" data-testid="alert-notify" checked={alerts.notify}
            disabled={!("Notification" in window)}
            onChange={(e) => void setNotify((e.target as HTMLInputElement).checked)} /> show a notification</label>
        </div>
      )}
    </div>
  );
}

function Toasts() {
  const s = useStore();
  return (
    <div class="toasts" aria-live="polite">
      {s.toasts.map((t) => (
        <div key={t.id} class={`toast toast-${t.kind}`} data-testid={`toast-${t.kind}`}>{t.text}</div>
      ))}
    </div>
  );
}

export function App() {
  const route = useRoute();
  const [named, setNamed] = useState(Boolean(saved.name));
  useEffect(() => {
    if (named) connect();
  }, [named]);
  useStore();
  const currentId = route.page === "room" ? route.roomId
    : route.page === "join" ? route.roomId ?? state.joinCodes.get(route.code)
    : route.page === "watch" ? route.roomId ?? state.joinCodes.get(route.code ?? "") : undefined;
  useEffect(() => updateAttention(state.rooms.values(), currentId));
  let body;
  switch (route.page) {
    case "lobby": body = <Lobby />; break;
    case "replays": body = <ReplayList />; break;
    case "rules": body = <RulesPage key={route.game} game={route.game} />; break;
    case "room": body = <RoomPage key={`r-${route.roomId}`} roomId={route.roomId} />; break;
    case "join": body = <RoomPage key={`j-${route.roomId}-${route.code}`} roomId={route.roomId} joinCode={route.code} />; break;
    case "watch":
      body = <RoomPage key={`w-${route.code ?? route.roomId}`} roomId={route.roomId} joinCode={route.code} watchCode={route.watchCode} watch />;
      break;
    case "replay": body = <ReplayViewer key={route.gameId} route={route} />; break;
  }
  return (
    <div class="shell">
      <Header page={route.page} />
      <SessionNoticeBanner />
      <main class="content">
        {named ? body : null}
        {named && (state.connection === "closed" || (currentId !== undefined && away.has(currentId))) && (
          <div class="banner" data-testid="reconnecting">Connection lost — reconnecting…</div>
        )}
      </main>
      {!named && <NameModal onDone={(n) => { saved.name = n; setNamed(true); }} />}
      <Toasts />
      <footer class="foot">Plateau · play fair, have fun</footer>
    </div>
  );
}
