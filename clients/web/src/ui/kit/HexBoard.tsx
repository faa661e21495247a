// The kit's hex board: a map of hexes (HexGrid over ui/hex.ts: pan, zoom, keyboard) with the
// pieces a seat sees (plateau.v1.PieceView) drawn on their hexes in their owner's colour, with
// their kind, their damage, and the look of a piece whose face is hidden; the targets of the
// current move choices are highlighted, and a click is reported as the target it stands for.
import type * as pb from "../../gen/plateau/v1/pieces";
import type { Msg } from "../../proto";
import type { Target } from "../../table";
import { seatColor } from "../common";
import { hexKey, type Hex } from "../hex";
import { HexGrid } from "../HexGrid";
import { moveTargets, type MoveChoice } from "./moves";

export type PieceView = Msg<pb.PieceView>;

/** A piece's health as the board draws it: hit points left of the most it can have. */
export interface Health {
  hp: number;
  max: number;
}

export interface HexBoardProps {
  /** The hexes of the map. */
  hexes: readonly Hex[];
  /** The pieces the viewer sees; those placed on a hex are drawn. */
  pieces: readonly PieceView[];
  /** The choices open now (a pick's `choices`): their hex and piece targets are highlighted. */
  choices?: readonly MoveChoice[];
  /** The terrain colour of a hex. */
  terrain?: (h: Hex) => string;
  /** A piece's kind in a few letters ("Tk"); `kind` is 0 for one the viewer does not know. */
  kindLabel?: (kind: number, back: number) => string;
  /** A piece's health, from the game's attrs; none drawn when null. */
  health?: (p: PieceView) => Health | null;
  /** A click (or Enter) on a hex: a target piece standing there if any, else the hex. */
  onTarget?: (t: Target) => void;
  size?: number;
  ariaLabel?: string;
}

/** The pieces on each hex (by hexKey), stacked in their place's order. */
export function piecesByHex(pieces: readonly PieceView[]): Map<string, PieceView[]> {
  const out = new Map<string, PieceView[]>();
  for (const p of pieces) {
    const h = p.place?.hex;
    if (!h) continue;
    const k = hexKey(h);
    const list = out.get(k) ?? [];
    list.push(p);
    out.set(k, list);
  }
  for (const list of out.values()) list.sort((a, b) => (a.place?.index ?? 0) - (b.place?.index ?? 0));
  return out;
}

/**
 * What a click on hex `h` stands for among the open choices: the first piece there that a choice
 * targets (a unit to move or to fire at), else the hex itself.
 */
export function hexClickTarget(h: Hex, onHex: readonly PieceView[] | undefined, targetPieces: ReadonlySet<string>): Target {
  const piece = onHex?.find((p) => targetPieces.has(p.handle));
  return piece ? { piece: piece.handle } : { hex: { q: h.q, r: h.r } };
}

const defaultKind = (kind: number) => (kind ? String(kind) : "?");

export function HexBoard({ hexes, pieces, choices = [], terrain, kindLabel = defaultKind, health, onTarget, size = 32, ariaLabel = "Board" }: HexBoardProps) {
  const targets = moveTargets(choices);
  const byHex = piecesByHex(pieces);
  // What a piece is highlighted by: a target itself, or standing on a target hex.
  const renderKey = `${[...targets.pieces].join()}|${pieces.length}|${pieces.map((p) => p.handle).join()}`;
  return (
    <div class="kit-hexboard" data-testid="hex-board">
      <HexGrid<Hex>
        cells={hexes} hexOf={(h) => h} size={size} ariaLabel={ariaLabel} renderKey={renderKey}
        fill={terrain} highlighted={targets.hexes}
        onSelect={onTarget ? (h) => onTarget(hexClickTarget(h, byHex.get(hexKey(h)), targets.pieces)) : undefined}
        describe={(h) => {
          const list = byHex.get(hexKey(h)) ?? [];
          return `${hexKey(h)}${list.length ? `: ${list.map((p) => kindLabel(p.kind, p.back)).join(", ")}` : ""}`;
        }}
        renderCell={(h, center, s) => {
          const list = byHex.get(hexKey(h)) ?? [];
          return list.map((p, i) => {
            const r = s * 0.42;
            const dx = (i - (list.length - 1) / 2) * r * 0.9;
            const hp = p.kind ? health?.(p) ?? null : null;
            const hidden = p.face_down || p.kind === 0;
            return (
              <g key={p.handle} class={`kit-piece ${hidden ? "face-down" : ""} ${targets.pieces.has(p.handle) ? "target" : ""}`}
                data-testid="piece" data-handle={p.handle} data-owner={p.owner} data-kind={p.kind}
                transform={`translate(${center.x + dx},${center.y})`}>
                <circle r={r} fill={p.owner >= 0 ? seatColor(p.owner) : "#888"} class="kit-piece-body" />
                <text class="kit-piece-kind" y={r * 0.35} text-anchor="middle">{hidden && !p.kind ? "?" : kindLabel(p.kind, p.back)}</text>
                {hp && (
                  <g class="kit-piece-hp" data-testid="piece-hp" data-hp={hp.hp} data-max={hp.max}>
                    <rect x={-r} y={r + 2} width={2 * r} height={4} class="kit-hp-back" />
                    <rect x={-r} y={r + 2} width={(2 * r * Math.max(0, hp.hp)) / Math.max(1, hp.max)} height={4} class="kit-hp-left" />
                    <title>{`${hp.hp}/${hp.max} HP`}</title>
                  </g>
                )}
              </g>
            );
          });
        }}
      />
    </div>
  );
}
