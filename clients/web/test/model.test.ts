import { describe, expect, it } from "vitest";
import { withNames } from "../src/games/globalissimo/model";

describe("withNames", () => {
  it("replaces the engine's 1-based seat labels with player names", () => {
    expect(withNames("Seat 1 places tile 3 on Peru. Seat 2: rank 1", ["Alice", "Bob"]))
      .toBe("Alice places tile 3 on Peru. Bob: rank 1");
  });
  it("keeps a label it has no name for, and leaves longer numbers alone", () => {
    expect(withNames("Seat 3 answers", ["Alice"])).toBe("Seat 3 answers");
    expect(withNames("Seat 12x", ["A"])).toBe("Seat 12x");
  });
});
