// What one client process counts: accepted actions and their latencies while the window is open,
// refusals by code, and the run's failures.
export class Metrics {
  constructor() {
    this.measuring = false;
    this.accepted = 0;
    this.latencies = [];  // ms, accepted actions in the window
    this.refused = {};
    this.games = 0;
    this.failures = [];
    this.roomsFailed = 0;
    this.viewsChecked = 0;
    this.viewsDiffering = 0;
    this.diffsApplied = 0;
  }

  acceptedAction(ms) {
    if (!this.measuring) return;
    this.accepted++;
    this.latencies.push(ms);
  }

  refusedAction(code) {
    if (!this.measuring) return;
    this.refused[code] = (this.refused[code] ?? 0) + 1;
  }

  gameFinished() {
    if (this.measuring) this.games++;
  }

  roomFailed(why) {
    this.roomsFailed++;
    if (this.failures.length < 5) this.failures.push(why);
  }

  // What the parent process needs to merge several clients' counts.
  summary() {
    return {
      accepted: this.accepted, latencies: this.latencies, refused: this.refused, games: this.games,
      failures: this.failures, roomsFailed: this.roomsFailed, viewsChecked: this.viewsChecked,
      viewsDiffering: this.viewsDiffering, diffsApplied: this.diffsApplied,
    };
  }
}

// The q-quantile of `sorted` (ascending), nearest rank; 0 for none.
export function quantile(sorted, q) {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1];
}
