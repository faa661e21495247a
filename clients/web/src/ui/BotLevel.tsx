import { useState } from "preact/hooks";
import { BotLevel } from "../store";

const KEY = "plateau.botLevel";

/** The level bots are added at, as the player last chose it (this browser remembers). */
export function preferredBotLevel(): number {
  return localStorage.getItem(KEY) === "normal" ? BotLevel.NORMAL : BotLevel.EASY;
}

/** Easy or normal: where the player chooses how well the bots they add play. */
export function BotLevelPicker({ onChange }: { onChange?: (level: number) => void }) {
  const [level, setLevel] = useState(preferredBotLevel);
  const choose = (next: number) => {
    localStorage.setItem(KEY, next === BotLevel.NORMAL ? "normal" : "easy");
    setLevel(next);
    onChange?.(next);
  };
  return (
    <div class="seg bot-level" role="radiogroup" aria-label="Bot level" data-testid="bot-level">
      <span class="muted">Bots:</span>
      <button type="button" class={level === BotLevel.EASY ? "on" : ""} aria-pressed={level === BotLevel.EASY}
        data-testid="bot-level-easy" title="Quick, plausible moves" onClick={() => choose(BotLevel.EASY)}>Easy</button>
      <button type="button" class={level === BotLevel.NORMAL ? "on" : ""} aria-pressed={level === BotLevel.NORMAL}
        data-testid="bot-level-normal" title="Thinks ahead before each move" onClick={() => choose(BotLevel.NORMAL)}>Normal</button>
    </div>
  );
}
