import type { GameUI, OptionsFormProps } from "../types";
import { Board } from "./Board";
import "./board.css";
import { howToPlay } from "./howto";
import type { StaticData, View } from "./model";

function OptionsForm({ value, onChange }: OptionsFormProps) {
  return (
    <div class="field">
      <span>Options</span>
      <label class="lm-opt">
        <input type="checkbox" checked={!!value.first_game} data-testid="option-first-game"
          onChange={(e) => onChange({ ...value, first_game: (e.target as HTMLInputElement).checked })} />
        First game: every nation starts with 4 $ instead of 5 $
      </label>
      <label class="lm-opt">
        <input type="checkbox" checked={!!value.alliances} data-testid="option-alliances"
          onChange={(e) => onChange({ ...value, alliances: (e.target as HTMLInputElement).checked })} />
        Alliance step in the international phase (not in solo)
      </label>
    </div>
  );
}

const ui: GameUI<View, StaticData> = {
  id: "limit",
  emblem: "🌡️",
  tagline: "Lead a nation from 1850 to 2060: feed it, make it prosper, keep order — and stay within the planet's limits. Solo or up to six.",
  Board,
  OptionsForm,
  howToPlay,
  defaultOptions: () => ({ first_game: false, alliances: false }),
  describeOptions: (o) => [o.first_game ? "first game (4 $)" : "", o.alliances ? "alliances" : ""].filter(Boolean).join(" · ") ||
    "the book's rules",
  // The board asks every core question itself, with the generic panel placed at the top of the
  // board (not under it, a long scroll away) and the cards and facts of the decision beside it.
  drawsPrompt: () => true,
  scoreUnit: { one: "VP", many: "VP" },
  seatWord: { one: "nation", many: "nations" },
};

export default ui;
