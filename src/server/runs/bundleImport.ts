// Stores a checked run bundle (bundleCheck.ts) as a new, read-only run — all or nothing, and
// without holding the server's one thread: a 1,000,000-event bundle imports while `/api/health`,
// live runs and viewers keep being answered. Nothing is written until the whole bundle passed its
// checks and the run's parent chain was found not to loop back to it. The writes then go in slices
// (timeSlices.ts), each its own transaction: the run row first, in status `importing` (hidden from
// every reader, runStore.ts), then the events and checkpoints, and last — in one transaction — its
// recorded calls (under the run's kept lineage, so a replay finds them), real status, counters and
// the imported-run mark. A write that fails (a full disk) deletes the
// half-written run; a server stopped meanwhile deletes it at its next start.
import { randomBytes } from 'node:crypto';
import { batchOfEpisodeRun } from '../../domain/batch/episodeIds.ts';
import type { EventEnvelope, RunStatus } from '../../domain/protocol/protocol.ts';
import type { BundleImportResult } from '../../domain/protocol/runBundle.schema.ts';
import { closeDatabase, openDatabase, type Db } from '../db/database.ts';
import { importCalls } from '../db/effectStore.ts';
import { IMPORTING, type RunStore } from '../db/runStore.ts';
import { checkBundle, decodeFrom, gunzip, pageEnvelopes } from './bundleCheck.ts';
import { BundleError } from './bundleFormat.ts';
import { TimeSlices } from './timeSlices.ts';
import { graphVersionOf } from './graphVersion.ts';

/**
 * Which runs came from a bundle (read-only). Kept in its own table, created on first use, so the
 * run schema and its migrations stay untouched; `CREATE … IF NOT EXISTS` makes it idempotent.
 */
export class ImportedRuns {
  private readonly insert;
  private readonly select;

  constructor(db: Db) {
    db.exec(`CREATE TABLE IF NOT EXISTS run_imports (
      run_id TEXT PRIMARY KEY,
      original_run_id TEXT NOT NULL,
      exported_at TEXT NOT NULL,
      imported_at TEXT NOT NULL
    ) WITHOUT ROWID`);
    this.insert = db.prepare(
      'INSERT INTO run_imports (run_id, original_run_id, exported_at, imported_at) VALUES (?, ?, ?, ?)',
    );
    this.select = db.prepare<[string], { run_id: string }>('SELECT run_id FROM run_imports WHERE run_id = ?');
  }

  has(runId: string): boolean {
    return this.select.get(runId) !== undefined;
  }

  add(runId: string, originalRunId: string, exportedAt: string, importedAt: string): void {
    this.insert.run(runId, originalRunId, exportedAt, importedAt);
  }
}

export interface ImportOptions {
  /** Bytes the decompressed container may have (a gzip bomb stops here): 413 beyond. */
  maxUncompressed: number;
  /** Bytes of JSON one event's data or one checkpoint may expand to: 413 `value-too-large` beyond. */
  maxValueBytes: number;
  now?: () => Date;
  /** How long a slice of work runs before the event loop gets a turn (default 20 ms). */
  sliceMs?: number;
  /**
   * Keep the bundle's run id whatever its shape, refusing (409) an id already here: a copy of a run
   * another instance wrote, taken from PostgreSQL (distributed/remoteCopies.ts).
   */
  keepId?: boolean;
}

/** Events written per transaction in pass 3 (and between two looks at the clock). */
const WRITE_PAGE = 500;

const ACTIVE = new Set(['running', 'paused', 'idle']);

/**
 * A parent chain that would lead back to the imported run (its own parent, or A → B → A with A
 * already here) would send every walk up the chain round forever: refused.
 */
function refuseParentCycle(store: RunStore, runId: string, parent: string | null): void {
  const chain = [runId];
  const seen = new Set<string>();
  for (let at = parent; at !== null; at = store.getRun(at)?.parent_run_id ?? null) {
    chain.push(at);
    if (at === runId)
      throw new BundleError(
        'parent-cycle',
        `the run's parent chain loops back to it (${chain.join(' → ')}); a run cannot descend from itself`,
        '$.header.run.parent_run_id',
      );
    if (seen.has(at)) return; // a loop among runs already here: not this run's to refuse
    seen.add(at);
  }
}

