// The rooms this tab holds that are not yet entered again on the current connection. After a
// reconnect (a restart, another node taking the game over) a move for such a room waits for it:
// sent earlier, it would reach a connection not yet in the room, or one about to be told the
// room moved and closed, and be lost. The page says it is reconnecting meanwhile.
export class AwayRooms {
  private readonly away = new Set<string>();
  private readonly waiters = new Map<string, Array<() => void>>();

  constructor(private readonly onChange: () => void = () => {}) {}

  has(id: string): boolean {
    return this.away.has(id);
  }

  /** The connection went: each of `ids` is away until `back`. */
  left(ids: Iterable<string>): void {
    let added = false;
    for (const id of ids) {
      if (!this.away.has(id)) { this.away.add(id); added = true; }
    }
    if (added) this.onChange();
  }

  /**
   * Entered again, or never to be (closed, left, refused) on a later connection: whoever waits goes
   * on, and hears the server's own answer.
   */
  back(id: string): void {
    if (!this.away.delete(id)) return;
    const waiting = this.waiters.get(id) ?? [];
    this.waiters.delete(id);
    for (const go of waiting) go();
    this.onChange();
  }

  /** Resolves true once `id` is back (at once when it is not away), false after `ms`. */
  whenBack(id: string, ms: number): Promise<boolean> {
    if (!this.away.has(id)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const list = this.waiters.get(id) ?? [];
      this.waiters.set(id, list);
      const go = () => { clearTimeout(timer); resolve(true); };
      const timer = setTimeout(() => {
        const i = list.indexOf(go);
        if (i >= 0) list.splice(i, 1);
        resolve(false);
      }, ms);
      list.push(go);
    });
  }
}
