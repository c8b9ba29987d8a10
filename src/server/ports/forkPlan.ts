// What the run manager asks before a fork starts (docs/replay.md "Re-run without paying twice"):
// the first step at which the fork's calls differ from its parent's recording, found by replaying
// the recording offline against the fork's graph (replay/forkPreview.ts, a floor above runs/; the
// server wires it in app.ts). The fork then reuses whole steps before it and runs that step live
// from the parent's service state after the step before.

/**
 * `liveFromStep`: the first step with a call that differs, or the step after the recording's last
 * call when none differs; null: nothing to reuse (no recorded calls after `step`).
 */
export type ForkPlanner = (
  parentId: string,
  step: number,
  graph: unknown,
) => Promise<{ liveFromStep: number | null }>;
