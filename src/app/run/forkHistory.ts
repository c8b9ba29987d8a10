// A fork's (or a branch's) timeline begins with its parent's steps up to the fork point: the server
// keeps those in the parent's log only (the fork's own log starts with `restored` at that step, as
// GET /api/runs/{id}/state reads a fork's early steps from its parent). They are read here and folded
// by the live handlers into a scratch store, so a fork shows the same steps and episodes whether it
// was just forked in this tab or opened later (a reload, Runs, a link).
import { EventEnvelopeSchema, type EventEnvelope } from '../../domain/protocol/protocol.ts';
import { applyBatch } from '../live/handlers.ts';
import { PAGE_LIMIT } from '../live/liveClient.ts';
import { runApi } from './run.api.ts';
import { createRunStore, type RunStoreLike, type StepSnapshot } from './run.store.ts';

export interface ParentHistory {
  /** The parent's steps up to and including the fork point, ascending. */
  steps: number[];
  snapshots: Record<number, StepSnapshot>;
}

/** Where a run came from (GET /api/runs/{id}); null fields for a run of its own. */
export interface RunOrigin {
  parent_run_id: string | null;
  parent_step: number | null;
}

/** The events a step's snapshot on the timeline is made of (no logs, viewers, node statuses). */
const HISTORY_TYPES: ReadonlySet<string> = new Set([
  'nav_step',
  'restored',
  'state_written',
  'signal',
  'error_event',
]);

/** A fork of a fork of …: far past any real chain; a log that loops must not loop here. */
const MAX_DEPTH = 32;

/** The history a run's timeline starts with: its parent's steps up to its fork point (null: none). */
export async function parentHistory(origin: RunOrigin): Promise<ParentHistory | null> {
  if (!origin.parent_run_id || origin.parent_step === null) return null;
  return historyUpTo(origin.parent_run_id, origin.parent_step, 0);
}

/**
 * `runId`'s timeline as it stood at its snapshot of step `upTo` — the last nav_step of that step in
 * its log (else the last `restored` to it), the one a fork from it starts from, as the server's
 * stateAt picks it. A log can hold a step twice: a restore re-runs the steps after it.
 */
async function historyUpTo(runId: string, upTo: number, depth: number): Promise<ParentHistory> {
  const store = createRunStore();
  const info = await runApi.run(runId);
  if (info.parent_run_id && info.parent_step !== null && depth < MAX_DEPTH) {
    const h = await historyUpTo(info.parent_run_id, Math.min(info.parent_step, upTo), depth + 1);
    store.setState({ steps: h.steps, snapshots: h.snapshots });
  }
  let atNav: ParentHistory | undefined;
  let atRestored: ParentHistory | undefined;
  let batch: EventEnvelope[] = [];
  for (let after = 0; ;) {
    const page = await runApi.events(runId, after, PAGE_LIMIT);
    for (const raw of page.events) {
      const r = EventEnvelopeSchema.safeParse(raw);
      if (!r.success || !HISTORY_TYPES.has(r.data.type)) continue;
      batch.push(r.data);
      const d = r.data.data as { step?: unknown; restored_to?: unknown };
      const nav = r.data.type === 'nav_step' && d.step === upTo;
      if (!nav && !(r.data.type === 'restored' && d.restored_to === upTo)) continue;
      applyBatch(batch, store);
      batch = [];
      if (nav) atNav = capture(store, upTo);
      else atRestored = capture(store, upTo);
    }
    if (page.events.length < PAGE_LIMIT || page.next_after <= after) break;
    after = page.next_after;
  }
  return atNav ?? atRestored ?? capture(store, upTo);
}

function capture(store: RunStoreLike, upTo: number): ParentHistory {
  const s = store.getState();
  const steps = s.steps.filter((st) => st <= upTo);
  const snapshots: Record<number, StepSnapshot> = {};
  for (const st of steps) if (s.snapshots[st]) snapshots[st] = s.snapshots[st];
  return { steps, snapshots };
}
