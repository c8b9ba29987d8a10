// Batch ownership among several server instances (distributed mode): a lease per batch in
// PostgreSQL (`batch_leases`, migration 004), so that a batch whose owner dies is finished by
// another instance instead of staying `running` forever.
//  - The instance that starts a batch claims its lease before the batch row exists (no instance
//    ever sees a new batch unowned) and renews every lease it holds every `renewMs`; a lease lives
//    `ttlMs` past its last renewal, measured on the database's clock (the one clock all share).
//  - Every server instance scans every `scanMs` for queued or running distributed batches whose
//    lease has expired (their owner was killed, lost its machine, or froze) or that have none
//    (started before leases existed), takes the lease with one conditional statement — so of two
//    instances scanning at once exactly one wins — and hands the batch to its BatchManager
//    (`adopt`), which collects the rows the workers record and ends it.
//    Worst case from a kill to a takeover: ttlMs + scanMs (5 s + 1.5 s by default; the workers
//    keep executing the queued episodes meanwhile, they do not need an owner).
//  - Fencing: a batch's end is written in the same statement that deletes the lease, and only while
//    the lease is still this instance's; an owner that froze past its lease and wakes up finds it
//    gone (its renewal misses it: `onLost`, and its end writes nothing), so a batch is ended once.
//  - Episode rows need no fencing: a row is keyed by (batch, episode) and written by the worker
//    that ran it; an owner only reads them back, so a takeover counts each episode once.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { BatchEnd, BatchOwnership } from '../batch/batchManager.ts';

export const LEASE_TIMINGS = {
  /** How long a lease lives past its last renewal. */
  ttlMs: 5000,
  /** Renewal period of the leases an instance holds (two renewals may fail before it expires). */
  renewMs: 1500,
  /** How often an instance looks for batches whose lease expired. */
  scanMs: 1500,
};

export interface BatchLeasesOptions extends Partial<typeof LEASE_TIMINGS> {
  /** This instance's name in the lease table (default `<host>-<pid>-<random>`). */
  owner?: string;
  /** Takeovers and renewal trouble (default: stderr). */
  say?: (line: string) => void;
}

/** Takes a batch this instance just leased: true once it runs it, false to give the lease back. */
export type AdoptBatch = (batchId: string) => Promise<boolean>;

const SQL = {
  claim: `INSERT INTO batch_leases (batch_id, owner, expires_at)
    VALUES ($1, $2, now() + $3 * interval '1 millisecond')`,
  renew: `UPDATE batch_leases SET expires_at = now() + $3 * interval '1 millisecond'
    WHERE owner = $1 AND batch_id = ANY($2::text[]) RETURNING batch_id`,
  // Unfinished distributed batches nobody holds: no lease, or one past its expiry.
  orphans: `SELECT b.id FROM batches b LEFT JOIN batch_leases l ON l.batch_id = b.id
    WHERE b.status IN ('queued', 'running') AND b.mode = 'distributed'
      AND (l.batch_id IS NULL OR l.expires_at < now())
    ORDER BY b.created_at LIMIT 20`,
  // One statement: of several instances taking the same lease at once, one inserts or updates it,
  // the others find it unexpired (ON CONFLICT re-checks the WHERE on the row the winner wrote).
  take: `INSERT INTO batch_leases (batch_id, owner, expires_at, previous_owner)
    SELECT $1, $2, now() + $3 * interval '1 millisecond', NULL
    WHERE EXISTS (SELECT 1 FROM batches WHERE id = $1 AND status IN ('queued', 'running'))
    ON CONFLICT (batch_id) DO UPDATE
      SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at, acquired_at = now(),
          previous_owner = batch_leases.owner
      WHERE batch_leases.expires_at < now()
    RETURNING previous_owner`,
  // The end and the lease's deletion together, only while the lease is ours.
  end: `WITH mine AS (DELETE FROM batch_leases WHERE batch_id = $1 AND owner = $2 RETURNING batch_id)
    UPDATE batches SET status = $3, ended_at = $4, error = $5
    WHERE id = $1 AND EXISTS (SELECT 1 FROM mine) RETURNING id`,
  release: 'DELETE FROM batch_leases WHERE batch_id = $1 AND owner = $2',
};

