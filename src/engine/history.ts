// The in-memory history of a run: its checkpoints by step. Steps are taken one after another (a
// restore drops the ones after it and the run goes on from there), so the history is a list
// indexed by step rather than a Map: a Map entry costs ~45 bytes of hash table per step, a list
// slot 8 (the figure is history.bytes_per_step, where the whole state a step changes is ~1.8 KB).
import type { Checkpoint } from './run.api.ts';

export class CheckpointHistory {
  /** `slots[i]` is the checkpoint of step `base + i` (undefined: none kept for that step). */
  private slots: (Checkpoint | undefined)[] = [];
  private base = 0;
  private count = 0;

  constructor(private readonly retention = Infinity) {}

  get size(): number {
    return this.count;
  }

  get(step: number): Checkpoint | undefined {
    return this.slots[step - this.base];
  }

  /** Keeps `cp` as the checkpoint of `step`, then drops the oldest beyond the retention. */
  set(step: number, cp: Checkpoint): void {
    if (this.count === 0) {
      this.slots = [];
      this.base = step;
    } else if (step < this.base) {
      // Only a restore to a checkpoint from elsewhere, older than all kept, lands here.
      this.slots = [...new Array<undefined>(this.base - step), ...this.slots];
      this.base = step;
    }
    const i = step - this.base;
    if (this.slots[i] === undefined) this.count++;
    while (this.slots.length < i) this.slots.push(undefined);
    this.slots[i] = cp;
    while (this.count > this.retention) this.dropOldest();
  }

  /** Drops every checkpoint after `step` (a restore goes back to `step`). */
  dropAfter(step: number): void {
    const keep = Math.max(0, step - this.base + 1);
    for (let i = keep; i < this.slots.length; i++) if (this.slots[i] !== undefined) this.count--;
    if (keep < this.slots.length) this.slots.length = keep;
  }

  /** The steps held, oldest first. */
  steps(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.slots.length; i++) if (this.slots[i] !== undefined) out.push(this.base + i);
    return out;
  }

  private dropOldest(): void {
    let i = 0;
    while (this.slots[i] === undefined) i++;
    // Cut the leading run off rather than leaving holes, so a bounded history stays bounded.
    this.slots.splice(0, i + 1);
    this.base += i + 1;
    this.count--;
  }
}
