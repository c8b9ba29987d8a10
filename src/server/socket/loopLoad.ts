// How much of the event loop the rest of the server uses, the hub's own turns left out. The hub's
// replays yield to a run only when the run actually needs the CPU: a run stepping every 10 ms uses a
// few percent of the loop and leaves the rest to catching viewers up, a run at full speed gets all
// but the hub's small busy share. (Judging by "a run published recently" alone starved replays behind
// slow runs that left the loop idle.)
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

export class LoopLoad {
  private last: EventLoopUtilization = performance.eventLoopUtilization();
  private lastHubMs = 0;
  private lastAt = performance.now();
  private value = 0;

  /**
   * @param hubMs the hub's cumulative turn time (ms, 0 at construction), subtracted from the loop's active time
   * @param windowMs how often the figure is refreshed (it is the load over the last window)
   */
  constructor(
    private readonly hubMs: () => number,
    private readonly windowMs = 100,
  ) {}

  /** Share of wall time (0…1) the loop spent on work other than the hub's over the last window. */
  others(): number {
    const now = performance.now();
    if (now - this.lastAt < this.windowMs) return this.value;
    const elu = performance.eventLoopUtilization(this.last);
    const hub = this.hubMs() - this.lastHubMs;
    const wall = now - this.lastAt;
    this.value = Math.max(0, Math.min(1, (elu.active - hub) / wall));
    this.last = performance.eventLoopUtilization();
    this.lastHubMs = this.hubMs();
    this.lastAt = now;
    return this.value;
  }
}
