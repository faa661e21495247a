import { describe, expect, it } from "vitest";
import globalissimo from "../src/games/globalissimo";
import guerreFroide from "../src/games/guerre_froide";
import limit from "../src/games/limit";

describe("a room's options in the lobby", () => {
  it("says each game's options in words, defaults included", () => {
    expect(globalissimo.describeOptions!({})).toBe("10 rounds (the full game)");
    expect(globalissimo.describeOptions!({ rounds: 1 })).toBe("1 round (a shorter game)");
    expect(globalissimo.describeOptions!({ rounds: 4 })).toBe("4 rounds (a shorter game)");
    expect(limit.describeOptions!({})).toBe("the book's rules");
    expect(limit.describeOptions!({ first_game: true, alliances: true })).toBe("first game (4 $) · alliances");
    expect(guerreFroide.describeOptions!({})).toBe("no Cryptographer");
    expect(guerreFroide.describeOptions!({ cryptographer: 1 })).toBe("Cryptographer: draw version");
    expect(guerreFroide.describeOptions!({ cryptographer: 2 })).toBe("Cryptographer: bias version");
  });

  it("describes every game's default options", () => {
    for (const ui of [globalissimo, limit, guerreFroide]) {
      expect(ui.describeOptions?.(ui.defaultOptions()) ?? "").not.toBe("");
    }
  });
});
