// A duty-cycled scheduler for the hub's background work (replay pages, catching slow clients up).
// Each turn gets a short time slice; after a turn that used `t` ms the next one waits long enough
// that the pacer takes at most `share` of the wall clock: a small share while a run is stepping and
// using most of the loop (so it keeps ≥ 80% of its speed however many viewers there are), a larger
// one otherwise. A turn is measured after the socket writes it queued for the next tick.
// Between turns the event loop is free for HTTP requests, socket I/O and the run's steps.

export type TurnResult =
  /** Nothing left to do: sleep until woken. */
  | 'idle'
  /** Work remains and was done: continue after the duty-cycle pause. */
  | 'more'
  /** Work remains but nobody can take it now (full socket buffers, rate caps): retry later. */
  | 'blocked';

export interface PacerOptions {
  /** Upper bound of one turn (ms). */
  sliceMs: number;
  /** Share of wall time while `busy()` says a run is stepping. */
  busyShare: number;
  /** Share of wall time otherwise. */
  idleShare: number;
  /** Wait before retrying a blocked turn (ms). */
  retryMs: number;
}

export class Pacer {
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private running = false;
  /** Between a turn's end and its measurement (next tick): a wake() now must not start another turn. */
  private settling = false;
  private wokeWhileSettling = false;
  private stopped = false;
  /** Total time spent in turns (ms), for tests and benches. */
  spentMs = 0;
  turns = 0;

  constructor(
    private readonly turn: (deadline: number) => TurnResult,
    private readonly busy: () => boolean,
    private readonly opts: PacerOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Ask for a turn soon (no-op when one is already scheduled). */
  wake(): void {
    this.stopped = false;
    if (this.settling) {
      this.wokeWhileSettling = true;
      return;
    }
    if (this.running || this.timer || this.immediate) return;
    this.immediate = setImmediate(() => this.run());
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }

  private run(): void {
    this.immediate = undefined;
    this.timer = undefined;
    this.running = true;
    // Judged before the turn: a long turn itself delays the run's next publish.
    const share = this.busy() ? this.opts.busyShare : this.opts.idleShare;
    const t0 = this.now();
    let result: TurnResult;
    try {
      result = this.turn(t0 + this.opts.sliceMs);
    } catch (err) {
      // A failing turn must not stop future turns (or crash the server); report and retry later.
      console.error(`statewire: live hub turn failed: ${(err as Error).message}`);
      result = 'blocked';
    } finally {
      this.running = false;
    }
    // The turn's sends are written to the sockets on the next tick (net.Socket uncorks its writes in
    // process.nextTick, queued during the turn): measure after them, so the pause also pays for the
    // writev calls and the kernel's loopback work they do, which are most of a big fan-out's cost.
    this.settling = true;
    this.wokeWhileSettling = false;
    process.nextTick(() => {
      this.settling = false;
      const spent = this.now() - t0;
      this.spentMs += spent;
      this.turns++;
      if (this.stopped) return;
      if (result === 'idle') {
        if (this.wokeWhileSettling) this.immediate = setImmediate(() => this.run());
        return;
      }
      const pause = (spent * (1 - share)) / share;
      const wait = result === 'blocked' ? Math.max(pause, this.opts.retryMs) : pause;
      if (wait < 1) this.immediate = setImmediate(() => this.run());
      else this.timer = setTimeout(() => this.run(), wait);
    });
  }
}
