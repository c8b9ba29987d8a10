// Where node services' snapshots of a run are kept (services/serviceSnapshots.ts): one row per step
// of a run that called a service, beside that step's checkpoint, naming for each service the blob of
// its state then — or why there is none (the service has no snapshot support, the snapshot failed).
// The blobs are the services' own opaque bytes in the blob store (content-addressed: a service whose
// state did not change between two steps costs its row one number, not a second copy).
// A step re-run after a restore gets a newer row; the newest row of a step wins, as for checkpoints.
// The table is created when the store opens (like run_branches), so it needs no schema migration.
import type { BlobStore } from './blobStore.ts';
import type { Db } from './database.ts';

/** Per service: the blob id of its state, or why none was taken (a sentence naming the cause). */
export type ServiceSnapshotMap = Record<string, number | string>;

export class ServiceSnapshotStore {
  private readonly q;

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS service_snapshots (
      id INTEGER PRIMARY KEY,
      run_id TEXT NOT NULL,
      step INTEGER NOT NULL,
      services TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS service_snapshots_at ON service_snapshots(run_id, step, id);`);
    this.q = {
      insert: db.prepare('INSERT INTO service_snapshots (run_id, step, services) VALUES (?, ?, ?)'),
      at: db.prepare<[string, number], { services: string }>(
        'SELECT services FROM service_snapshots WHERE run_id = ? AND step = ? ORDER BY id DESC LIMIT 1',
      ),
      all: db.prepare<[string], { services: string }>(
        'SELECT services FROM service_snapshots WHERE run_id = ?',
      ),
      // The newest row of each step after `step`, under another run id (a restore's kept branch).
      copyAfter: db.prepare(
        `INSERT INTO service_snapshots (run_id, step, services)
         SELECT ?, s.step, s.services FROM service_snapshots s
         WHERE s.run_id = ? AND s.step > ?
           AND s.id = (SELECT MAX(id) FROM service_snapshots WHERE run_id = s.run_id AND step = s.step)
         ORDER BY s.step`,
      ),
      remove: db.prepare('DELETE FROM service_snapshots WHERE run_id = ?'),
    };
  }

  /**
   * Runs `fn` in one transaction (a record and its new blobs land together). A rolled-back one
   * leaves the blob store's memos naming rows that are not there: they are dropped, as RunStore does.
   */
  transaction(fn: () => void): void {
    try {
      // IMMEDIATE, as every write transaction on the run database (runStore.ts `atomically`).
      this.db.transaction(fn).immediate();
    } catch (err) {
      this.blobs.resetCaches();
      throw err;
    }
  }

  /** Stores one service's snapshot bytes (deduplicated by content); returns the blob id. */
  putBlob(bytes: Uint8Array): number {
    return this.blobs.storeBytes(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  blob(id: number): Uint8Array | undefined {
    return this.blobs.loadBytes(id);
  }

  /** Records what each service's state was after `step` of `runId`. */
  put(runId: string, step: number, services: ServiceSnapshotMap): void {
    this.q.insert.run(runId, step, JSON.stringify(services));
  }

  /** The newest record of `step` of `runId`, or undefined (no service had been called by then). */
  at(runId: string, step: number): ServiceSnapshotMap | undefined {
    const r = this.q.at.get(runId, step);
    return r ? (JSON.parse(r.services) as ServiceSnapshotMap) : undefined;
  }

  /** Every service any record of `runId` names. */
  servicesOf(runId: string): Set<string> {
    const out = new Set<string>();
    for (const r of this.q.all.all(runId))
      for (const name of Object.keys(JSON.parse(r.services) as ServiceSnapshotMap)) out.add(name);
    return out;
  }

  /** Copies the records of the steps after `afterStep` of `fromRun` to `toRun` (rows only; blobs are shared). */
  copyAfter(fromRun: string, toRun: string, afterStep: number): void {
    this.q.copyAfter.run(toRun, fromRun, afterStep);
  }

  remove(runId: string): void {
    this.q.remove.run(runId);
  }
}
