import type { GameUI, OptionsFormProps } from "../types";
import { Board } from "./Board";
import "./board.css";

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

const ui: GameUI = {
  id: "limit",
  emblem: "🌡️",
  tagline: "Lead a nation from 1850 to 2060: feed it, make it prosper, keep order — and stay within the planet's limits. Solo or up to six.",
  Board,
  OptionsForm,
  defaultOptions: () => ({ first_game: false, alliances: false }),
  // The board asks each of a nation's decisions in its own forms (view.prompts), the core's
  // question for the same decision included.
  drawsPrompt: (prompt, view) => (view.prompts ?? []).some((p: any) => p.seat === prompt.seat),
};

export default ui;
