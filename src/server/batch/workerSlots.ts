// The ceiling on episode processes: one per server (or `statewire batch`), shared by every batch it
// runs. A batch asks for a slot before it forks a child and gives it back when the child is gone;
// requests are granted first come, first served, so a second batch queues behind the first (its
// status reads `queued` until an episode starts) and takes slots as the first one winds down. Each
// child is a Node process of its own (~100 MB, a core when busy): 64 of them once took 6.3 GB and
// stalled `/api/health` for a minute on a 2-core machine.
import { availableParallelism } from 'node:os';

/** `--max-workers` default: one episode process per core. */
export const defaultMaxWorkers = (): number => Math.max(1, availableParallelism());

interface Request {
  owner: string;
  grant: () => void;
}

export class WorkerSlots {
  private used = 0;
  private readonly waiting: Request[] = [];

  constructor(readonly max: number = defaultMaxWorkers()) {
    if (!Number.isInteger(max) || max < 1)
      throw new Error(`max workers must be a whole number ≥ 1, got ${max}`);
  }

  /** Calls `grant` once a slot is this request's (at once when one is free and nobody waits). */
  request(owner: string, grant: () => void): void {
    if (this.used < this.max && this.waiting.length === 0) {
      this.used++;
      grant();
    } else this.waiting.push({ owner, grant });
  }

  /** A slot is free again: the longest-waiting request gets it. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next.grant();
    else this.used = Math.max(0, this.used - 1);
  }

  /** Drops `owner`'s requests still waiting (its queue ran empty, or it was cancelled). */
  cancel(owner: string): number {
    let n = 0;
    for (let i = this.waiting.length - 1; i >= 0; i--)
      if (this.waiting[i]!.owner === owner) {
        this.waiting.splice(i, 1);
        n++;
      }
    return n;
  }

  /** Requests of `owner` still waiting. */
  waitingFor(owner: string): number {
    return this.waiting.reduce((n, r) => n + (r.owner === owner ? 1 : 0), 0);
  }

  /** Slots held right now. */
  get inUse(): number {
    return this.used;
  }
}
