// Contrôle Global's card and faction words over the game's real data (engine/games/controle_global/data, encoded with protoc as the gen script uses it): every effect of the 96 cards and every power reads in full.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { effectLines, needsWords, pileWord, powerWords, type StaticData } from "../src/games/controle_global/model";
import { decode, type } from "../src/proto";
import type { TextCatalogue } from "../src/table";
import { makeCatalogue } from "../src/ui/TextRender";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const dataDir = join(repo, "engine", "games", "controle_global", "data");

function encoded(file: string, message: string): Uint8Array {
  return execFileSync("protoc", [`--encode=${message}`, `-I${join(repo, "proto")}`, "games/controle_global.proto", "plateau/v1/table.proto"],
    { input: readFileSync(join(dataDir, file)) });
}

// The engine merges the data files; protobuf reads concatenated messages as their merge.
const parts = ["cards.textproto", "factions.textproto", "world.textproto"].map((f) => encoded(f, "plateau.games.controle_global.StaticData"));
const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
parts.reduce((at, p) => { all.set(p, at); return at + p.length; }, 0);
const data = decode<StaticData>(type("plateau.games.controle_global.StaticData"), all);
const texts = decode<TextCatalogue>(type("plateau.v1.TextCatalogue"), encoded("texts.textproto", "plateau.v1.TextCatalogue"));
const scope = { catalogue: makeCatalogue(texts), names: ["Ann", "Bob", "Cy"], viewer: 0 };
const BAD = /…|undefined|NaN|\[controle_global|\bnull\b|^\s*$/;

describe("Contrôle Global's words over the real data", () => {
  it("reads every effect of every card, civil society included", () => {
    expect(data.cards.length).toBe(96);
    let effects = 0;
    for (const card of data.cards) {
      for (const e of [...card.effects, ...(card.civil ? [card.civil] : [])]) {
        const { picks, steps } = effectLines(e, scope);
        expect(steps.length, `${card.id}: ${e.name}`).toBe(e.steps.length);
        for (const line of [...picks, ...steps]) expect(line, `${card.id}: ${e.name}`).not.toMatch(BAD);
        if (card.effects.includes(e)) expect(needsWords(e, scope), `${card.id}: ${e.name}`).toMatch(/^[A-Z][a-z]+ [IV]+( \+ [A-Z][a-z]+ [IV]+)*$/);
        effects++;
      }
    }
    expect(effects).toBeGreaterThan(96);
  });

  it("names the piles and the factions' powers with the catalogue's words", () => {
    expect(data.piles.map((p) => pileWord(scope, p)).slice(0, 2)).toEqual(["Politics I–III", "Politics IV–VI"]);
    expect(data.factions.length).toBe(6);
    for (const f of data.factions) expect(powerWords(f, scope), f.id).not.toMatch(BAD);
    expect(powerWords(data.factions.find((f) => f.id === "fundamentalists"), scope)).toBe("adding a cube of Religions or Military by investment costs 1");
    expect(powerWords(data.factions.find((f) => f.id === "cult"), scope)).toBe("gains 1 food for each cube civil society takes from them");
    expect(powerWords(data.factions.find((f) => f.id === "cartel"), scope))
      .toBe("at the start of each of their turns, takes 1 resource from each other player present in a region where they hold more Military cubes than that player (the type that player holds most)");
  });
});
