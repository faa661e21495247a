// The shell's words that issue 32 found wrong: seat counts, score units, the services' colours.
import { describe, expect, it } from "vitest";
import { SERVICE_COLOR, Service, serviceColor } from "../src/games/guerre_froide/model";
import guerreFroide from "../src/games/guerre_froide/index";
import limit from "../src/games/limit/index";
import { freeSeatsText, scoreText, seatColor } from "../src/ui/common";

describe("freeSeatsText", () => {
  it("agrees with the number of free seats", () => {
    expect(freeSeatsText(1, 3)).toBe("1 of 3 seats is free.");
    expect(freeSeatsText(2, 3)).toBe("2 of 3 seats are free.");
    expect(freeSeatsText(1, 1)).toBe("1 of 1 seat is free.");
  });
});

describe("scoreText", () => {
  it("counts in points by default, singular and plural", () => {
    expect(scoreText(1)).toBe("1 pt");
    expect(scoreText(79)).toBe("79 pts");
  });

  it("uses the unit the game's board uses", () => {
    // Guerre Froide's board and LIMIT's score sheet count victory points: "79 VP", not "79 pts".
    expect(scoreText(79, guerreFroide.scoreUnit)).toBe("79 VP");
    expect(scoreText(1, guerreFroide.scoreUnit)).toBe("1 VP");
    expect(scoreText(112, limit.scoreUnit)).toBe("112 VP");
  });
});

describe("service colours", () => {
  it("are the colours of the seats the services sit in, MI6's included", () => {
    // Seat 0 is the KGB, 1 the CIA, 2 MI6 (the engine's ServiceOf).
    expect(SERVICE_COLOR[Service.KGB]).toBe(seatColor(0));
    expect(SERVICE_COLOR[Service.CIA]).toBe(seatColor(1));
    expect(SERVICE_COLOR[Service.MI6]).toBe(seatColor(2));
    expect(serviceColor({ seat: 2 })).toBe(seatColor(2));
  });
});

describe("LIMIT's seats", () => {
  it("are called nations in the lobby's choices", () => {
    expect(limit.seatWord).toEqual({ one: "nation", many: "nations" });
  });
});
