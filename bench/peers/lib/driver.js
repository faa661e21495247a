// One client process's rooms through a run: set-up (a few rooms at a time, as plateau-load does,
// so that thousands of connects do not measure a stampede), the start, the measured window's
// opening and closing, the end-of-run check and the stop.
import { Metrics } from "./metrics.js";
import { PlateauRoom, plateauGame } from "./plateau_rooms.js";
import { FloorRoom } from "./floor_rooms.js";
import { ColyseusRoom } from "./colyseus_rooms.js";

const SETUP_CONCURRENCY = 64;

export class Driver {
  // opts: { target: plateau|floor|nodews|colyseus, url, game, rooms (in all), first, count, rate (in all), verbose }
  constructor(opts) {
    this.opts = opts;
    this.metrics = new Metrics();
    this.rooms = [];
  }

  // Resolves once every room of this process is seated and waits for go(), or gave up.
  async setup() {
    const o = this.opts;
    const ctx = {
      url: o.url, rooms: o.rooms, rate: o.rate, metrics: this.metrics, stopping: false,
      verbose: o.verbose, settled: null, game: null,
    };
    this.ctx = ctx;
    let make;
    if (o.target === "plateau") {
      ctx.game = await plateauGame(o.url, o.game);
      ctx.game.id = o.game;
      make = (i) => new PlateauRoom(ctx, i);
    } else if (o.target === "floor" || o.target === "nodews") {
      make = (i) => new FloorRoom(ctx, i);
    } else if (o.target === "colyseus") {
      make = (i) => new ColyseusRoom(ctx, i);
    } else {
      throw new Error(`unknown target ${o.target}`);
    }
    for (let i = 0; i < o.count; i++) this.rooms.push(make(o.first + i));
    await new Promise((resolve) => {
      let next = 0, settled = 0;
      const startNext = () => {
        if (next < this.rooms.length) this.rooms[next++].start();
      };
      ctx.settled = () => {
        if (++settled === this.rooms.length) resolve();
        startNext();
      };
      if (this.rooms.length === 0) resolve();
      for (let k = 0; k < SETUP_CONCURRENCY; k++) startNext();
    });
    return { failed: this.metrics.roomsFailed };
  }

  go() {
    for (const r of this.rooms) if (!r.failed) r.go();
  }

  beginMeasure() {
    this.metrics.measuring = true;
  }

  stopCounting() {
    this.metrics.measuring = false;
  }

  summary() {
    return this.metrics.summary();
  }

  // Stops acting, compares the views (Plateau) with the server's, and closes every connection.
  async stop() {
    this.ctx.stopping = true;
    for (const r of this.rooms) r.pace.stop();
    if (this.opts.target === "plateau" && this.opts.check) {
      await new Promise((r) => setTimeout(r, 300));  // the actions in flight land
      await Promise.all(this.rooms.map((r) => r.check(5000)));
    }
    for (const r of this.rooms) r.stop();
    await new Promise((r) => setTimeout(r, 200));
    return { viewsChecked: this.metrics.viewsChecked, viewsDiffering: this.metrics.viewsDiffering };
  }
}
