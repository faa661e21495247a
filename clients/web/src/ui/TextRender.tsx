// Puts a plateau.v1.Text into words with a game's TextCatalogue, like Catalogue::Render in
// engine/core/table.cc (same placeholders, same plural rule, same marks for what is missing), with
// the players' names for seats. The catalogue is the server's (GameInfo.texts of list_games, the
// core's templates included): the client holds no words of its own for a game.
//
// Templates (table.proto): `{0}` the first argument; `{1|rank|ranks}` the second argument's number
// then the singular or plural word; `{0|card|cards|-}` the word alone. The pure functions come
// first; <Txt> renders the same words with each seat in its colour.
import { createContext, type ComponentChildren } from "preact";
import { useContext, useMemo } from "preact/hooks";
import { argCase, int64String, toNumber, type Arg, type Text, type TextCatalogue, type TextTemplate } from "../table";
import { seatColor } from "./common";

/** Templates by key. */
export type Catalogue = ReadonlyMap<string, string>;

export type CatalogueSource = TextCatalogue | readonly TextTemplate[] | Readonly<Record<string, string>>;

function addTemplates(out: Map<string, string>, src: CatalogueSource | null | undefined): void {
  if (!src) return;
  const list = Array.isArray(src) ? src : Array.isArray((src as TextCatalogue).templates) ? (src as TextCatalogue).templates : null;
  if (list) {
    // A list is the server's catalogue: its templates are also named by number (Text.id, from 1),
    // for a phrase that arrived before its keys could be given back (text_ids.ts).
    (list as readonly TextTemplate[]).forEach((t, i) => {
      out.set(t.key, t.en);
      if (!out.has(`#${i + 1}`)) out.set(`#${i + 1}`, t.en);
    });
  } else {
    for (const [k, v] of Object.entries(src as Record<string, string>)) out.set(k, v);
  }
}

/** A catalogue from the sources in order (a later source's key wins). */
export function makeCatalogue(...sources: (CatalogueSource | null | undefined)[]): Catalogue {
  const out = new Map<string, string>();
  for (const s of sources) addTemplates(out, s);
  return out;
}

const catalogues = new WeakMap<object, Catalogue>();
const EMPTY_CATALOGUE = makeCatalogue();

/** makeCatalogue(src), built once per source object (a game's texts do not change). */
export function catalogueFor(src: CatalogueSource | null | undefined): Catalogue {
  if (!src) return EMPTY_CATALOGUE;
  let c = catalogues.get(src);
  if (!c) {
    c = makeCatalogue(src);
    catalogues.set(src, c);
  }
  return c;
}

export interface TextScope {
  catalogue: Catalogue;
  /** Display names per seat. */
  names: readonly string[];
  /**
   * The seat the words are written for, -1 for a spectator. Its runs are marked (`you`), not
   * reworded: templates are written for names, and "you" would not agree with their verbs.
   */
  viewer: number;
}

/** A run of words; `seat` is set when the run names a seat (so a UI can colour it). */
export interface TextPart {
  text: string;
  seat?: number;
  /** The run names the viewer's own seat (set only then). */
  you?: boolean;
}

export function seatName(seat: number, scope: Pick<TextScope, "names">): string {
  return scope.names[seat] || `Seat ${seat + 1}`;
}

interface Placeholder { index: number; one: string; many: string; plural: boolean; wordOnly: boolean }

// The same grammar as ParsePlaceholder: an index of one or two digits, then nothing, two words,
// or two words and "-".
function parsePlaceholder(body: string): Placeholder | null {
  const parts = body.split("|");
  if (!/^[0-9]{1,2}$/.test(parts[0])) return null;
  const index = Number(parts[0]);
  if (parts.length === 1) return { index, one: "", many: "", plural: false, wordOnly: false };
  if (parts.length !== 3 && !(parts.length === 4 && parts[3] === "-")) return null;
  return { index, one: parts[1], many: parts[2], plural: true, wordOnly: parts.length === 4 };
}

/** What is wrong with a template's placeholders (CheckTemplate's words), or "". */
export function templateProblem(tmpl: string): string {
  for (let i = tmpl.indexOf("{"); i >= 0; i = tmpl.indexOf("{", i + 1)) {
    const close = tmpl.indexOf("}", i);
    if (close < 0 || !parsePlaceholder(tmpl.slice(i + 1, close))) return "a placeholder is not {N}, {N|one|many} or {N|one|many|-}";
    i = close;
  }
  return "";
}

// A phrase nested deeper than this is cut: the view comes from the network.
const MAX_DEPTH = 16;

