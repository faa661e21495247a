// The generic move picker of the board kit: any board that gets published moves can show it. It
// offers the roots in the game's words, then the chosen node's children (with the choices made so
// far, a back and a cancel), a family's params as selects or number inputs within their domain,
// and a Play that sends through the board's submit. `useMovePick` is the same state for a board
// that also takes the choices as clicks on its own elements (a hex, a card, a piece).
import { useState } from "preact/hooks";
import type { Text } from "../../table";
import { Txt } from "../TextRender";
import { ActionError, SubmitButton, useSubmit, type SubmitFn, type SubmitHandle } from "../submit";
import {
  buildMove, choiceLabel, choicesForTarget, domainWords, livePath, moveAt, moveKind, movesAfter, paramDomain, paramValues,
  type MoveChoice, type ParamChoice,
} from "./moves";
import type { Target } from "../../table";

/** A pick in progress: the keys chosen from the roots, and the values given for a family's params. */
export interface MovePick {
  /** The part of the chosen path still open in these moves. */
  path: string[];
  /** The node the path ends at (null at the roots). */
  node: MoveChoice | null;
  /** What may be chosen next: the roots, or the node's children. */
  choices: readonly MoveChoice[];
  values: ParamChoice;
  choose: (key: string) => void;
  /** Chooses among `choices` the one a click on this board target stands for; false if none. */
  chooseTarget: (target: Target | string) => boolean;
  setValue: (path: string, value: number | undefined) => void;
  back: () => void;
  cancel: () => void;
}

/**
 * The pick over `roots` (the view's published moves). A choice stays made while it stays open in
 * a new view (keys are stable); what a new view closed is dropped.
 */
export function useMovePick(roots: readonly MoveChoice[]): MovePick {
  const [chosen, setChosen] = useState<string[]>([]);
  const [values, setValues] = useState<Record<string, number>>({});
  const path = livePath(roots, chosen);
  const node = path.length ? moveAt(roots, path) : null;
  const choices = movesAfter(roots, path);
  const choose = (key: string) => {
    setChosen([...path, key]);
    setValues({});
  };
  return {
    path, node, choices, values, choose,
    chooseTarget: (target) => {
      const [hit] = choicesForTarget(choices, target);
      if (!hit) return false;
      choose(hit.key);
      return true;
    },
    setValue: (p, v) => setValues((old) => {
      const next = { ...old };
      if (v == null) delete next[p];
      else next[p] = v;
      return next;
    }),
    back: () => { setChosen(path.slice(0, -1)); setValues({}); },
    cancel: () => { setChosen([]); setValues({}); },
  };
}

/** The name of a param's field for the player: the board's words, else the field's last name. */
export type ParamLabel = (path: string) => string;
/** A value of a param in the board's words (a slot as its card's name), else the number. */
export type ValueLabel = (path: string, value: number) => string;

export interface MovePickerProps {
  /** The view's published moves (moveRoots(view)). */
  moves: readonly MoveChoice[];
  /** The game's Action type name (BoardProps.actionType). */
  actionType?: string;
  /** The board's submit; without it (replays, spectators) nothing is offered. */
  submit?: SubmitFn;
  /** The view shown, so a refusal lasts until the next one (see submit.tsx). */
  view: unknown;
  /** The board's own submit handle, when it also sends moves itself (one move in flight at a time). */
  handle?: SubmitHandle;
  /** The board's own pick, when it also takes choices as clicks. */
  pick?: MovePick;
  paramLabel?: ParamLabel;
  valueLabel?: ValueLabel;
  /** Above the choices. */
  title?: string;
}

function Label({ text, fallback }: { text: Text | null | undefined; fallback: string }) {
  return text && (text.key || text.id) ? <Txt text={text} /> : <>{fallback}</>;
}

const lastName = (path: string) => path.slice(path.lastIndexOf(".") + 1);
// A range this long or shorter is a select; a longer one a number input.
const SELECT_MAX = 24;

