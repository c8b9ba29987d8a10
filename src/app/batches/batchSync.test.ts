// The Batches view at the end of a batch: the notice that says "done" arrives before the last
// episodes' rows are fetched. The view fetches them at once (not at the next poll), once more when a
// fetch was already on its way (its answer may predate the last rows), and until then the aggregate
// says which episodes it covers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BatchDetail } from '../../domain/batch/progress.ts';
import { aggregateRows } from '../../domain/batch/aggregate.ts';
import { connectBatchNotices, refreshDetail } from './batchSync.ts';
import { batchesStore, initialBatchesState, withList } from './batches.store.ts';
import { episodeRow, progress } from './batch.testutil.ts';

afterEach(() => vi.unstubAllGlobals());

const detail = (finished: number, status: 'running' | 'done'): BatchDetail => {
  const episodes = Array.from({ length: finished }, (_, i) => episodeRow(i + 1, { success: i % 2 === 0 }));
  return {
    batch: {
      id: 'b1',
      graph_name: 'Grid',
      episodes: 4,
      workers: 2,
      seed: 1,
      sets: [],
      mode: 'embedded',
      graph_version: null,
      status,
      created_at: '2026-01-01T00:00:00Z',
      ended_at: null,
      error: null,
    },
    progress: progress({ status, completed: finished, total: 4 }),
    episodes,
    aggregate: aggregateRows(episodes),
  };
};

/** fetch answering each GET of the batch when the test says so, in order. */
function serverStub() {
  const waiting: Array<(d: BatchDetail) => void> = [];
  vi.stubGlobal(
    'fetch',
    () =>
      new Promise<Response>((resolve) => {
        waiting.push((d) => resolve(new Response(JSON.stringify(d), { status: 200 })));
      }),
  );
  return {
    get asked() {
      return waiting.length;
    },
    answer: async (d: BatchDetail) => {
      waiting.shift()!(d);
      await vi.waitFor(() => expect(batchesStore.getState().detail?.episodes.length).toBe(d.episodes.length));
    },
  };
}

describe('the end of a batch in the Batches view', () => {
  it('the "done" notice fetches the final rows at once, again after a fetch already on its way', async () => {
    const { batch, progress: p } = detail(2, 'running');
    batchesStore.setState(withList(initialBatchesState(), [{ batch, progress: p }]), true);
    const notices = new Map<string, (d: unknown) => void>();
    connectBatchNotices({ onNotice: (t, fn) => void notices.set(t, fn) });
    const server = serverStub();

    // A poll is on its way when episode 3 of 4 has finished; the batch then ends.
    void refreshDetail();
    expect(server.asked).toBe(1);
    notices.get('batch_progress')!({
      batch_id: 'b1',
      ...progress({ status: 'done', completed: 4, total: 4 }),
    });
    expect(server.asked).toBe(1); // one request at a time
    await server.answer(detail(3, 'running'));
    // The older answer is shown, and says it is behind the progress (4 finished)…
    const s = batchesStore.getState();
    expect(s.detail?.progress).toMatchObject({ status: 'done', completed: 4 });
    expect(s.detail?.aggregate.episodes).toBe(3);
    // …and the final answer is asked for right away, not at the next poll.
    await vi.waitFor(() => expect(server.asked).toBe(1));
    await server.answer(detail(4, 'done'));
    expect(batchesStore.getState().detail?.aggregate).toEqual(aggregateRows(detail(4, 'done').episodes));
    expect(server.asked).toBe(0);
  });
});
