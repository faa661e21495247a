// Paced mode's schedule for one room, as plateau-load's (clients/load/pace.h): one submit per
// interval of rooms/rate seconds, from a random point of the first interval, so that R actions
// a second in all are spread evenly over the rooms. Closed loop (rate 0): every submit goes at once.
export class Pace {
  constructor(rooms, rate) {
    this.interval = rate > 0 ? (rooms / rate) * 1000 : 0;  // ms
    this.next = 0;
    this.started = false;
    this.timer = null;
    this.waiting = [];
    this.stopped = false;
  }

  // The room's game starts: its first slot at a random point of one interval. Once only.
  start() {
    if (this.interval === 0 || this.started) return;
    this.started = true;
    this.next = performance.now() + this.interval * Math.random();
  }

  // True when `waiter` may submit now; otherwise waiter.maybeAct() is called when the slot comes.
  take(waiter) {
    if (this.interval === 0) return true;
    const now = performance.now();
    if (now >= this.next) {
      // On schedule while the room keeps up; a room that fell behind goes on from now (one
      // submit of catching up at most, never a burst).
      this.next = Math.max(this.next + this.interval, now);
      return true;
    }
    if (!this.waiting.includes(waiter)) this.waiting.push(waiter);
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        if (this.stopped) return;
        const waiting = this.waiting;
        this.waiting = [];
        for (const w of waiting) w.maybeAct();
      }, Math.max(0, this.next - now));
    }
    return false;
  }

  // A refused submit gives its slot back: the rate asked for is of accepted actions.
  giveBack() {
    if (this.interval > 0) this.next -= this.interval;
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.waiting = [];
  }
}
