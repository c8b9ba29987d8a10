// The embedded `RunLog`: the synchronous SQLite `RunStore` behind the asynchronous interface, plus
// the batch tables. One process owns the database file (the server, or `statewire batch`): it
// migrates, compacts and closes it. Embedded episode children write their runs' logs into the same
// file through connections of their own (batch/episodeDbLog.ts) and report each commit
// (`committedElsewhere`), so compaction and change listeners hear of them as of commits made here.
import type { BatchRecord, EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { Checkpoint } from '../../engine/run.api.ts';
import { closeDatabase, openDatabase, type Db } from './database.ts';
import type { DataPath, ProjectedEvent, RunLog } from './runLog.ts';
import { RunStore, type CommitBatch, type NewRun, type StoredRun } from './runStore.ts';

interface BatchRow {
  id: string;
  graph_name: string;
  graph: string;
  episodes: number;
  workers: number;
  seed: number;
  sets: string;
  mode: string;
  status: string;
  created_at: string;
  ended_at: string | null;
  error: string | null;
  graph_version: string | null;
}

const toBatch = (r: BatchRow): BatchRecord => ({
  ...r,
  graph: JSON.parse(r.graph) as unknown,
  sets: JSON.parse(r.sets) as string[],
  mode: r.mode as BatchRecord['mode'],
  status: r.status as BatchRecord['status'],
});

/**
 * Compaction waits while episodes run flat out (their group commits write plain roots) and this long
 * after the last such commit: packing finished episodes would take turns from the ones running,
 * which write through this process. It catches up once the batch is over.
 */
const FLAT_OUT_QUIET_MS = 250;

/** Runs projected between two yields to the event loop (~50 ms of a batch query at 50 steps a run). */
const RUNS_BETWEEN_YIELDS = 25;

export class SqliteRunLog implements RunLog {
  readonly kind = 'sqlite' as const;
  private readonly db: Db;

  /** Over an open store (the server's), or a database file of its own (closed by `close`). */
  constructor(
    readonly store: RunStore,
    private readonly owned = false,
  ) {
    this.db = store.db;
    store.compaction.yieldWhile(() => performance.now() - this.flatOutAt < FLAT_OUT_QUIET_MS);
  }
  /** When the last group commit of a run driven flat out (plain roots) came in. */
  private flatOutAt = -Infinity;

  static open(path: string): SqliteRunLog {
    return new SqliteRunLog(new RunStore(openDatabase(path)), true);
  }

  async createRun(r: NewRun): Promise<void> {
    this.store.createRun(r);
  }
  async commit(runId: string, batch: CommitBatch): Promise<void> {
    this.store.commit(runId, batch);
    this.afterCommit(runId, { plain: batch.plain === true, ended: Boolean(batch.endedAt) });
  }

  /**
   * An episode child committed to `runId` through its own connection to the file
   * (batch/episodeDbLog.ts) and told the pool: what follows a commit made here.
   */
  committedElsewhere(runId: string, c: { plain: boolean; ended: boolean }): void {
    this.store.writtenElsewhere(runId);
    this.afterCommit(runId, c);
  }

  private afterCommit(runId: string, c: { plain: boolean; ended: boolean }): void {
    if (c.plain) this.flatOutAt = performance.now();
    // An ended episode is only read from now on: pack it in the background (compaction.ts).
    if (c.ended) this.store.compaction.runEnded(runId);
  }

  /** The database file, for an episode child's own connection (null: in memory, no other process can open it). */
  get file(): string | null {
    const name = this.db.name;
    return name === '' || name === ':memory:' ? null : name;
  }
  async getRun(id: string): Promise<StoredRun | undefined> {
    return this.store.getRun(id);
  }
  async listRuns(limit?: number): Promise<StoredRun[]> {
    return this.store.listRuns(limit);
  }
  async graphOf(id: string): Promise<unknown> {
    return this.store.graphOf(id);
  }
  async events(runId: string, after: number, limit: number, type?: string) {
    return this.store.events(runId, after, limit, type);
  }
  async checkpointSteps(runId: string): Promise<number[]> {
    return this.store.checkpointSteps(runId);
  }
  async checkpoint(runId: string, step: number) {
    return this.store.checkpoint(runId, step);
  }
  async lastCheckpoint(runId: string): Promise<(Checkpoint & { seq: number }) | undefined> {
    const steps = this.store.checkpointSteps(runId);
    const last = steps[steps.length - 1];
    return last === undefined ? undefined : this.store.checkpoint(runId, last);
  }
  async deleteRun(runId: string): Promise<void> {
    this.store.deleteRun(runId);
  }
  async projectEvents(
    runIds: readonly string[],
    type: string,
    paths: readonly DataPath[],
  ): Promise<Map<string, ProjectedEvent[]>> {
    const out = new Map<string, ProjectedEvent[]>();
    for (let i = 0; i < runIds.length; i++) {
      // Synchronous reads: let the server's other work (live runs, sockets) in between every few runs.
      if (i > 0 && i % RUNS_BETWEEN_YIELDS === 0) await new Promise((resolve) => setImmediate(resolve));
      const id = runIds[i]!;
      out.set(id, this.store.projectEvents(id, type, paths));
    }
    return out;
  }

  async createBatch(b: BatchRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO batches (id, graph_name, graph, episodes, workers, seed, sets, mode, status, created_at, ended_at, error, graph_version)
         VALUES (@id, @graph_name, @graph, @episodes, @workers, @seed, @sets, @mode, @status, @created_at, @ended_at, @error, @graph_version)`,
      )
      .run({
        ...b,
        graph: JSON.stringify(b.graph ?? null),
        sets: JSON.stringify(b.sets),
        graph_version: b.graph_version ?? null,
      });
  }
  async getBatch(id: string): Promise<BatchRecord | undefined> {
    const r = this.db.prepare<[string], BatchRow>('SELECT * FROM batches WHERE id = ?').get(id);
    return r ? toBatch(r) : undefined;
  }
  async listBatches(limit = 200): Promise<BatchRecord[]> {
    return this.db
      .prepare<[number], BatchRow>('SELECT * FROM batches ORDER BY created_at DESC, id DESC LIMIT ?')
      .all(limit)
      .map(toBatch);
  }
  async updateBatch(
    id: string,
    patch: Partial<Pick<BatchRecord, 'status' | 'ended_at' | 'error'>>,
  ): Promise<void> {
    const cols = Object.keys(patch).filter((k) => ['status', 'ended_at', 'error'].includes(k));
    if (cols.length === 0) return;
    this.db
      .prepare(`UPDATE batches SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`)
      .run({ ...patch, id });
  }
  async recordEpisode(batchId: string, row: EpisodeRow): Promise<number> {
    this.db
      .prepare('INSERT OR REPLACE INTO batch_episodes (batch_id, episode, row) VALUES (?, ?, ?)')
      .run(batchId, row.episode, JSON.stringify(row));
    return (
      this.db
        .prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM batch_episodes WHERE batch_id = ?')
        .get(batchId)?.n ?? 0
    );
  }
  async episodes(batchId: string): Promise<EpisodeRow[]> {
    return this.db
      .prepare<[string], { row: string }>(
        'SELECT row FROM batch_episodes WHERE batch_id = ? ORDER BY episode',
      )
      .all(batchId)
      .map((r) => JSON.parse(r.row) as EpisodeRow);
  }

  async close(): Promise<void> {
    if (this.owned) closeDatabase(this.db);
  }
}
