// Which events of a run a restore's branch holds, as seq arithmetic only (no database here).
//
// A restore abandons the steps after the checkpoint it restores to; they are kept as a branch run
// (src/server/README.md "Restore keeps a branch"). The run's log is append-only, so those events
// stay in the run's own rows: the branch is first recorded as a PLAN over them — the seq range
// (after, to] of the run minus the ranges earlier branches already took — and only copied into
// rows of its own when something reads or changes it (RunStore.materializeBranch). Because the
// rows the plan names never change (only deleting the run removes them, and that copies every
// pending branch first), copying late gives exactly what copying at once would have.

/** Seq ranges of a run, each `[from, to]` meaning from < seq <= to. */
export type SeqRange = readonly [number, number];

export interface TailPlan {
  /** The seq of the checkpoint restored to: the branch starts after it. */
  readonly after: number;
  /** The run's last seq when the restore happened. */
  readonly to: number;
  /** Ranges earlier branches took (left out: each abandoned event is kept once). */
  readonly taken: readonly SeqRange[];
}

/** Whether the event `seq` of the run belongs to the branch. */
export function inPlan(plan: TailPlan, seq: number): boolean {
  return seq > plan.after && seq <= plan.to && !plan.taken.some(([f, t]) => seq > f && seq <= t);
}

/** The plan's seqs as disjoint ascending ranges (the tail minus what was taken). */
export function keptRanges(plan: TailPlan): SeqRange[] {
  const cuts = plan.taken
    .map(([f, t]) => [Math.max(f, plan.after), Math.min(t, plan.to)] as const)
    .filter(([f, t]) => t > f)
    .sort((a, b) => a[0] - b[0]);
  const out: SeqRange[] = [];
  let from = plan.after;
  for (const [f, t] of cuts) {
    if (f > from) out.push([from, f]);
    from = Math.max(from, t);
  }
  if (plan.to > from) out.push([from, plan.to]);
  return out;
}

/**
 * How much of a block of seqs first..last (an event page) the ranges `kept` (keptRanges) hold: all
 * of it, none of it, or some (then its events must be looked at one by one).
 */
export function blockInRanges(
  kept: readonly SeqRange[],
  first: number,
  last: number,
): 'all' | 'none' | 'some' {
  if (kept.some(([f, t]) => first > f && last <= t)) return 'all';
  if (!kept.some(([f, t]) => last > f && first <= t)) return 'none';
  return 'some';
}
