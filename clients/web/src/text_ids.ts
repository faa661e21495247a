// The table's phrases arrive naming their template by number (Text.id: its place in the game's
// GameInfo.texts, from 1) rather than by key, so a key crosses the wire once per game instead of
// in every log entry, question and move of every Diff. They get their keys back here as they
// arrive, so everything past the connection reads keys alone.
import type { Text, TextCatalogue } from "./gen/plateau/v1/table";

const keysByCatalogue = new WeakMap<object, readonly string[]>();

/** The keys of a catalogue by number - 1 (built once per catalogue). */
export function catalogueKeys(texts: TextCatalogue | null | undefined): readonly string[] {
  if (!texts) return [];
  let keys = keysByCatalogue.get(texts);
  if (!keys) {
    keys = (texts.templates ?? []).map((t) => t.key);
    keysByCatalogue.set(texts, keys);
  }
  return keys;
}

type Keyed = Pick<Text, "key" | "args" | "id">;
const MAX_DEPTH = 8;

function keyText(t: Keyed | null | undefined, keys: readonly string[], depth: number): void {
  if (!t || depth > MAX_DEPTH) return;
  const key = t.id ? keys[t.id - 1] : undefined;
  // Only objects this update made hold a number without its key: the ones kept from the last
  // view already have theirs, so nothing a rendered board holds is written to.
  if (key !== undefined && t.key !== key) t.key = key;
  for (const a of t.args ?? []) if (a.text) keyText(a.text, keys, depth + 1);
}

interface MoveLike { label?: Keyed | null; next_label?: Keyed | null; next?: MoveLike[] | null }
function keyMoves(moves: readonly MoveLike[] | null | undefined, keys: readonly string[], depth: number): void {
  if (!moves || depth > 32) return;
  for (const m of moves) {
    keyText(m.label, keys, 0);
    keyText(m.next_label, keys, 0);
    keyMoves(m.next, keys, depth + 1);
  }
}

interface TableLike {
  log?: { text?: Keyed | null }[] | null;
  prompts?: { title?: Keyed | null; detail?: Keyed | null; options?: { label?: Keyed | null }[] | null }[] | null;
  moves?: MoveLike[] | null;
}

/** Gives the phrases of `view.table` (log, questions, moves) their keys from `keys`. */
export function keyTexts(view: object, keys: readonly string[]): void {
  if (keys.length === 0) return;
  const table = (view as { table?: TableLike | null }).table;
  if (!table) return;
  for (const e of table.log ?? []) keyText(e.text, keys, 0);
  for (const p of table.prompts ?? []) {
    keyText(p.title, keys, 0);
    keyText(p.detail, keys, 0);
    for (const o of p.options ?? []) keyText(o.label, keys, 0);
  }
  keyMoves(table.moves, keys, 0);
}
