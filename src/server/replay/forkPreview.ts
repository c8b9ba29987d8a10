// What a fork would reuse, asked before it starts (`POST /api/runs/{id}/fork/preview`, the editor's
// fork dialog; docs/replay.md "Re-run without paying twice"): the run's recording replayed offline,
// with the fork's graph, from the fork's step, through the rule the fork itself follows
// (engine/effectReuse.ts, over the calls runs/forkReuse.ts picks) — so the count and the place
// where live calls start are what the fork will do, not an estimate. Nothing is called. The fork
// itself asks the same preview for the step its live calls start at (`forkPlanner`, wired in app.ts).
import type { ForkPreview } from '../../domain/protocol/replay.schema.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { NodeRegistry } from '../../engine/registry.ts';
import type { RunStore } from '../db/runStore.ts';
import { loadRegistry } from '../plugins/loadRegistry.ts';
import type { ForkPlanner } from '../ports/forkPlan.ts';
import { containerDifferences } from '../runs/containerDiff.ts';
import { reusableCalls } from '../runs/forkReuse.ts';
import { decodeGraph } from '../workspace/graphCodec.ts';
import { replayRun, ReplayError } from './replay.ts';

const calls = (n: number) => `${n} call${n === 1 ? '' : 's'}`;

export async function previewFork(
  store: RunStore,
  runId: string,
  opts: { step: number; graph?: unknown; registry: NodeRegistry },
): Promise<ForkPreview> {
  const own = store.graphOf(runId);
  if (opts.graph !== undefined && own !== undefined) {
    // The fork refuses such a graph (409), so its preview does too, with the same words.
    const edited = decodeGraph(opts.graph);
    const diffs = edited.ok ? containerDifferences(own as GraphDef, edited.graph) : [];
    if (diffs.length > 0)
      throw new ReplayError(
        `the graph's containers differ from the checkpoint's: ${diffs.join('; ')}`,
        409,
        'containers-differ',
      );
  }
  const recorded = reusableCalls(store, runId, opts.step);
  if (recorded.length === 0 && store.checkpoint(runId, opts.step))
    // Nothing to reuse: no replay needed to say so.
    return {
      run_id: runId,
      step: opts.step,
      reused: 0,
      recorded: 0,
      recorded_until_step: null,
      live_from_step: null,
      node_id: null,
      reason: null,
      message: `no recorded calls after step ${opts.step}: every call of the fork is live`,
      notes: [],
    };
  const v = await replayRun(store, runId, {
    registry: opts.registry,
    graph: opts.graph,
    verify: false,
    fork: { step: opts.step },
  });
  const reused = v.calls.answered;
  const base = {
    run_id: runId,
    step: opts.step,
    reused,
    recorded: v.calls.recorded,
    recorded_until_step: Math.max(...recorded.map((c) => c.step)),
    notes: v.notes,
  };
  const d = v.difference;
  if (d && d.kind === 'call') {
    const node = d.node_id ?? null;
    const reason = node !== null ? `node '${node}': ${d.reason ?? d.message}` : (d.reason ?? d.message);
    return {
      ...base,
      live_from_step: d.step,
      node_id: node,
      reason,
      message: `${calls(reused)} reused, from step ${d.step} live: ${reason}`,
    };
  }
  return {
    ...base,
    live_from_step: null,
    node_id: null,
    reason: null,
    message: `${calls(reused)} reused: every recorded call after step ${opts.step} is unchanged`,
  };
}

/**
 * The run manager's ForkPlanner (ports/forkPlan.ts): a fork's preview, with a registry of its own
 * loaded from `pluginDir` as a replay's is, read as the step its live calls start at — past the
 * recording's last call when none differs.
 */
export function forkPlanner(store: RunStore, pluginDir: string): ForkPlanner {
  return async (parent, step, graph) => {
    const loaded = await loadRegistry(pluginDir, false);
    if (typeof loaded === 'string') throw new Error(loaded);
    const plan = await previewFork(store, parent, { step, graph, registry: loaded.registry });
    const pastRecording = plan.recorded_until_step === null ? null : plan.recorded_until_step + 1;
    return { liveFromStep: plan.live_from_step ?? pastRecording };
  };
}
