import { describe, expect, it } from "vitest";
import { lowerNames, setValues, unprefixed } from "../src/enums";
import { root } from "../src/proto";
import protobuf from "protobufjs";
import * as gf from "../src/games/guerre_froide/model";
import * as limit from "../src/games/limit/model";
import { BOT_LEVEL_NAME, BotLevel, RoomStatus } from "../src/store";

// Every generated module, with the package its enums belong to.
const modules = import.meta.glob<Record<string, unknown>>("../src/gen/**/*.ts", { eager: true });

describe("the generated enums", () => {
  it("are the enums the client parses from the .proto files at run time, value for value", () => {
    let checked = 0;
    for (const [file, mod] of Object.entries(modules)) {
      const pkg = mod.protobufPackage as string;
      for (const [name, e] of Object.entries(mod)) {
        if (typeof e !== "object" || e === null || !("UNRECOGNIZED" in e)) continue;
        const parsed = root.lookup(`${pkg}.${name}`);
        expect(parsed, `${file}: ${name}`).toBeInstanceOf(protobuf.Enum);
        const values = Object.fromEntries(Object.entries(e).filter(([k, v]) => typeof v === "number" && k !== "UNRECOGNIZED"));
        expect(values, `${pkg}.${name}`).toEqual((parsed as protobuf.Enum).values);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe("short names", () => {
  enum Colour { COLOUR_UNSPECIFIED = 0, COLOUR_RED = 1, COLOUR_DARK_BLUE = 2, UNRECOGNIZED = -1 }

  it("drop the prefix and leave UNRECOGNIZED out", () => {
    expect(unprefixed(Colour, "COLOUR_")).toEqual({ UNSPECIFIED: 0, RED: 1, DARK_BLUE: 2 });
  });

  it("name every set value in lower case, and list them", () => {
    expect(lowerNames(Colour, "COLOUR_")).toEqual({ 1: "red", 2: "dark_blue" });
    expect(setValues(Colour, "COLOUR_")).toEqual([1, 2]);
  });

  it("keep the values and words the client used before the enums were generated", () => {
    expect(RoomStatus).toEqual({ UNSPECIFIED: 0, WAITING: 1, PLAYING: 2, FINISHED: 3 });
    expect(BotLevel.EASY).toBe(1);
    expect(BOT_LEVEL_NAME).toEqual({ 1: "easy", 2: "normal" });
    expect(gf.SERVICE_NAME).toEqual({ 1: "CIA", 2: "KGB", 3: "MI6" });
    expect(gf.FACTION_SLUG).toEqual({ 1: "military", 2: "economic", 3: "media", 4: "political" });
    expect(gf.FACTIONS).toEqual([1, 2, 3, 4]);
    expect(gf.AgentStatus.X).toBe(3);
    expect(limit.RESOURCE_LETTER).toEqual({ 1: "R", 2: "I", 3: "M", 4: "F" });
    expect(limit.PROMPT_SLUG[limit.PromptKind.CHOOSE_DECK]).toBe("choose_deck");
    expect(limit.PROMPT_SLUG[limit.PromptKind.REMOVE_AGRICULTURE]).toBe("remove_agriculture");
    expect(limit.FACTORY_NAME).toEqual({ 1: "renewable", 2: "industrial", 3: "military" });
    expect(limit.DECKS).toEqual([1, 2, 3]);
  });
});
