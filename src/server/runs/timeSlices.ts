// Long work on the server's one thread, cut into slices: the worker calls `due()` between items and
// awaits it; once a slice has run `sliceMs`, `due()` yields to the event loop (setImmediate: pending
// I/O — health checks, a live run's commits, socket writes — goes first), so the server keeps
// answering within about one slice however long the whole job takes (a 1,000,000-event import).

export class TimeSlices {
  private started = performance.now();
  /** Times the work yielded (for tests and logs). */
  yields = 0;

  constructor(private readonly sliceMs = 20) {}

  /** Resolves at once inside a slice; after `sliceMs`, on the next turn of the event loop. */
  async due(): Promise<void> {
    if (performance.now() - this.started < this.sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.yields++;
    this.started = performance.now();
  }
}
