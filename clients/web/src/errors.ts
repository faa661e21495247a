// What a player reads when the server refuses something. The server's reason is a sentence
// already; the codes below are about the player's pace or the server's state rather than the
// request, so the client says what to do in its own words, keeping the server's sentence where it
// carries the only useful detail (how long to wait, how many rooms are open).

const WORDS: Record<string, (reason: string) => string> = {
  rate_limited: () => "You are going too fast for the server. Wait a moment, then try again.",
  chat_rate_limited: () => "You are sending messages too fast. Wait a few seconds before the next one.",
  too_many_rooms: (reason) =>
    `You cannot open another room right now. ${reason || "Leave or finish one of yours, or try again later."}`,
  code_lockout: (reason) => reason || "Too many wrong room codes. Wait a few minutes before trying another.",
  shutting_down: () => "The server is restarting. You will be reconnected in a moment.",
  room_moved: () => "This game moved to another server. Reconnecting…",
};

export function describeError(code: string, reason: string): string {
  const words = WORDS[code];
  return words ? words(reason) : reason || code;
}