export function MovePicker(props: MovePickerProps) {
  const own = useSubmit(props.submit, props.view);
  const ownPick = useMovePick(props.moves);
  const h = props.handle ?? own;
  const pick = props.pick ?? ownPick;
  if (!props.submit || !props.actionType || props.moves.length === 0) return null;
  const { path, node, choices, values } = pick;
  const kind = node ? moveKind(node) : "step";
  const built = node && kind !== "step" ? buildMove(props.actionType, node, values) : null;
  const paramLabel = props.paramLabel ?? lastName;
  const valueLabel = props.valueLabel ?? ((_: string, v: number) => String(v));
  const play = async () => {
    if (!built) return;
    if (!built.action) { h.fail(built.error); return; }
    if (await h.run(built.action)) pick.cancel();
  };
  return (
    <div class="move-picker" data-testid="move-picker" data-path={path.join("/")}>
      {props.title && <h4 class="move-picker-title">{props.title}</h4>}
      {path.length > 0 && (
        <div class="move-path" data-testid="move-path">
          <ol class="move-crumbs">
            {path.map((_, i) => {
              const n = moveAt(props.moves, path.slice(0, i + 1));
              return <li key={i} data-testid="move-crumb" data-key={n?.key}><Label text={n ? choiceLabel(n) : null} fallback={n?.key ?? ""} /></li>;
            })}
          </ol>
          <button type="button" class="btn ghost small" data-testid="move-back" disabled={h.busy} onClick={pick.back}>Back</button>
          <button type="button" class="btn ghost small" data-testid="move-cancel" disabled={h.busy} onClick={pick.cancel}>Cancel</button>
        </div>
      )}
      {kind === "step" && (
        <div class="move-choices" role="group" aria-label="Moves">
          {choices.map((c) => (
            <button key={c.key} type="button" class="btn move-choice" data-testid="move-choice" data-key={c.key}
              data-kind={moveKind(c)} disabled={h.busy} onClick={() => pick.choose(c.key)}>
              <Label text={choiceLabel(c)} fallback={c.key} />
            </button>
          ))}
        </div>
      )}
      {node && kind === "family" && (
        <div class="move-params">
          {node.params.map((p) => {
            const d = paramDomain(p);
            const v = values[p.path];
            const id = `move-param-${p.path.replace(/\W/g, "-")}`;
            const asSelect = d.kind === "values" || d.max - d.min < SELECT_MAX;
            return (
              <label key={p.path} class="field move-param" for={id}>
                <span>{paramLabel(p.path)}</span>
                {asSelect ? (
                  <select id={id} data-testid="move-param" data-path={p.path} disabled={h.busy} value={v == null ? "" : String(v)}
                    onChange={(e) => {
                      const s = (e.target as HTMLSelectElement).value;
                      pick.setValue(p.path, s === "" ? undefined : Number(s));
                    }}>
                    <option value="">—</option>
                    {paramValues(p).map((x) => <option key={x} value={String(x)}>{valueLabel(p.path, x)}</option>)}
                  </select>
                ) : (
                  <input id={id} type="number" data-testid="move-param" data-path={p.path} disabled={h.busy}
                    min={d.min} max={d.max} step={1} value={v == null ? "" : String(v)} title={domainWords(p)}
                    onInput={(e) => {
                      const s = (e.target as HTMLInputElement).value.trim();
                      pick.setValue(p.path, s === "" ? undefined : Number(s));
                    }} />
                )}
              </label>
            );
          })}
        </div>
      )}
      {built && (
        <div class="move-play">
          {built.error && <span class="muted small" data-testid="move-problem">{built.error}</span>}
          <SubmitButton busy={h.busy} disabled={!!built.error} testid="move-play" title={built.error || undefined} onClick={() => void play()}>
            Play
          </SubmitButton>
        </div>
      )}
      {!props.handle && <ActionError error={h.error} />}
    </div>
  );
}
