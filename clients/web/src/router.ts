// Hash routes: #/, #/replays, #/rules/<game>, #/room/<id>, #/join/<id>/<code>, #/watch/<id>/<watch code>,
// #/watch/room/<id>, #/replay/<game_id>?step=N&seat=S&t=T; and the older code-only links,
// #/join/<code> and #/watch/<code>, which still work.
// An invitation carries the room id with its code so that the server, which never refuses a room
// id with its right code for too many wrong codes from the address, lets it in.
// `t` is a private game's replay token: the link is the key, so every link to it must keep it.
import { useEffect, useState } from "preact/hooks";

export type Route =
  | { page: "lobby" }
  | { page: "replays" }
  | { page: "rules"; game: string }
  | { page: "room"; roomId: string }
  /** An invitation to sit: a private room's join code, with its room id (older links: without). */
  | { page: "join"; code: string; roomId?: string }
  /**
   * A spectator's invitation: a room's id with its watch code (watching only), a public room's id
   * alone, or (older links) a private room's join code alone.
   */
  | { page: "watch"; code?: string; roomId?: string; watchCode?: string }
  | { page: "replay"; gameId: string; step: number | null; seat: number; token?: string };

export function parseRoute(hash: string): Route {
  const h = hash.replace(/^#/, "");
  const [pathPart, query = ""] = h.split("?");
  const parts = pathPart.split("/").filter(Boolean).map(decodeURIComponent);
  const q = new URLSearchParams(query);
  if (parts[0] === "replays") return { page: "replays" };
  if (parts[0] === "rules" && parts[1]) return { page: "rules", game: parts[1] };
  if (parts[0] === "room" && parts[1]) return { page: "room", roomId: parts[1] };
  if (parts[0] === "join" && parts[1] && parts[2]) return { page: "join", roomId: parts[1], code: parts[2] };
  if (parts[0] === "join" && parts[1]) return { page: "join", code: parts[1] };
  if (parts[0] === "watch" && parts[1] === "room" && parts[2]) return { page: "watch", roomId: parts[2] };
  if (parts[0] === "watch" && parts[1] && parts[2]) return { page: "watch", roomId: parts[1], watchCode: parts[2] };
  if (parts[0] === "watch" && parts[1]) return { page: "watch", code: parts[1] };
  if (parts[0] === "replay" && parts[1]) {
    const step = q.get("step");
    const seat = q.get("seat");
    return {
      page: "replay", gameId: parts[1],
      step: step != null && step !== "" && !isNaN(Number(step)) ? Number(step) : null,
      seat: seat != null && seat !== "" && !isNaN(Number(seat)) ? Number(seat) : -1,
      token: q.get("t") || undefined,
    };
  }
  return { page: "lobby" };
}

export function href(r: Route): string {
  switch (r.page) {
    case "lobby": return "#/";
    case "replays": return "#/replays";
    case "rules": return `#/rules/${encodeURIComponent(r.game)}`;
    case "room": return `#/room/${encodeURIComponent(r.roomId)}`;
    case "join": return `#/join/${r.roomId ? encodeURIComponent(r.roomId) + "/" : ""}${encodeURIComponent(r.code)}`;
    case "watch":
      if (r.roomId && r.watchCode) return `#/watch/${encodeURIComponent(r.roomId)}/${encodeURIComponent(r.watchCode)}`;
      return r.roomId ? `#/watch/room/${encodeURIComponent(r.roomId)}` : `#/watch/${encodeURIComponent(r.code ?? "")}`;
    case "replay": {
      const q = new URLSearchParams();
      if (r.step != null) q.set("step", String(r.step));
      if (r.seat !== -1) q.set("seat", String(r.seat));
      if (r.token) q.set("t", r.token);
      const s = q.toString();
      return `#/replay/${encodeURIComponent(r.gameId)}${s ? "?" + s : ""}`;
    }
  }
}

/** What a room's members hand on to seat a friend: a private room's id and code, a public room's id. */
export function inviteRoute(info: { room_id: string; is_private: boolean; join_code: string }): Route {
  return info.is_private && info.join_code ? { page: "join", roomId: info.room_id, code: info.join_code }
    : { page: "room", roomId: info.room_id };
}

/** What lets anyone watch and nothing more: a room's id with its watch code (a public room's id alone). */
export function watchRoute(info: { room_id: string; is_private: boolean; watch_code: string }): Route {
  return info.is_private && info.watch_code ? { page: "watch", roomId: info.room_id, watchCode: info.watch_code }
    : { page: "watch", roomId: info.room_id };
}

/**
 * An invitation that named its room by its code alone (the lobby's code field), now naming the
 * room too: the server said which with room_moved (it runs on another node, reached by naming
 * it). Null for any other route.
 */
export function namingRoom(r: Route, roomId: string): Route | null {
  return roomId && r.page === "join" && !r.roomId ? { ...r, roomId } : null;
}

export function navigate(r: Route, replace = false): void {
  const h = href(r);
  if (replace) history.replaceState(null, "", h);
  else location.hash = h;
  if (replace) window.dispatchEvent(new HashChangeEvent("hashchange"));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.hash));
    window.addEventListener("hashchange", on);
    return () => window.removeEventListener("hashchange", on);
  }, []);
  return route;
}
