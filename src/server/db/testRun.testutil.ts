// The run row most store tests create: a running run of graph `g`, its own lineage, no parent.
import type { NewRun } from './runStore.ts';

export const testRun = (id: string, graph: unknown = { name: 'g', nodes: [] }): NewRun => ({
  id,
  graphName: 'g',
  graph,
  status: 'running',
  startedAt: '2026-01-01T00:00:00.000Z',
  parentRunId: null,
  parentStep: null,
  lineage: id,
  freshEffects: false,
  stepDelayMs: 0,
});
