// Copies of other instances' runs in this instance's SQLite store (distributed mode), taken from
// PostgreSQL when a run must be forked here: the run manager forks from its synchronous store, so
// the parent is brought in first — through the bundle path (a bundle of the PostgreSQL copy, read
// by runs/bundleExport.ts from PostgreSQL and stored by runs/bundleImport.ts keeping the run's id),
// never by a second copier.
//
// A copy is a cache, not a record: PostgreSQL stays the run's record. So
//  - the forwarder (runForwarder.ts) never writes a copy back;
//  - reads of a copied run (REST, live) keep going to PostgreSQL (remoteRuns.plugin.ts, the relay),
//    where the instance that executes it keeps appending;
//  - a copy older than PostgreSQL is taken again before the next fork from it.
// The marks live in a table of their own in the instance's SQLite file (`remote_copies`), so they
// survive a restart. A mark outlives its copy on purpose: deleting the copy here (DELETE
// /api/runs/{id}) drops this cache only, and must never reach the record in PostgreSQL.
import { gzipSync } from 'node:zlib';
import type { PgRunLog } from '../db/pgRunLog.ts';
import type { RunStore } from '../db/runStore.ts';
import { bundleChunks, type BundleSource } from '../runs/bundleExport.ts';
import { importBundle, ImportedRuns } from '../runs/bundleImport.ts';

/** A run's PostgreSQL copy as a bundle source (recorded calls stay on the instance that made them). */
export function pgSource(log: PgRunLog, runId: string): BundleSource {
  return {
    run: () => log.getRun(runId),
    graph: () => log.graphOf(runId),
    events: (after, limit) => log.events(runId, after, limit),
    checkpoints: async (maxSeq) =>
      (await log.checkpointList(runId, maxSeq)).map((c) => ({
        seq: c.seq,
        step: c.step,
        state: async () => c.state,
      })),
    calls: async () => [],
  };
}

export class RemoteCopies {
  private readonly ids = new Set<string>();
  private readonly insert;
  private readonly imported: ImportedRuns;
  /** One copy at a time per run (two forks of the same remote run at once copy it once). */
  private readonly copying = new Map<string, Promise<void>>();

  constructor(
    private readonly store: RunStore,
    private readonly log: PgRunLog,
  ) {
    store.db.exec(`CREATE TABLE IF NOT EXISTS remote_copies (
      run_id TEXT PRIMARY KEY,
      copied_at TEXT NOT NULL
    ) WITHOUT ROWID`);
    for (const r of store.db.prepare<[], { run_id: string }>('SELECT run_id FROM remote_copies').all())
      this.ids.add(r.run_id);
    this.insert = store.db.prepare('INSERT OR REPLACE INTO remote_copies (run_id, copied_at) VALUES (?, ?)');
    this.imported = new ImportedRuns(store.db);
  }

  /** Whether this store's row of `runId` is a copy of another instance's run. */
  has(runId: string): boolean {
    return this.ids.has(runId);
  }

  /**
   * Makes sure this store holds `runId` as PostgreSQL has it now: copies it when absent, takes it
   * again when the copy is older. Returns false when the run is neither here nor in PostgreSQL.
   * A run of this instance's own (not a copy) is left as it is.
   */
  async ensure(runId: string): Promise<boolean> {
    const pending = this.copying.get(runId);
    if (pending) await pending.catch(() => undefined);
    const local = this.store.getRun(runId);
    if (local && !this.ids.has(runId)) return true;
    const remote = await this.log.getRun(runId);
    if (!remote) return local !== undefined;
    if (local && local.last_seq >= remote.last_seq && local.status === remote.status) return true;
    const copy = this.copy(runId, local !== undefined);
    this.copying.set(runId, copy);
    try {
      await copy;
    } finally {
      this.copying.delete(runId);
    }
    return true;
  }

  private async copy(runId: string, replace: boolean): Promise<void> {
    // Marked first: the forwarder ignores every write of the copy, its deletion included.
    this.ids.add(runId);
    this.insert.run(runId, new Date().toISOString());
    const chunks: Buffer[] = [];
    for await (const c of bundleChunks(pgSource(this.log, runId), runId)) chunks.push(c);
    const raw = Buffer.concat(chunks);
    if (replace) this.store.deleteRun(runId);
    await importBundle(this.store, this.imported, gzipSync(raw), {
      maxUncompressed: raw.length,
      maxValueBytes: this.store.blobs.maxValueBytes,
      keepId: true,
    });
  }
}
