// Sending a move from a board: one move in flight at a time, the controls disabled meanwhile, the
// server's refusal shown until the next view arrives (a new view means the table moved on, and
// an old refusal would then only mislead). Submitter is the framework-free core, unit-tested;
// useSubmit binds it to a component.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";

export type SubmitFn = (action: object) => Promise<void>;

export class Submitter {
  /** The board's submit (BoardProps.submit); absent for replays and spectators. */
  submit: SubmitFn | undefined;
  private flying = false;
  private refusal = "";
  private view: unknown = undefined;
  private readonly listeners = new Set<() => void>();

  constructor(submit?: SubmitFn) {
    this.submit = submit;
  }

  get busy(): boolean {
    return this.flying;
  }

  /** The refusal of the last move, until the next view. */
  get error(): string {
    return this.refusal;
  }

  /**
   * Tells which view the board shows; another one drops the refusal. Views are copy-on-write: a
   * new object is a new state of the table, the same object is no news.
   */
  setView(view: unknown): void {
    if (view === this.view) return;
    this.view = view;
    this.refusal = "";
  }

  /**
   * Sends `action`; resolves true once the server took it, false when it was refused (the reason
   * is then `error`), when another move is still in flight, or when nothing can be sent.
   */
  async run(action: object): Promise<boolean> {
    // Checked synchronously: a double click lands before any re-render could disable the button.
    if (!this.submit || this.flying) return false;
    this.flying = true;
    this.refusal = "";
    this.emit();
    try {
      await this.submit(action);
      return true;
    } catch (e) {
      this.refusal = (e as Error)?.message || String(e);
      return false;
    } finally {
      this.flying = false;
      this.emit();
    }
  }

  /** Shows a problem found before sending (same place and lifetime as a refusal). */
  fail(reason: string): void {
    this.refusal = reason;
    this.emit();
  }

  subscribe(l: () => void): () => void {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  }

  private emit(): void {
    for (const l of [...this.listeners]) l();
  }
}

export interface SubmitHandle {
  busy: boolean;
  error: string;
  /** Whether anything can be sent at all (a submit was given). */
  enabled: boolean;
  run: (action: object) => Promise<boolean>;
  fail: (reason: string) => void;
}

/** A Submitter for this component: pass the board's submit and the view it shows. */
export function useSubmit(submit: SubmitFn | undefined, view: unknown): SubmitHandle {
  const ref = useRef<Submitter | null>(null);
  ref.current ??= new Submitter();
  const s = ref.current;
  s.submit = submit;
  // Set during render, not in an effect: the render that shows a new view must already drop
  // the old refusal.
  s.setView(view);
  const [, rerender] = useState(0);
  useEffect(() => s.subscribe(() => rerender((n) => n + 1)), [s]);
  return {
    busy: s.busy, error: s.error, enabled: !!submit,
    run: (action) => s.run(action), fail: (reason) => s.fail(reason),
  };
}

/** The primary button of a move: disabled while a move is in flight or the move is not ready. */
export function SubmitButton({ busy, disabled, onClick, children, class: cls, testid, title, type = "button" }: {
  busy?: boolean; disabled?: boolean; onClick?: () => void; children: ComponentChildren;
  class?: string; testid?: string; title?: string; type?: "button" | "submit";
}) {
  return (
    <button type={type} class={`btn primary submit-btn ${busy ? "busy" : ""} ${cls ?? ""}`} disabled={busy || disabled}
      aria-busy={busy ? "true" : undefined} data-testid={testid} title={title} onClick={onClick}>
      {busy && <span class="spinner small" aria-hidden="true" />}
      {children}
    </button>
  );
}

/** The server's refusal of the last move (the test id browser tests look for). */
export function ActionError({ error }: { error: string }) {
  if (!error) return null;
  return <p class="form-error" role="alert" data-testid="action-error">⚠ {error}</p>;
}
