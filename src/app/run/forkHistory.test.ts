// A fork's timeline starts with its parent's steps up to the fork point, read from the parent's log
// as it stood at the fork point's snapshot (a restore re-runs steps, so a log can hold a step twice),
// through any number of forks of forks.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { ev, episodeReset, navStep } from '../live/testEvents.testutil.ts';
import { parentHistory } from './forkHistory.ts';

afterEach(() => vi.unstubAllGlobals());

interface StoredRun {
  parent_run_id: string | null;
  parent_step: number | null;
  log: EventEnvelope[];
}

/** The REST the history reads: GET /api/runs/{id} and its events, paged. */
function serve(runs: Record<string, StoredRun>) {
  vi.stubGlobal('fetch', async (url: string) => {
    const u = new URL(url, 'http://x');
    const [, , , id, what] = u.pathname.split('/');
    const run = runs[decodeURIComponent(id!)]!;
    if (what === undefined)
      return Response.json({
        id,
        graph_name: 'g',
        status: 'done',
        steps: 0,
        last_seq: run.log.length,
        ...run,
      });
    const after = Number(u.searchParams.get('after'));
    const limit = Number(u.searchParams.get('limit'));
    const events = run.log.filter((e) => e.seq > after).slice(0, limit);
    return Response.json({
      run_id: id,
      last_seq: run.log.length,
      next_after: events.at(-1)?.seq ?? after,
      events,
    });
  });
}

const restored = (seq: number, step: number, count: number) =>
  ev('restored', seq, { ...(navStep(seq, step, count).data as object), restored_to: step });

describe('parentHistory', () => {
  it('is the parent’s timeline at its last snapshot of the fork point, episodes included', async () => {
    // Steps 1–4 (a new episode in step 3), restored to 2, then 3 and 4 again with other values.
    const log = [
      navStep(1, 1, 1),
      navStep(2, 2, 2),
      episodeReset(3, 2),
      navStep(4, 3, 3),
      navStep(5, 4, 4),
      restored(6, 2, 2),
      navStep(7, 3, 30),
      navStep(8, 4, 40),
    ];
    serve({ p: { parent_run_id: null, parent_step: null, log } });
    const h = (await parentHistory({ parent_run_id: 'p', parent_step: 3 }))!;
    expect(h.steps).toEqual([1, 2, 3]);
    expect(h.snapshots[3]?.containers.graph_state?.states.step_count?.value).toBe(30);
    expect(h.snapshots[3]?.signals).toBeUndefined(); // the re-run step 3 started no episode
    expect(h.snapshots[2]?.containers.graph_state?.states.step_count?.value).toBe(2);
    // Forked from the first step 3 (before the restore) the episode would be there:
    serve({ p: { parent_run_id: null, parent_step: null, log: log.slice(0, 5) } });
    const first = (await parentHistory({ parent_run_id: 'p', parent_step: 3 }))!;
    expect(first.snapshots[3]?.signals?.map((s) => s.signal)).toEqual(['episode_reset']);
  });

  it('follows forks of forks back to the first run', async () => {
    serve({
      a: {
        parent_run_id: null,
        parent_step: null,
        log: [navStep(1, 1, 1), navStep(2, 2, 2), navStep(3, 3, 3)],
      },
      b: {
        parent_run_id: 'a',
        parent_step: 2,
        log: [restored(1, 2, 2), navStep(2, 3, 33), navStep(3, 4, 44)],
      },
    });
    const h = (await parentHistory({ parent_run_id: 'b', parent_step: 4 }))!;
    expect(h.steps).toEqual([1, 2, 3, 4]);
    expect(
      [1, 2, 3, 4].map((st) => h.snapshots[st]?.containers.graph_state?.states.step_count?.value),
    ).toEqual([1, 2, 33, 44]);
    expect(await parentHistory({ parent_run_id: null, parent_step: null })).toBeNull();
  });
});
