// Every folder under src/games/ with an index.ts(x) default-exporting a GameUI is a game UI;
// adding a game touches only its own folder.
import type { GameUI } from "./types";

const modules = import.meta.glob<GameUI>(["./*/index.ts", "./*/index.tsx"], { eager: true, import: "default" });

const byId = new Map<string, GameUI>();
for (const ui of Object.values(modules)) byId.set(ui.id, ui);

export function gameUI(id: string): GameUI | undefined {
  return byId.get(id);
}