function argParts(a: Arg, scope: TextScope, out: TextPart[], depth: number): void {
  switch (argCase(a)) {
    case "number": out.push({ text: int64String(a.number) }); return;
    case "seat": {
      const seat = a.seat ?? 0;
      const part: TextPart = { text: seatName(seat, scope), seat };
      if (seat === scope.viewer && seat >= 0) part.you = true;
      out.push(part);
      return;
    }
    case "name": out.push({ text: a.name ?? "" }); return;
    case "text": textParts(a.text, scope, out, depth + 1); return;
    default: return;
  }
}

function textParts(t: Text | null | undefined, scope: TextScope, out: TextPart[], depth: number): void {
  if (!t) return;
  if (depth > MAX_DEPTH) {
    out.push({ text: "…" });
    return;
  }
  const args = t.args ?? [];
  const key = t.key || (t.id ? `#${t.id}` : "");
  const tmpl = scope.catalogue.get(key);
  if (tmpl == null) {
    // A missing template shows as its key and arguments rather than hiding the entry.
    out.push({ text: `[${key}` });
    for (const a of args) {
      out.push({ text: " " });
      argParts(a, scope, out, depth);
    }
    out.push({ text: "]" });
    return;
  }
  let i = 0;
  while (i < tmpl.length) {
    const open = tmpl.indexOf("{", i);
    if (open < 0) {
      out.push({ text: tmpl.slice(i) });
      break;
    }
    if (open > i) out.push({ text: tmpl.slice(i, open) });
    const close = tmpl.indexOf("}", open);
    const p = close < 0 ? null : parsePlaceholder(tmpl.slice(open + 1, close));
    if (!p) {
      // The server refuses such a catalogue; should one get through, the words stay readable.
      out.push({ text: close < 0 ? tmpl.slice(open) : tmpl.slice(open, close + 1) });
      if (close < 0) break;
      i = close + 1;
      continue;
    }
    i = close + 1;
    if (p.index >= args.length) {
      out.push({ text: "{?}" });
      continue;
    }
    const a = args[p.index];
    if (!p.plural) {
      argParts(a, scope, out, depth);
      continue;
    }
    // As on the server: anything but a number counts as 0, and only ±1 is singular.
    const isNumber = argCase(a) === "number";
    const n = isNumber ? toNumber(a.number) : 0;
    const count = isNumber ? int64String(a.number) : "0";
    out.push({ text: `${p.wordOnly ? "" : `${count} `}${n === 1 || n === -1 ? p.one : p.many}` });
  }
}

/** The words of `t`, in runs; adjacent plain runs are merged. */
export function renderTextParts(t: Text | null | undefined, scope: TextScope): TextPart[] {
  const raw: TextPart[] = [];
  textParts(t, scope, raw, 0);
  const out: TextPart[] = [];
  for (const p of raw) {
    if (p.text === "") continue;
    const last = out[out.length - 1];
    if (last && last.seat == null && p.seat == null) last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}

/** The words of `t` as one string. */
export function renderText(t: Text | null | undefined, scope: TextScope): string {
  return renderTextParts(t, scope).map((p) => p.text).join("");
}

// ----- components -----

const EMPTY_SCOPE: TextScope = { catalogue: EMPTY_CATALOGUE, names: [], viewer: -1 };

/** What <Txt> writes with: provided once by the page around a board. */
export const TextContext = createContext<TextScope>(EMPTY_SCOPE);

export function TextProvider({ scope, children }: { scope: TextScope; children: ComponentChildren }) {
  return <TextContext.Provider value={scope}>{children}</TextContext.Provider>;
}

export function useTextScope(): TextScope {
  return useContext(TextContext);
}

/**
 * The scope a page provides around a game's board: the same object while the game, the names
 * and the viewer stay, so memoised lines and labels under it are not re-rendered for nothing.
 */
export function useTextScopeFor(texts: CatalogueSource | null | undefined, names: readonly string[], viewer: number): TextScope {
  const catalogue = catalogueFor(texts);
  // Names come as a fresh array on every render: compare them by content.
  const namesKey = names.join("\u0000");
  return useMemo(() => ({ catalogue, names: [...names], viewer }), [catalogue, namesKey, viewer]);
}

/** A Text in words, seats in their colours, the viewer's own seat emphasised. */
export function Txt({ text, scope }: { text: Text | null | undefined; scope?: TextScope }) {
  const ctx = useTextScope();
  const parts = renderTextParts(text, scope ?? ctx);
  return (
    <>
      {parts.map((p, i) => p.seat == null ? p.text : (
        <span key={i} class={p.you ? "txt-seat txt-you" : "txt-seat"} style={{ color: seatColor(p.seat) }}>{p.text}</span>
      ))}
    </>
  );
}
