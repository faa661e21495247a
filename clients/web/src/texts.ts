// The games' text catalogues, read from the engine's own data files (engine/games/<game>/data/
// texts.textproto, imported as raw text at build time like the .proto files in proto.ts): the
// server and the client put the same phrases into the same words, from one source.
//
// The files are protobuf text format of plateau.v1.TextCatalogue. The reader below takes what
// protobuf's TextFormat takes for that message (comments, `:` before a block or not, `{}` or
// `<>`, either quote, escapes, adjacent strings joined, `,`/`;` separators) and skips any other
// field, so a file the server loads is one the client reads.
import type { TextCatalogue, TextTemplate } from "./table";

export class TextFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TextFormatError";
  }
}

type Token = { kind: "ident" | "string" | "punct" | "other"; text: string; at: number };

const utf8 = new TextEncoder();

/** A quoted string's value: escapes give bytes (\303\251 is "é" in UTF-8), decoded at the end. */
function unquote(body: string, at: number): string {
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== "\\") {
      // Whole code points: a surrogate pair must reach the encoder together.
      const cp = body.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      bytes.push(...utf8.encode(ch));
      i += ch.length - 1;
      continue;
    }
    const e = body[++i];
    const simple: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, "\\": 92, "'": 39, '"': 34, "?": 63 };
    if (e in simple) {
      bytes.push(simple[e]);
    } else if (e === "x" || e === "X") {
      const m = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 1));
      if (!m) throw new TextFormatError(`bad \\x escape at ${at}`);
      bytes.push(parseInt(m[0], 16));
      i += m[0].length;
    } else if (/[0-7]/.test(e)) {
      const m = /^[0-7]{1,3}/.exec(body.slice(i))!;
      bytes.push(parseInt(m[0], 8) & 0xff);
      i += m[0].length - 1;
    } else if (e === "u" || e === "U") {
      const n = e === "u" ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + n);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== n) throw new TextFormatError(`bad \\${e} escape at ${at}`);
      bytes.push(...utf8.encode(String.fromCodePoint(parseInt(hex, 16))));
      i += n;
    } else {
      throw new TextFormatError(`unknown escape \\${e} at ${at}`);
    }
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(new Uint8Array(bytes));
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === "#") {
      while (i < src.length && src[i] !== "\n") i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (c === '"' || c === "'") {
      const start = i++;
      let body = "";
      while (i < src.length && src[i] !== c) {
        if (src[i] === "\n") throw new TextFormatError(`string broken by a new line at ${start}`);
        if (src[i] === "\\") body += src[i++];
        body += src[i++];
      }
      if (i >= src.length) throw new TextFormatError(`unterminated string at ${start}`);
      i++;
      out.push({ kind: "string", text: unquote(body, start), at: start });
    } else if (/[A-Za-z_]/.test(c)) {
      const start = i;
      while (i < src.length && /[A-Za-z0-9_.]/.test(src[i])) i++;
      out.push({ kind: "ident", text: src.slice(start, i), at: start });
    } else if ("{}<>:;,[]".includes(c)) {
      out.push({ kind: "punct", text: c, at: i++ });
    } else {
      // Numbers and the like: only ever the value of a field we skip.
      const start = i;
      while (i < src.length && !/[\s{}<>:;,[\]#"']/.test(src[i])) i++;
      out.push({ kind: "other", text: src.slice(start, i), at: start });
    }
  }
  return out;
}

class Reader {
  private i = 0;
  constructor(private readonly t: Token[]) {}

  done(): boolean {
    return this.i >= this.t.length;
  }
  peek(): Token | undefined {
    return this.t[this.i];
  }
  next(): Token {
    const tok = this.t[this.i++];
    if (!tok) throw new TextFormatError("unexpected end of text");
    return tok;
  }
  isPunct(p: string): boolean {
    const tok = this.peek();
    return !!tok && tok.kind === "punct" && tok.text === p;
  }
  skipSeparator(): void {
    if (this.isPunct(",") || this.isPunct(";")) this.i++;
  }

  /** After a field name: the opening of a block (its closer), or null for a scalar value. */
  blockOpen(): string | null {
    if (this.isPunct(":")) this.i++;
    if (this.isPunct("{")) { this.i++; return "}"; }
    if (this.isPunct("<")) { this.i++; return ">"; }
    return null;
  }

  /** A string value (adjacent strings joined). */
  string(): string {
    let s = "";
    let any = false;
    while (this.peek()?.kind === "string") {
      s += this.next().text;
      any = true;
    }
    if (!any) throw new TextFormatError(`a string expected at ${this.peek()?.at ?? "end"}`);
    return s;
  }

  /** Skips the value of a field we do not read. */
  skipValue(close: string | null): void {
    if (close) {
      this.skipFields(close);
      return;
    }
    if (this.isPunct("[")) {
      this.i++;
      while (!this.isPunct("]")) {
        const c = this.blockOpen();
        this.skipValue(c);
        if (this.isPunct(",")) this.i++;
      }
      this.i++;
      return;
    }
    if (this.peek()?.kind === "string") {
      this.string();
      return;
    }
    const tok = this.next();
    if (tok.kind === "punct") throw new TextFormatError(`a value expected at ${tok.at}`);
    // A signed number comes as "-" "1" in some writers; the "-" is glued here already.
  }

  skipFields(close: string): void {
    while (!this.isPunct(close)) {
      const name = this.next();
      if (name.kind !== "ident") throw new TextFormatError(`a field name expected at ${name.at}`);
      this.skipValue(this.blockOpen());
      this.skipSeparator();
    }
    this.i++;
  }
}

/** Reads a TextCatalogue in protobuf text format (engine/games/<game>/data/texts.textproto). */
export function parseTextCatalogue(src: string): TextCatalogue {
  const r = new Reader(tokenize(src));
  const templates: TextTemplate[] = [];
  while (!r.done()) {
    const name = r.next();
    if (name.kind !== "ident") throw new TextFormatError(`a field name expected at ${name.at}`);
    const close = r.blockOpen();
    if (name.text !== "templates") {
      r.skipValue(close);
      r.skipSeparator();
      continue;
    }
    if (!close) throw new TextFormatError(`templates must be a message, at ${name.at}`);
    const t: TextTemplate = { key: "", en: "" };
    while (!r.isPunct(close)) {
      const f = r.next();
      if (f.kind !== "ident") throw new TextFormatError(`a field name expected at ${f.at}`);
      const inner = r.blockOpen();
      if ((f.text === "key" || f.text === "en") && !inner) t[f.text] = r.string();
      else r.skipValue(inner);
      r.skipSeparator();
    }
    r.next();
    r.skipSeparator();
    templates.push(t);
  }
  return { templates };
}

// ----- the engine's catalogues, by game id -----

const files = import.meta.glob("../../../engine/games/*/data/texts.textproto", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

const byGame = new Map<string, TextCatalogue>();
for (const [path, text] of Object.entries(files)) {
  const m = /engine\/games\/([^/]+)\/data\/texts\.textproto$/.exec(path);
  if (!m) continue;
  try {
    byGame.set(m[1], parseTextCatalogue(text));
  } catch (e) {
    // One bad file must not take every game's page down: its phrases then show as their keys.
    console.error(`${path}: ${(e as Error).message}`);
  }
}

/** The templates the engine has for a game (undefined: none), by game id. */
export function engineTexts(gameId: string): TextCatalogue | undefined {
  return byGame.get(gameId);
}
