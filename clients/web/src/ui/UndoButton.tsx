// The Undo button of a room that lets a player take back his last move: enabled only when the
// server says this seat may (the Snapshot's or Diff's can_undo; the client never judges a move
// itself), and a refusal shown with the server's reason.
import { useState } from "preact/hooks";
import { undoMove } from "../client";

export function UndoButton({ roomId, canUndo, version }: { roomId: string; canUndo: boolean; version: number }) {
  const [busy, setBusy] = useState(false);
  // The refusal stays until the table moves on (another version).
  const [refusal, setRefusal] = useState<{ at: number; reason: string } | null>(null);
  const onClick = async () => {
    setBusy(true);
    setRefusal(null);
    try {
      await undoMove(roomId);
    } catch (e) {
      setRefusal({ at: version, reason: (e as Error)?.message || String(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" class="btn ghost" disabled={!canUndo || busy} data-testid="undo"
        title={canUndo ? "Take back your last move" : "Only your own last move, before anyone acts, and only if it revealed nothing"}
        onClick={() => void onClick()}>↶ Undo</button>
      {refusal && refusal.at === version && <p class="form-error" role="alert" data-testid="undo-error">⚠ {refusal.reason}</p>}
    </>
  );
}
