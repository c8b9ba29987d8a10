// Two real batches of the demo graph (workspace/graphs/grid_navigator.json) for the evaluation tests:
// the same base seed, different `--set` values. A small open grid and 8 steps make some episodes end
// on the goal (success) and others not, so the two policies (epsilon 0.05 vs 0.6) win and lose
// pairs; and brute-force readings of the same logs to check the query and the first difference.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applySets } from '../../domain/batch/setPaths.ts';
import { meets, valueAtPath, hitOf, type Breakpoint } from '../../domain/debug/breakpoints.ts';
import { parseGraphTextOrThrow } from '../../domain/graph/graph.parse.ts';
import type { ClearedRef, EventEnvelope, NavStepData } from '../../domain/protocol/protocol.ts';
import type { RunLog } from '../db/runLog.ts';
import { BatchManager } from './batchManager.ts';
import { EmbeddedPool } from './embeddedPool.ts';

export const DEMO_FILE = join(import.meta.dirname, '../../../workspace/graphs/grid_navigator.json');
export const DEMO_BASE_SETS = [
  'step_budget=8',
  'nodes.env.config.width=4',
  'nodes.env.config.height=4',
  'nodes.env.config.obstacle_ratio=0',
];
export const BASELINE_SETS = [...DEMO_BASE_SETS, 'nodes.policy.config.epsilon=0.05'];
export const CANDIDATE_SETS = [...DEMO_BASE_SETS, 'nodes.policy.config.epsilon=0.6'];
export const DEMO_SEED = 3;

/** Runs a batch of the demo with `sets` on 2 real child processes, writing to `log`; its id. */
export async function runDemoBatch(log: RunLog, sets: string[], episodes: number): Promise<string> {
  const set = applySets(parseGraphTextOrThrow(readFileSync(DEMO_FILE, 'utf8')), sets);
  if (!set.ok) throw new Error(set.message);
  const pool = new EmbeddedPool({ log, pluginDir: null, onOutput: () => undefined });
  const manager = new BatchManager({ log, executor: pool });
  try {
    const { batchId, done } = await manager.start({
      graph: set.graph,
      episodes,
      workers: 2,
      seed: DEMO_SEED,
      sets,
    });
    const record = await done;
    if (record.status !== 'done') throw new Error(`batch ${batchId} ended ${record.status}: ${record.error}`);
    return batchId;
  } finally {
    await manager.close();
  }
}

/** Every event of a run, read whole. */
export async function wholeLog(log: RunLog, runId: string): Promise<EventEnvelope[]> {
  return log.events(runId, 0, 1_000_000);
}

/**
 * Brute force over whole events: the steps where a condition holds, by the rules stated in the
 * README (a step's state is its nav_step; a write is a state_written of that step, matched by the
 * debugger's own `hitOf`; a clear belongs to the step whose nav_step follows it, trailing clears to
 * the last step). Written apart from domain/batch/query.ts on purpose.
 */
export function bruteForceSteps(events: readonly EventEnvelope[], q: Breakpoint): number[] {
  const steps = new Set<number>();
  if (q.kind === 'match') {
    for (const e of events) {
      if (e.type !== 'nav_step') continue;
      const d = e.data as NavStepData;
      const s = d.containers[q.container]?.states[q.slot];
      if (!s) continue;
      const candidates = s.keyed ? Object.values(s.keyed) : [s.value];
      if (candidates.some((v) => meets(valueAtPath(v, q.path), q.op, q.value))) steps.add(d.step);
    }
  } else if (q.kind === 'write') {
    for (const e of events) {
      if (e.type !== 'state_written') continue;
      const hit = hitOf([q], e, -1);
      if (hit) steps.add(hit.step);
    }
  } else if (q.kind === 'clear') {
    let pending: ClearedRef[] = [];
    let last: number | undefined;
    const named = (refs: ClearedRef[]) => refs.some((r) => r.container === q.container && r.slot === q.slot);
    for (const e of events) {
      if (e.type === 'signal') pending.push(...(e.data as { cleared: ClearedRef[] }).cleared);
      if (e.type !== 'nav_step') continue;
      const d = e.data as NavStepData;
      if (named([...pending, ...d.cleared])) steps.add(d.step);
      pending = [];
      last = d.step;
    }
    if (last !== undefined && named(pending)) steps.add(last);
  }
  return [...steps].sort((a, b) => a - b);
}
