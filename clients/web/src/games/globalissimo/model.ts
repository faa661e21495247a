// Enum values of proto/games/globalissimo.proto, and small helpers over the decoded View.
export const Phase = { UNSPECIFIED: 0, PLACEMENT: 1, QUESTION: 2, GAME_OVER: 3 } as const;
export const Barrier = { NONE: 0, ORANGE: 1, VIOLET: 2 } as const;

export function playerName(names: string[], seat: number): string {
  return names[seat] ?? `Seat ${seat + 1}`;
}

// The engine does not know player names: its log says "Seat N" (1-based). Put the names back.
export function withNames(text: string, names: string[]): string {
  return text.replace(/\bSeat (\d+)\b/g, (whole, n) => names[Number(n) - 1] ?? whole);
}

export function ordinal(n: number): string {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}
