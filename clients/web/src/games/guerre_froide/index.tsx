import type { GameUI, OptionsFormProps } from "../types";
import { Board } from "./Board";
import { Cryptographer, type StaticData, type View } from "./model";
import "./board.css";
import { howToPlay } from "./howto";

const CRYPTOGRAPHER_CHOICES = [
  { value: Cryptographer.NONE, label: "None", hint: "The usual line-up of agents." },
  { value: Cryptographer.DRAW, label: "Draw version", hint: "Agent #7 draws a group: influence 4 to 6 scores 5 VP." },
  { value: Cryptographer.BIAS, label: "Bias version", hint: "Agent #7 turns over a group: the objective's largest bias scores 10 VP." },
];

function OptionsForm({ value, onChange }: OptionsFormProps) {
  const current = Number(value.cryptographer ?? 0) || 0;
  const chosen = CRYPTOGRAPHER_CHOICES.find((c) => c.value === current) ?? CRYPTOGRAPHER_CHOICES[0];
  return (
    <div class="field">
      <span>Cryptographer (an extra agent for every service)</span>
      <div class="seg" role="radiogroup" data-testid="option-cryptographer">
        {CRYPTOGRAPHER_CHOICES.map((c) => (
          <button key={c.value} type="button" class={c.value === current ? "on" : ""} aria-pressed={c.value === current}
            data-testid={`option-cryptographer-${c.value}`} onClick={() => onChange({ ...value, cryptographer: c.value })}>
            {c.label}
          </button>
        ))}
      </div>
      <small class="muted">{chosen.hint}</small>
    </div>
  );
}

const ui: GameUI<View, StaticData> = {
  id: "guerre_froide",
  emblem: "🕵️",
  tagline: "CIA against KGB — and MI6 for three. Buy influence in the world's hot spots without tipping them over, then let your secret agent turn the debriefing upside down.",
  Board,
  OptionsForm,
  howToPlay,
  defaultOptions: () => ({ cryptographer: 0 }),
  describeOptions: (o) => {
    const c = CRYPTOGRAPHER_CHOICES.find((x) => x.value === (Number(o.cryptographer ?? 0) || 0));
    return c && c.value !== Cryptographer.NONE ? `Cryptographer: ${c.label.toLowerCase()}` : "no Cryptographer";
  },
  // Every question (a Media card, the Analyst's order, the Double Agent, targets, Nobel, Space
  // Race, the balance token) goes to the generic panel; the board shows the cards looked at.
  drawsPrompt: () => false,
  scoreUnit: { one: "VP", many: "VP" },
};

export default ui;
