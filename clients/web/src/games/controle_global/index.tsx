// Contrôle Global's entry for the client: the board, the room's end rule, the rules page and the game's words for its scores and seats.
import type { GameUI, OptionsFormProps } from "../types";
import { Board } from "./Board";
import "./board.css";
import { howToPlay } from "./howto";
import { EndRule, type StaticData, type View } from "./model";

const END_CHOICES = [
  { value: EndRule.ONE_AT_VI, label: "One at VI", hint: "The game ends after the round in which a category reaches world level VI." },
  { value: EndRule.TWO_AT_VI, label: "Two at VI", hint: "Six players only: two categories must reach VI (other sizes play the usual end)." },
  { value: EndRule.TWO_AT_V, label: "Two at V", hint: "Three players only: the game ends when two categories are at V (other sizes play the usual end)." },
];

function OptionsForm({ value, onChange }: OptionsFormProps) {
  const current = Number(value.end_rule ?? 0) || 0;
  const chosen = END_CHOICES.find((c) => c.value === current) ?? END_CHOICES[0];
  return (
    <div class="field">
      <span>End of the game</span>
      <div class="seg" role="radiogroup" data-testid="option-end-rule">
        {END_CHOICES.map((c) => (
          <button key={c.value} type="button" class={c.value === current ? "on" : ""} aria-pressed={c.value === current}
            data-testid={`option-end-rule-${c.value}`} onClick={() => onChange({ ...value, end_rule: c.value })}>
            {c.label}
          </button>
        ))}
      </div>
      <small class="muted">{chosen.hint}</small>
    </div>
  );
}

const ui: GameUI<View, StaticData> = {
  id: "controle_global",
  emblem: "🌐",
  tagline: "Pharma giants, cults, cartels and lobbies spread their influence over the world with cards. Globalise to unlock stronger plays, but civil society strikes back.",
  Board,
  OptionsForm,
  howToPlay,
  defaultOptions: () => ({ end_rule: EndRule.ONE_AT_VI }),
  describeOptions: (o) => {
    const c = END_CHOICES.find((x) => x.value === (Number(o.end_rule ?? 0) || 0));
    return c && c.value !== EndRule.ONE_AT_VI ? `ends at ${c.label.toLowerCase()}` : "ends with one category at VI";
  },
  // Every question (a region, a player, a category, a pile) goes to the page's generic panel.
  drawsPrompt: () => false,
  scoreUnit: { one: "VP", many: "VP" },
  seatWord: { one: "organisation", many: "organisations" },
};

export default ui;
