import { describe, expect, it } from "vitest";
import globalissimo from "../src/games/globalissimo";
import guerreFroide from "../src/games/guerre_froide";
import limit from "../src/games/limit";

describe("how to play", () => {
  it("every game has a rules page with a summary and sections of words", () => {
    for (const ui of [globalissimo, limit, guerreFroide]) {
      const h = ui.howToPlay;
      expect(h, ui.id).toBeTruthy();
      expect(h!.summary.length).toBeGreaterThan(40);
      expect(h!.sections.length).toBeGreaterThanOrEqual(4);
      let words = 0;
      for (const s of h!.sections) {
        expect(s.heading).not.toBe("");
        expect(s.paragraphs.length + (s.list?.length ?? 0)).toBeGreaterThan(0);
        for (const text of [...s.paragraphs, ...(s.list ?? [])]) {
          expect(text.trim()).not.toBe("");
          expect(text).not.toMatch(/[<>*#`]/);  // plain words: no markup
          words += text.split(/\s+/).length;
        }
      }
      expect(words, ui.id).toBeGreaterThan(300);
    }
  });
});
