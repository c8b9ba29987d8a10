// What a fork of `parentId` from step K may reuse (docs/replay.md "Re-run without paying twice"):
// the parent's answered calls after K — those a replay of the parent answers from (runCalls: its
// own, and its fork chain's after its fork point) — matched place by place until the first call
// that differs (engine/effectReuse.ts). Built here once for both users, so they see the same calls:
// the fork's first run (runManager.ts) and its offline preview (replay/forkPreview.ts).
import { ReuseUntilDivergence } from '../../engine/effectReuse.ts';
import type { RecordedCall } from '../db/effectStore.ts';
import type { RunStore } from '../db/runStore.ts';
import { runCalls } from './bundleExport.ts';

/** The parent's answered calls at steps after `step`, oldest first. */
export function reusableCalls(store: RunStore, parentId: string, step: number): RecordedCall[] {
  return runCalls(store, parentId).filter((c) => c.step > step);
}

/**
 * The reuse rule over those calls, for keys made under the lineage `ownLineage`; with `untilStep`
 * (the fork's plan: the preview's first step that differs) nothing is reused from that step on.
 */
export function forkReuse(
  store: RunStore,
  parentId: string,
  step: number,
  ownLineage: string,
  calls: readonly RecordedCall[] = reusableCalls(store, parentId, step),
  untilStep?: number,
): ReuseUntilDivergence {
  const lineage = store.getRun(parentId)?.lineage ?? parentId;
  return new ReuseUntilDivergence(calls, lineage, ownLineage, parentId, untilStep);
}
