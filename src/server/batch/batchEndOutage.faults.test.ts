// A batch whose last episode reports while PostgreSQL is down (a restart): the batch's end is
// written once the database is back, instead of failing and leaving the batch `running` in the log
// for ever (every instance would show it running). Real PostgreSQL; the executor is the test's, so
// the moment the batch ends is chosen exactly: right after the database was stopped.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BatchRecord, EpisodeRow } from '../../domain/batch/batch.types.ts';
import { emptyGraph, type GraphDef } from '../../domain/graph/graph.schema.ts';
import { PgRunLog } from '../db/pgRunLog.ts';
import { hasPostgres, startPostgres, type PgServer } from '../test/pgServer.ts';
import { BatchManager, type BatchExecutor } from './batchManager.ts';
import type { EpisodeJob } from './episodeRun.ts';

const graph: GraphDef = emptyGraph('g');

/** Reports every episode done when `finish()` is called. */
class HeldExecutor implements BatchExecutor {
  private letGo!: () => void;
  private readonly held = new Promise<void>((r) => (this.letGo = r));
  finish(): void {
    this.letGo();
  }
  async run(_b: BatchRecord, jobs: EpisodeJob[], onRow: (r: EpisodeRow) => void): Promise<void> {
    await this.held;
    for (const j of jobs)
      onRow({
        episode: j.episode,
        seed: j.seed,
        run_id: j.runId,
        status: 'done',
        steps: 1,
        outputs: {},
        metrics: {},
        success: true,
      });
  }
  cancel(): void {}
  async close(): Promise<void> {}
}

describe.skipIf(!hasPostgres())('a batch ending while PostgreSQL is down', () => {
  let pg: PgServer;
  let log: PgRunLog;

  beforeAll(async () => {
    pg = await startPostgres();
    log = await PgRunLog.connect(pg.url, { connectTimeoutMs: 1000 });
  }, 60_000);

  afterAll(async () => {
    await log?.close();
    await pg?.stop();
  }, 60_000);

  it('records its end once the database is back', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const executor = new HeldExecutor();
    const manager = new BatchManager({ log, executor, mode: 'distributed' });
    try {
      const { batchId, done } = await manager.start({ graph, episodes: 3, workers: 1, seed: 1, sets: [] });
      await pg.halt('fast');
      try {
        executor.finish();
        // The end is waiting for the database, not failed.
        await new Promise((r) => setTimeout(r, 1500));
        expect(errors.mock.calls.map((c) => String(c[0])).join('\n')).toContain(
          `batch ${batchId}: its end waits for the database`,
        );
      } finally {
        await pg.start();
      }
      expect((await done).status).toBe('done');
      expect(await log.getBatch(batchId)).toMatchObject({ status: 'done', error: null });
    } finally {
      errors.mockRestore();
      await manager.close();
    }
  }, 60_000);
});