export class BatchLeases implements BatchOwnership {
  readonly owner: string;
  private readonly timings: typeof LEASE_TIMINGS;
  private readonly say: (line: string) => void;
  /** Leases this instance holds (renewed). */
  private readonly held = new Set<string>();
  private readonly lostListeners: Array<(batchId: string) => void> = [];
  private readonly renewTimer: NodeJS.Timeout;
  private scanTimer?: NodeJS.Timeout;
  private renewing = false;
  private scanning = false;
  private renewFailing = false;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    opts: BatchLeasesOptions = {},
  ) {
    this.owner = opts.owner ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.timings = {
      ttlMs: opts.ttlMs ?? LEASE_TIMINGS.ttlMs,
      renewMs: opts.renewMs ?? LEASE_TIMINGS.renewMs,
      scanMs: opts.scanMs ?? LEASE_TIMINGS.scanMs,
    };
    this.say = opts.say ?? ((line) => console.error(`statewire: ${line}`));
    this.renewTimer = setInterval(() => void this.renew(), this.timings.renewMs);
    this.renewTimer.unref();
  }

  /** Batch ids whose lease this instance holds. */
  get holding(): string[] {
    return [...this.held];
  }

  async claim(batchId: string): Promise<void> {
    await this.pool.query(SQL.claim, [batchId, this.owner, this.timings.ttlMs]);
    this.held.add(batchId);
  }

  async end(batchId: string, end: BatchEnd): Promise<boolean> {
    // No renewal from here on: an end that fails (the database is down) leaves the lease to
    // expire, and another instance ends the batch then.
    this.held.delete(batchId);
    const r = await this.pool.query(SQL.end, [batchId, this.owner, end.status, end.ended_at, end.error]);
    return r.rowCount === 1;
  }

  async release(batchId: string): Promise<void> {
    this.held.delete(batchId);
    await this.pool.query(SQL.release, [batchId, this.owner]);
  }

  onLost(listener: (batchId: string) => void): void {
    this.lostListeners.push(listener);
  }

  /** Starts looking for orphaned batches; each one taken goes to `adopt`. */
  takeOver(adopt: AdoptBatch): void {
    if (this.scanTimer || this.closed) return;
    this.scanTimer = setInterval(() => void this.scan(adopt), this.timings.scanMs);
    this.scanTimer.unref();
    void this.scan(adopt); // a batch orphaned while no instance ran is taken at start
  }

  /** One renewal of every lease held; those missing from the answer were taken by another instance. */
  async renew(): Promise<void> {
    if (this.renewing || this.closed || this.held.size === 0) return;
    this.renewing = true;
    const sent = [...this.held];
    try {
      const r = await this.pool.query<{ batch_id: string }>(SQL.renew, [
        this.owner,
        sent,
        this.timings.ttlMs,
      ]);
      if (this.renewFailing) this.say(`batch leases: renewed again (${sent.length} held)`);
      this.renewFailing = false;
      const kept = new Set(r.rows.map((x) => x.batch_id));
      for (const id of sent) {
        // Ended or released while the renewal was in flight: not lost.
        if (kept.has(id) || !this.held.has(id)) continue;
        this.held.delete(id);
        this.say(`batch ${id}: its lease was taken by another instance (this one missed its renewals)`);
        for (const l of this.lostListeners) l(id);
      }
    } catch (err) {
      if (!this.renewFailing)
        this.say(
          `batch leases: renewal failed (${(err as Error).message}); retrying every ${this.timings.renewMs} ms`,
        );
      this.renewFailing = true;
    } finally {
      this.renewing = false;
    }
  }

  /** One look for orphaned batches; returns the ids this instance took. */
  async scan(adopt: AdoptBatch): Promise<string[]> {
    if (this.scanning || this.closed) return [];
    this.scanning = true;
    const taken: string[] = [];
    try {
      const orphans = (await this.pool.query<{ id: string }>(SQL.orphans)).rows;
      for (const { id } of orphans) {
        if (this.closed) break;
        // Ours, expired while the database was out of reach: the next renewal keeps it.
        if (this.held.has(id)) continue;
        const r = await this.pool.query<{ previous_owner: string | null }>(SQL.take, [
          id,
          this.owner,
          this.timings.ttlMs,
        ]);
        if (r.rowCount !== 1) continue; // another instance was quicker, or the batch just ended
        this.held.add(id);
        const from = r.rows[0]?.previous_owner;
        this.say(
          `batch ${id}: ${from ? `its owner ${from} stopped renewing its lease` : 'no instance held its lease (released, or started before leases)'}; ` +
            `taken over by ${this.owner}`,
        );
        let adopted = false;
        try {
          adopted = await adopt(id);
        } catch (err) {
          this.say(`batch ${id}: could not be taken over: ${(err as Error).message}`);
        }
        if (adopted) taken.push(id);
        else await this.release(id);
      }
    } catch (err) {
      // The database is unreachable for now: the next scan tries again.
      void err;
    } finally {
      this.scanning = false;
    }
    return taken;
  }

  /** Stops renewing and scanning; the leases still held expire and other instances take them. */
  close(): void {
    this.closed = true;
    clearInterval(this.renewTimer);
    clearInterval(this.scanTimer);
  }
}
