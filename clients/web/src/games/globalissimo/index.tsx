import type { GameUI, OptionsFormProps } from "../types";
import { Board } from "./Board";
import { questionForm, type StaticData, type View } from "./model";
import "./board.css";
import { howToPlay } from "./howto";

function OptionsForm({ value, onChange }: OptionsFormProps) {
  const rounds = Number(value.rounds ?? 10) || 10;
  return (
    <label class="field">
      <span>Rounds: <b data-testid="rounds-value">{rounds}</b> {rounds === 10 ? "(the full game)" : "(a shorter game)"}</span>
      <input type="range" min={1} max={10} value={rounds} data-testid="option-rounds"
        onInput={(e) => onChange({ ...value, rounds: Number((e.target as HTMLInputElement).value) })} />
    </label>
  );
}

const ui: GameUI<View, StaticData> = {
  id: "globalissimo",
  emblem: "🌍",
  tagline: "Which country has more people, a longer coastline or a higher summit? Rank the nations, then cross the barriers with your geography.",
  Board,
  OptionsForm,
  howToPlay,
  defaultOptions: () => ({ rounds: 10 }),
  describeOptions: (o) => {
    const rounds = Number(o.rounds ?? 0) || 10;
    return rounds === 10 ? "10 rounds (the full game)" : `${rounds} round${rounds === 1 ? "" : "s"} (a shorter game)`;
  },
  drawsPrompt: (prompt, view) => questionForm(view, prompt) != null,
};

export default ui;