/**
 * Imports a bundle into `store`. The run keeps its id when free and not a batch episode's, else gets
 * `import_<time>_<hex>`.
 * Throws BundleError (400/413) for a bad bundle; the database is then exactly as before.
 */
export async function importBundle(
  store: RunStore,
  imported: ImportedRuns,
  body: Buffer,
  opts: ImportOptions,
): Promise<BundleImportResult> {
  const now = opts.now ?? (() => new Date());
  const slices = new TimeSlices(opts.sliceMs);
  const container = await gunzip(body, opts.maxUncompressed);
  const mem = openDatabase(':memory:');
  try {
    const bundle = await checkBundle(container, mem, slices, opts.maxValueBytes);
    const { header, blobStore: blobs } = bundle;
    const src = header.run;
    // No await from here to the run row's insert: the id chosen cannot be taken meanwhile.
    // An id of a batch episode's shape (`<batch>_e<n>`) is never kept: a batch here, or on another
    // instance sharing PostgreSQL, may yet create that run, and would adopt the read-only import as
    // its episode. Renamed rather than refused: an exported episode stays importable anywhere, and
    // its original id is kept (run_imports.original_run_id, the answer's `original_run_id`).
    if (opts.keepId && store.hasRunId(src.id))
      throw new BundleError('run-exists', `run ${src.id} is already here`, '$.header.run.id', 409);
    const keptId = opts.keepId || (!store.hasRunId(src.id) && batchOfEpisodeRun(src.id) === undefined);
    const runId = keptId ? src.id : `import_${Date.now()}_${randomBytes(4).toString('hex').slice(0, 7)}`;
    refuseParentCycle(store, runId, src.parent_run_id);
    store.createRun({
      id: runId,
      graphName: src.graph_name,
      graph: header.graph,
      status: IMPORTING as RunStatus,
      startedAt: src.started_at,
      parentRunId: src.parent_run_id,
      parentStep: src.parent_step,
      lineage: src.lineage,
      freshEffects: src.fresh_effects,
      stepDelayMs: src.step_delay_ms,
      // Kept as exported (a batch episode's is its batch's); an older bundle's from its graph.
      graphVersion: src.graph_version ?? graphVersionOf(header.graph),
      kind: 'imported',
    });
    try {
      let batch: EventEnvelope[] = [];
      for (const r of bundle.eventPages) {
        batch.push(...pageEnvelopes(r, runId, blobs));
        if (batch.length < WRITE_PAGE) continue;
        store.commit(runId, { events: batch });
        batch = [];
        await slices.due();
      }
      if (batch.length > 0) store.commit(runId, { events: batch });
      for (const [i, [seq, step, root]] of bundle.checkpoints.entries()) {
        await slices.due();
        const state = decodeFrom(blobs, root, `$.checkpoints[${i}]`, Infinity);
        store.putCheckpoint(runId, seq, { step, state });
      }
      store.transaction(() => {
        importCalls(store.db, store.blobs, runId, bundle.calls, now().toISOString());
        store.commit(runId, {
          events: [],
          steps: src.steps,
          // A run that was live when exported cannot continue here: it is as good as interrupted.
          status: ACTIVE.has(src.status) ? 'interrupted' : src.status,
          endedAt: src.ended_at ?? (ACTIVE.has(src.status) ? header.exported_at : null),
          error: src.error,
        });
        imported.add(runId, src.id, header.exported_at, now().toISOString());
      });
    } catch (err) {
      try {
        store.deleteRun(runId);
      } catch {
        // Still `importing`: removed at the next start (removeUnfinishedImports).
      }
      throw err;
    }
    return {
      ok: true,
      run_id: runId,
      original_run_id: src.id,
      kept_id: keptId,
      steps: src.steps,
      events: bundle.events,
      checkpoints: bundle.checkpoints.length,
      blobs: bundle.blobs,
      calls: bundle.calls.length,
      read_only: true,
    };
  } finally {
    closeDatabase(mem);
  }
}
