// The durable run log: run rows, the append-only event log (per-run monotonic seq), checkpoints
// (content-addressed through BlobStore) and the graph each run executed. `commit` writes a batch of
// events, an optional checkpoint and the run row's counters in ONE transaction, so after a crash the
// log and the checkpoints always agree (the runtime must not forget, nor half-remember: docs/architecture.md "Run state and durability").
import type { Checkpoint } from '../../engine/run.api.ts';
import { projectEvent, type DataPath, type ProjectedEvent } from '../../domain/batch/query.ts';
import type { EventEnvelope, RunStatus } from '../../domain/protocol/protocol.ts';
import type { RunSummary } from '../../domain/protocol/protocol.rest.ts';
import { BlobStore } from './blobStore.ts';
import { Compactor } from './compaction.ts';
import { ShapeStore } from './shapes.ts';
import {
  decodePage,
  encodePage,
  PAGED_TYPES,
  pagedEnvelope,
  type EncodedPage,
  type PagedEvent,
} from './eventPages.ts';
import type { Db } from './database.ts';
import { blockInRanges, inPlan, keptRanges, type TailPlan } from './tailPlan.ts';
import { StoredValueError, ValueTooLargeError, refusedValueEvent } from './valueLimits.ts';
import {
  batchField,
  batchIdOf,
  kindOfNewRun,
  type RunKind,
  type RunListQuery,
  type RunListRow,
} from './runList.ts';

export interface NewRun {
  id: string;
  graphName: string;
  graph: unknown;
  status: RunStatus;
  startedAt: string;
  parentRunId: string | null;
  parentStep: number | null;
  lineage: string;
  freshEffects: boolean;
  stepDelayMs: number;
  /** Version of the graph it runs (runs/graphVersion.ts); a batch episode carries its batch's. */
  graphVersion?: string | null;
  /** What the run list calls it; default: by its parent and id (runList.ts kindOfNewRun). */
  kind?: RunKind;
}

interface RunRow {
  rid: number;
  id: string;
  graph_name: string;
  graph_hash: string;
  status: string;
  steps: number;
  last_seq: number;
  started_at: string;
  ended_at: string | null;
  parent_run_id: string | null;
  parent_step: number | null;
  lineage: string;
  fresh_effects: number;
  step_delay_ms: number;
  error: string | null;
  graph_version: string | null;
  kind: RunKind;
  batch_id: string | null;
}
export type StoredRun = RunSummary & { fresh_effects: boolean; step_delay_ms: number };

interface BranchRow {
  run_id: string;
  of_run: string;
  at_step: number;
  from_seq: number;
  to_seq: number;
  created_at: string;
  from_step: number | null;
  to_step: number | null;
}
const BRANCH_COLUMNS = 'run_id, of_run, at_step, from_seq, to_seq, created_at, from_step, to_step';

/** A run that holds the steps a restore abandoned: branch of `of_run` at `at_step`. */
export interface BranchInfo {
  run_id: string;
  of_run: string;
  at_step: number;
  from_step: number;
  to_step: number;
  created_at: string;
}

interface PageRow {
  seq: number;
  first: number;
  n: number;
  data: Buffer;
}

interface EventRow {
  seq: number;
  type: string;
  ts: number;
  enc: number;
  data: string;
}

/**
 * The status of a run a bundle import is still writing (runs/bundleImport.ts): hidden from
 * `getRun`/`listRuns` (so nothing reads, forks or deletes it half-written), given its real status
 * in the import's last transaction, and removed at the next start if the server stopped first.
 */
export const IMPORTING = 'importing';

/** Event types whose payloads repeat big values step after step: stored through the blob store. */
const BLOB_ENCODED = new Set(['nav_step', 'restored', 'state_written', 'viewer_data']);

export interface StepPart {
  events: readonly EventEnvelope[];
  checkpoint?: Checkpoint;
  /** The step's last seq when its paged events travel in the commit's `page` (eventPages.pageOut). */
  through?: number;
}

export interface CommitBatch extends StepPart {
  /** Whole steps committed in the same transaction before `events` (group commit). */
  earlier?: readonly StepPart[];
  steps?: number;
  status?: RunStatus;
  endedAt?: string | null;
  error?: string | null;
  /**
   * Write blob-encoded payloads and checkpoints as plain roots (BlobStore.putPlain): the cheapest
   * durable form, for a run driven flat out; compaction encodes them once the run has ended.
   */
  plain?: boolean;
  /** The commit's paged events, encoded already (eventPages.pageOut): `events` hold none of them. */
  page?: EncodedPage;
}

const toSummary = (r: RunRow): StoredRun => ({
  id: r.id,
  graph_name: r.graph_name,
  status: r.status,
  steps: r.steps,
  last_seq: r.last_seq,
  started_at: r.started_at,
  ended_at: r.ended_at,
  parent_run_id: r.parent_run_id,
  parent_step: r.parent_step,
  lineage: r.lineage,
  error: r.error,
  graph_version: r.graph_version,
  fresh_effects: r.fresh_effects === 1,
  step_delay_ms: r.step_delay_ms,
});

export class RunStore {
  readonly blobs: BlobStore;
  /** Packs finished runs in the background (the run manager says when a run ends). */
  readonly compaction: Compactor;
  private readonly shapes: ShapeStore;
  private readonly q;
  /** Statements on run_branches (prepared once the table is sure to exist). */
  private readonly bq;

  /**
   * Bytes of JSON each envelope read from the log expands to (blob-encoded payloads; others count
   * nothing), so `events` can cut a page by size without measuring anything twice.
   */
  private readonly envelopeBytes = new WeakMap<EventEnvelope, number>();

  /** `maxValueBytes`: the largest value a read hands out (valueLimits.ts); default unbounded. */
  constructor(
    readonly db: Db,
    opts: { maxValueBytes?: number } = {},
  ) {
    this.blobs = new BlobStore(db, undefined, opts.maxValueBytes);
    this.shapes = new ShapeStore(db);
    this.compaction = new Compactor(db, {}, this.blobs);
    this.q = {
      insertRun: db.prepare(
        `INSERT INTO runs (id, graph_name, graph_hash, status, steps, last_seq, started_at, parent_run_id, parent_step, lineage, fresh_effects, step_delay_ms, graph_version, kind, batch_id)
         VALUES (@id, @graph_name, @graph_hash, @status, 0, 0, @started_at, @parent_run_id, @parent_step, @lineage, @fresh_effects, @step_delay_ms, @graph_version, @kind, @batch_id)`,
      ),
      insertEvent: db.prepare(
        'INSERT INTO events (run, seq, type, ts, step, enc, data) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      rid: db.prepare<[string], { rid: number }>('SELECT rid FROM runs WHERE id = ?'),
      insertCheckpoint: db.prepare(`INSERT INTO checkpoints (run, seq, step, root) VALUES (?, ?, ?, ?)`),
      updateCounters: db.prepare(
        `UPDATE runs SET last_seq = MAX(last_seq, @last_seq), steps = COALESCE(@steps, steps), status = COALESCE(@status, status),
         ended_at = CASE WHEN @set_ended THEN @ended_at ELSE ended_at END, error = CASE WHEN @set_error THEN @error ELSE error END WHERE id = @id`,
      ),
      getRun: db.prepare<[string], RunRow>('SELECT * FROM runs WHERE id = ?'),
      listRuns: db.prepare<[number], RunRow>(
        `SELECT * FROM runs WHERE status != '${IMPORTING}' ORDER BY started_at DESC, rid DESC LIMIT ?`,
      ),
      events: db.prepare<[number, number, number], EventRow>(
        'SELECT seq, type, ts, enc, data FROM events WHERE run = ? AND seq > ? ORDER BY seq LIMIT ?',
      ),
      eventsOfType: db.prepare<[number, number, string, number], EventRow>(
        'SELECT seq, type, ts, enc, data FROM events WHERE run = ? AND seq > ? AND type = ? ORDER BY seq LIMIT ?',
      ),
      dataOfType: db.prepare<[number, string], { seq: number; data: string }>(
        'SELECT seq, data FROM events WHERE run = ? AND type = ? ORDER BY seq',
      ),
      checkpointSteps: db.prepare<[number], { step: number }>(
        'SELECT DISTINCT step FROM checkpoints WHERE run = ? ORDER BY step',
      ),
      checkpointAt: db.prepare<[number, number], { seq: number; step: number; root: string }>(
        'SELECT seq, step, root FROM checkpoints WHERE run = ? AND step = ? ORDER BY seq DESC LIMIT 1',
      ),
      snapExact: db.prepare<[number, number], EventRow>(
        `SELECT seq, type, ts, enc, data FROM events WHERE run = ? AND step = ? AND type IN ('nav_step', 'restored') ORDER BY type = 'nav_step' DESC, seq DESC LIMIT 1`,
      ),
      snapBefore: db.prepare<[number, number], EventRow>(
        `SELECT seq, type, ts, enc, data FROM events WHERE run = ? AND step < ? AND type IN ('nav_step', 'restored') ORDER BY step DESC, seq DESC LIMIT 1`,
      ),
      foldable: db.prepare<[number, number, number, number], EventRow>(
        `SELECT seq, type, ts, enc, data FROM events WHERE run = ? AND seq > ? AND step > ? AND step <= ? AND type IN ('state_written', 'signal') ORDER BY seq`,
      ),
      // Uses the partial snapshot index; the last (partial) step of a crashed run has no nav_step, but
      // its events were never committed either (whole steps commit together).
      maxStep: db.prepare<[number], { m: number | null }>(
        `SELECT MAX(step) AS m FROM events WHERE run = ? AND type IN ('nav_step', 'restored')`,
      ),
      checkpointList: db.prepare<[number, number], { seq: number; step: number; root: string }>(
        'SELECT seq, step, root FROM checkpoints WHERE run = ? AND seq <= ? ORDER BY seq',
      ),
      checkpointsBetween: db.prepare<[number, number, number], { seq: number; step: number; root: string }>(
        'SELECT seq, step, root FROM checkpoints WHERE run = ? AND seq > ? AND seq <= ? ORDER BY seq',
      ),
      lastSeq: db.prepare<[number], { last_seq: number }>('SELECT last_seq FROM runs WHERE rid = ?'),
      insertPage: db.prepare('INSERT INTO event_pages (run, seq, first, n, data) VALUES (?, ?, ?, ?, ?)'),
      pagesAfter: db.prepare<[number, number], PageRow>(
        'SELECT seq, first, n, data FROM event_pages WHERE run = ? AND seq > ? ORDER BY seq',
      ),
      pageHeadsAfter: db.prepare<[number, number], { seq: number; first: number; n: number }>(
        'SELECT seq, first, n FROM event_pages WHERE run = ? AND seq > ? ORDER BY seq',
      ),
      pageData: db.prepare<[number, number], { data: Buffer }>(
        'SELECT data FROM event_pages WHERE run = ? AND seq = ?',
      ),
      interrupt: db.prepare(
        `UPDATE runs SET status = 'interrupted', ended_at = COALESCE(ended_at, ?) WHERE status IN ('running', 'paused', 'idle')`,
      ),
    };
    // Here, not on first use: a table created inside a transaction that rolls back would be gone
    // while this store believed it existed (and the pending branches must be known before any read).
    this.ensureBranches();
    this.markOlderKinds();
    this.bq = {
      navStepRange: db.prepare<[number, number, number], { lo: number | null; hi: number | null }>(
        `SELECT MIN(step) AS lo, MAX(step) AS hi FROM events INDEXED BY events_nav
         WHERE run = ? AND type = 'nav_step' AND seq > ? AND seq <= ?`,
      ),
      taken: db.prepare<[string, number], { from_seq: number; to_seq: number }>(
        'SELECT from_seq, to_seq FROM run_branches WHERE of_run = ? AND from_seq >= ?',
      ),
      insert: db.prepare(
        `INSERT INTO run_branches (run_id, of_run, at_step, from_seq, to_seq, created_at, pending, from_step, to_step)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
    };
  }

  /**
   * Runs `fn` in one transaction. When it fails (disk full…) the blobs and shapes it inserted are
   * rolled back, so their memos must go too: a later put would otherwise skip a blob that is not
   * there and store a reference to nothing (a graph or checkpoint that can never be read back).
   */
  private atomically(fn: () => void): void {
    try {
      // IMMEDIATE: episode children write this file through connections of their own
      // (batch/episodeDbLog.ts); a transaction that read before taking the write lock would fail
      // at once (SQLITE_BUSY_SNAPSHOT) if one of them committed in between, instead of waiting.
      this.db.transaction(fn).immediate();
    } catch (err) {
      this.blobs.resetCaches();
      this.shapes.resetCaches();
      throw err;
    }
  }

  createRun(r: NewRun): void {
    this.atomically(() => {
      this.q.insertRun.run({
        id: r.id,
        graph_name: r.graphName,
        graph_hash: this.blobs.put(r.graph),
        status: r.status,
        started_at: r.startedAt,
        parent_run_id: r.parentRunId,
        parent_step: r.parentStep,
        lineage: r.lineage,
        fresh_effects: r.freshEffects ? 1 : 0,
        step_delay_ms: r.stepDelayMs,
        graph_version: r.graphVersion ?? null,
        kind: kindOfNewRun(r.id, r.parentRunId, r.kind),
        batch_id: batchIdOf(r.id),
      });
    });
    this.changed(r.id);
  }

  // ---- change listeners (distributed/runForwarder.ts copies every run to PostgreSQL) ----

  private readonly listeners = new Set<(runId: string, deleted: boolean) => void>();

  /**
   * Calls `fn` after every write to a run's row or log (`deleted`: the run is gone). Called while
   * a surrounding `transaction` may still roll back: a listener reads the store later (never in the
   * call) and finds what committed. Returns the unsubscribe.
   */
  onChange(fn: (runId: string, deleted: boolean) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Another connection to this file (an episode child: batch/episodeDbLog.ts) committed to `runId`:
   * the change listeners hear of it as of a commit made here.
   */
  writtenElsewhere(runId: string): void {
    this.changed(runId);
  }

  private changed(runId: string, deleted = false): void {
    for (const fn of this.listeners) fn(runId, deleted);
  }

  /**
   * Appends events (+ checkpoint + counters) atomically. Events must carry consecutive seqs. With
   * `earlier`, several whole steps share the transaction (a step is never split across two).
   */
  commit(runId: string, batch: CommitBatch): void {
    const rid = this.rid(runId);
    const root = batch.plain ? (v: unknown) => this.blobs.putPlain(v) : (v: unknown) => this.blobs.put(v);
    this.atomically(() => {
      let lastSeq = 0;
      // Seqs only grow: paged events have no (run, seq) key of their own to refuse a repeated seq.
      let prevSeq = this.q.lastSeq.get(rid)?.last_seq ?? 0;
      const page = batch.page;
      if (page && !(page.first > prevSeq))
        throw new Error(`run ${runId}: event seq ${page.first} is not after seq ${prevSeq} (seqs only grow)`);
      // One page for the whole commit: a group of steps compresses as one (one deflate call, the
      // repeated node ids and keys of every step in one window), and readers take pages of many
      // steps anyway (compaction packs them so).
      const paged: PagedEvent[] = [];
      for (const part of [...(batch.earlier ?? []), batch]) {
        for (const e of part.events) {
          if (!(e.seq > prevSeq))
            throw new Error(`run ${runId}: event seq ${e.seq} is not after seq ${prevSeq} (seqs only grow)`);
          prevSeq = e.seq;
          lastSeq = e.seq;
          if (PAGED_TYPES.has(e.type)) {
            if (page)
              throw new Error(`run ${runId}: event ${e.seq} (${e.type}) belongs in the commit's page`);
            paged.push({ seq: e.seq, type: e.type, ts: Date.parse(e.ts), data: e.data });
            continue;
          }
          const step =
            typeof (e.data as { step?: unknown } | null)?.step === 'number'
              ? (e.data as { step: number }).step
              : null;
          if (BLOB_ENCODED.has(e.type))
            this.q.insertEvent.run(rid, e.seq, e.type, Date.parse(e.ts), step, 1, root(e.data));
          else {
            const shaped = this.shapes.encode(e.data);
            this.q.insertEvent.run(
              rid,
              e.seq,
              e.type,
              Date.parse(e.ts),
              step,
              shaped === undefined ? 0 : 2,
              shaped ?? JSON.stringify(e.data ?? null),
            );
          }
        }
        if (part.through !== undefined) lastSeq = Math.max(lastSeq, part.through);
        if (part.checkpoint)
          this.q.insertCheckpoint.run(rid, lastSeq, part.checkpoint.step, root(part.checkpoint.state));
      }
      if (page) {
        // From another thread it arrives as a plain Uint8Array: bound as the same BLOB.
        const bytes = Buffer.from(page.bytes.buffer, page.bytes.byteOffset, page.bytes.byteLength);
        this.q.insertPage.run(rid, page.last, page.first, page.n, bytes);
        lastSeq = Math.max(lastSeq, page.last);
      } else this.putPage(rid, paged);
      this.q.updateCounters.run({
        id: runId,
        last_seq: lastSeq,
        steps: batch.steps ?? null,
        status: batch.status ?? null,
        set_ended: batch.endedAt !== undefined ? 1 : 0,
        ended_at: batch.endedAt ?? null,
        set_error: batch.error !== undefined ? 1 : 0,
        error: batch.error ?? null,
      });
    });
    this.changed(runId);
  }

  /**
   * An event row as an envelope. A payload that expands past the value limit (or contains itself)
   * is never handed out: `strict` throws the reason naming the event, otherwise an `error_event` at
   * the same seq takes its place, so a log reader still sees every seq and learns why.
   */
  private envelope(runId: string, r: EventRow, strict = false): EventEnvelope {
    const ts = new Date(r.ts).toISOString();
    if (r.enc !== 1)
      return {
        type: r.type as EventEnvelope['type'],
        runId,
        seq: r.seq,
        ts,
        data: r.enc === 2 ? this.shapes.decode(r.data) : JSON.parse(r.data),
      };
    try {
      const { value, bytes } = this.blobs.getSized(r.data);
      if (bytes > this.blobs.maxValueBytes) throw new ValueTooLargeError(bytes, this.blobs.maxValueBytes);
      const env: EventEnvelope = {
        type: r.type as EventEnvelope['type'],
        runId,
        seq: r.seq,
        ts,
        data: value,
      };
      this.envelopeBytes.set(env, bytes);
      return env;
    } catch (err) {
      if (!(err instanceof StoredValueError)) throw err;
      const named = err.about(`event ${r.seq} (${r.type}) of run ${runId}`);
      if (strict) throw named;
      return refusedValueEvent(runId, r.seq, ts, r.type, named);
    }
  }

  /** One page row for a step's paged events (none when it has none). */
  private putPage(rid: number, paged: readonly PagedEvent[]): void {
    const last = paged[paged.length - 1];
    if (last) this.q.insertPage.run(rid, last.seq, paged[0]!.seq, paged.length, encodePage(paged));
  }

  /**
   * Paged events after `after` (ascending), decoded page by page until `enough` of them passed
   * `keep`, or until the pages start beyond `bound`.
   */
  private pagedAfter(
    rid: number,
    after: number,
    enough: number,
    keep: (e: PagedEvent) => boolean = () => true,
    bound = Infinity,
  ): PagedEvent[] {
    const out: PagedEvent[] = [];
    for (const page of this.q.pagesAfter.iterate(rid, after) as IterableIterator<PageRow>) {
      if (out.length >= enough || page.first > bound) break;
      for (const e of decodePage(page.data)) if (e.seq > after && e.seq <= bound && keep(e)) out.push(e);
    }
    return out;
  }

  private readonly rids = new Map<string, number>();
  /**
   * Integer key of a run (events/checkpoints store it instead of the id string); -1 when unknown.
   * Every read and write of a run's events goes through here, so a branch still held as a plan is
   * copied into rows of its own first (materializeBranch).
   */
  private rid(runId: string): number {
    if (this.pendingBranches.has(runId)) this.materializeBranch(runId);
    let rid = this.rids.get(runId);
    if (rid === undefined) {
      rid = this.q.rid.get(runId)?.rid;
      if (rid === undefined) return -1;
      this.rids.set(runId, rid);
    }
    return rid;
  }

  getRun(id: string): StoredRun | undefined {
    const r = this.q.getRun.get(id);
    return r && r.status !== IMPORTING ? toSummary(r) : undefined;
  }

  /** Whether a row holds this id, a run still being imported included. */
  hasRunId(id: string): boolean {
    return this.q.getRun.get(id) !== undefined;
  }

  /** Deletes the runs an import was writing when the server stopped; returns their ids. */
  removeUnfinishedImports(): string[] {
    const ids = this.db
      .prepare<[], { id: string }>(`SELECT id FROM runs WHERE status = '${IMPORTING}'`)
      .all()
      .map((r) => r.id);
    for (const id of ids) this.deleteRun(id);
    return ids;
  }

  listRuns(limit = 500): StoredRun[] {
    return this.q.listRuns.all(limit).map(toSummary);
  }

  /** A page of the run list, newest first (runList.ts): keyset on (started_at, id), exact filters. */
  listPage(q: RunListQuery): RunListRow[] {
    const where = [`r.status != '${IMPORTING}'`];
    const args: (string | number)[] = [];
    for (const [col, v] of [
      ['graph_name', q.graph],
      ['status', q.status],
      ['kind', q.kind],
      ['batch_id', q.batch],
    ] as const)
      if (v !== undefined) {
        where.push(`r.${col} = ?`);
        args.push(v);
      }
    if (q.before) {
      where.push('(r.started_at, r.id) < (?, ?)');
      args.push(q.before.startedAt, q.before.id);
    }
    const rows = this.db
      .prepare<(string | number)[], RunRow & { b_status: string | null; b_episodes: number | null }>(
        `SELECT r.*, b.status AS b_status, b.episodes AS b_episodes FROM runs r
         LEFT JOIN batches b ON b.id = r.batch_id
         WHERE ${where.join(' AND ')} ORDER BY r.started_at DESC, r.id DESC LIMIT ?`,
      )
      .all(...args, q.limit);
    return rows.map((r) => ({
      ...toSummary(r),
      kind: r.kind,
      batch: batchField(
        r.id,
        r.b_status === null ? undefined : { status: r.b_status, episodes: r.b_episodes ?? 0 },
      ),
    }));
  }

  /** The kind of a stored run (undefined: no such run). */
  kindOf(id: string): RunKind | undefined {
    return this.q.getRun.get(id)?.kind;
  }

  graphOf(id: string): unknown {
    const r = this.q.getRun.get(id);
    return r ? this.blobs.get(r.graph_hash) : undefined;
  }

  /**
   * Up to `limit` events after `after`, in seq order. `maxBytes` bounds what the page expands to:
   * it ends after the event that passes it (always at least one event), so a reader that sends the
   * page as one answer never serializes more than about that; page on from the last seq.
   */
  events(runId: string, after: number, limit: number, type?: string, maxBytes = Infinity): EventEnvelope[] {
    const page = this.eventPage(runId, after, limit, type);
    if (maxBytes === Infinity) return page;
    let total = 0;
    for (let i = 0; i < page.length; i++) {
      total += this.envelopeBytes.get(page[i]!) ?? 0;
      if (total > maxBytes) return page.slice(0, i + 1);
    }
    return page;
  }

  private eventPage(runId: string, after: number, limit: number, type?: string): EventEnvelope[] {
    const rid = this.rid(runId);
    if (limit <= 0) return [];
    if (type !== undefined && PAGED_TYPES.has(type)) {
      // Rows of this type exist only in a database written before pages (schema 3): merged below.
      const rows = this.q.eventsOfType.all(rid, after, type, limit).map((r) => this.envelope(runId, r));
      const paged = this.pagedAfter(rid, after, limit, (e) => e.type === type);
      return mergeBySeq(
        rows,
        paged.map((e) => pagedEnvelope(runId, e)),
        limit,
      );
    }
    const rows =
      type === undefined
        ? this.q.events.all(rid, after, limit)
        : this.q.eventsOfType.all(rid, after, type, limit);
    const envelopes = rows.map((r) => this.envelope(runId, r));
    if (type !== undefined) return envelopes;
    // The first `limit` events after `after` are among the first `limit` rows and the first `limit`
    // paged events; no paged event beyond the last row can make it when the rows alone fill `limit`.
    const bound = rows.length === limit ? rows[rows.length - 1]!.seq : Infinity;
    const paged = this.pagedAfter(rid, after, limit, undefined, bound);
    return mergeBySeq(
      envelopes,
      paged.map((e) => pagedEnvelope(runId, e)),
      limit,
    );
  }

  /**
   * Every event of `type` of a run reduced to the values at `paths` (RunLog.projectEvents). Blob
   * payloads are walked, not decoded whole (BlobStore.project); small ones are read as usual.
   */
  projectEvents(runId: string, type: string, paths: readonly DataPath[]): ProjectedEvent[] {
    if (!BLOB_ENCODED.has(type))
      return this.events(runId, 0, Number.MAX_SAFE_INTEGER, type).map((e) => ({
        seq: e.seq,
        values: projectEvent(e.data, paths),
      }));
    return this.q.dataOfType
      .all(this.rid(runId), type)
      .map((r) => ({ seq: r.seq, values: this.blobs.project(r.data, paths) }));
  }

  checkpointSteps(runId: string): number[] {
    return this.q.checkpointSteps.all(this.rid(runId)).map((r) => r.step);
  }

  /** The latest checkpoint stored for `step` (a restore may have re-run a step; the newest wins). */
  checkpoint(runId: string, step: number): (Checkpoint & { seq: number }) | undefined {
    const r = this.q.checkpointAt.get(this.rid(runId), step);
    if (!r) return undefined;
    try {
      return { step: r.step, seq: r.seq, state: this.blobs.get(r.root) };
    } catch (err) {
      if (err instanceof StoredValueError) throw err.about(`the checkpoint of step ${step} of run ${runId}`);
      throw err;
    }
  }

  /**
   * The snapshot event for `step` (exact, else the nearest before it) and the events to fold on top.
   * At an exact step a nav_step wins over a `restored` (the latter is the engine's post-step_end view,
   * with step-lifetime slots already cleared; the nav_step shows what the step wrote).
   */
  stateEvents(runId: string, step: number): { base: EventEnvelope | undefined; after: EventEnvelope[] } {
    const rid = this.rid(runId);
    const exact = this.q.snapExact.get(rid, step);
    if (exact) return { base: this.envelope(runId, exact, true), after: [] };
    const before = this.q.snapBefore.get(rid, step);
    const base = before ? this.envelope(runId, before, true) : undefined;
    const baseStep = base ? ((base.data as { step?: number }).step ?? -1) : -1;
    return {
      base,
      // Folded types (state_written, signal) are never paged (eventPages.ts): rows only.
      after: this.q.foldable
        .all(rid, base?.seq ?? 0, baseStep, step)
        .map((r) => this.envelope(runId, r, true)),
    };
  }

  /** Highest step with a committed snapshot event (-1 when none). */
  maxStep(runId: string): number {
    return this.q.maxStep.get(this.rid(runId))?.m ?? -1;
  }

  // ---- run bundles (runs/bundleExport.ts, runs/bundleImport.ts) ----

  /** Runs `fn` in one transaction (nested `commit`s become savepoints); a failure rolls all of it back. */
  transaction<T>(fn: () => T): T {
    let out: T | undefined;
    try {
      this.atomically(() => {
        out = fn();
      });
    } catch (err) {
      // A run created inside `fn` is gone again: its cached integer key must not outlive it.
      this.rids.clear();
      throw err;
    }
    return out as T;
  }

  /** Every checkpoint of a run up to `maxSeq`, oldest first (roots stay encoded: decode with `blobs.get`). */
  checkpointList(runId: string, maxSeq: number): { seq: number; step: number; root: string }[] {
    return this.q.checkpointList.all(this.rid(runId), maxSeq);
  }

  /** Stores a checkpoint under an explicit seq (an imported run keeps its original seqs). */
  putCheckpoint(runId: string, seq: number, checkpoint: Checkpoint): void {
    const rid = this.rid(runId);
    this.atomically(() => {
      this.q.insertCheckpoint.run(rid, seq, checkpoint.step, this.blobs.put(checkpoint.state));
    });
    this.changed(runId);
  }

  /** The checkpoints of a run with `afterSeq < seq <= toSeq`, oldest first (roots encoded). */
  checkpointsBetween(
    runId: string,
    afterSeq: number,
    toSeq: number,
  ): { seq: number; step: number; root: string }[] {
    return this.q.checkpointsBetween.all(this.rid(runId), afterSeq, toSeq);
  }

  // ---- delete and branches (runs/runManager.ts: deleteRun, restore keeps the abandoned tail) ----

  /** Branch runs still held as a plan over their parent's rows (tailPlan.ts), not yet copied. */
  private readonly pendingBranches = new Set<string>();
  /**
   * `run_branches`: which runs hold the steps a restore abandoned (created when a store opens, like
   * run_imports). `pending` is the branch's TailPlan as JSON until its events are copied (NULL
   * after); `from_step`/`to_step` are the range of its nav_steps (NULL on rows of older versions,
   * which read it from the branch's own events).
   */
  private ensureBranches(): void {
    this.db.exec(`CREATE TABLE IF NOT EXISTS run_branches (
      run_id TEXT PRIMARY KEY,
      of_run TEXT NOT NULL,
      at_step INTEGER NOT NULL,
      from_seq INTEGER NOT NULL,
      to_seq INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      pending TEXT,
      from_step INTEGER,
      to_step INTEGER
    ) WITHOUT ROWID`);
    const cols = new Set(
      this.db
        .prepare<[], { name: string }>('PRAGMA table_info(run_branches)')
        .all()
        .map((c) => c.name),
    );
    // The steps a seq range ran, read from a few bytes per step (keepTailAsBranch).
    this.db.exec(`CREATE INDEX IF NOT EXISTS events_nav ON events(run, seq, step) WHERE type = 'nav_step'`);
    for (const [col, type] of [
      ['pending', 'TEXT'],
      ['from_step', 'INTEGER'],
      ['to_step', 'INTEGER'],
    ] as const)
      if (!cols.has(col)) this.db.exec(`ALTER TABLE run_branches ADD COLUMN ${col} ${type}`);
    for (const r of this.db
      .prepare<[], { run_id: string }>('SELECT run_id FROM run_branches WHERE pending IS NOT NULL')
      .all())
      this.pendingBranches.add(r.run_id);
  }

  /**
   * Rows written before the `kind` column (migration 7) say `run`/`fork`: branches and imported
   * runs are told by their marks (run_branches, run_imports), cheap to look up (small tables).
   */
  private markOlderKinds(): void {
    this.db.exec(
      `UPDATE runs SET kind = 'branch' WHERE kind != 'branch' AND id IN (SELECT run_id FROM run_branches)`,
    );
    const imports = this.db
      .prepare<[], { n: number }>(
        "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'run_imports'",
      )
      .get();
    if (imports?.n)
      this.db.exec(
        `UPDATE runs SET kind = 'imported' WHERE kind NOT IN ('imported', 'branch') AND id IN (SELECT run_id FROM run_imports)`,
      );
  }

  /** Branches kept off `runId` (newest first). */
  branchesOf(runId: string): BranchInfo[] {
    return this.db
      .prepare<[string], BranchRow>(
        `SELECT ${BRANCH_COLUMNS} FROM run_branches WHERE of_run = ? ORDER BY created_at DESC, to_seq DESC`,
      )
      .all(runId)
      .map((r) => this.branchInfo(r));
  }

  /** The branch record of a run that is one (else undefined). */
  branchRecord(runId: string): BranchInfo | undefined {
    const r = this.db
      .prepare<[string], BranchRow>(`SELECT ${BRANCH_COLUMNS} FROM run_branches WHERE run_id = ?`)
      .get(runId);
    return r ? this.branchInfo(r) : undefined;
  }

  /** Every branch run id (for the run list's `kind`). */
  /** Each batch's status and episode count: the Runs list groups a batch's episode runs under it. */
  batchStates(): Map<string, { status: string; episodes: number }> {
    const rows = this.db
      .prepare<[], { id: string; status: string; episodes: number }>(
        'SELECT id, status, episodes FROM batches',
      )
      .all();
    return new Map(rows.map((r) => [r.id, { status: r.status, episodes: r.episodes }]));
  }

  branchIds(): Set<string> {
    return new Set(
      this.db
        .prepare<[], { run_id: string }>('SELECT run_id FROM run_branches')
        .all()
        .map((r) => r.run_id),
    );
  }

  private branchInfo(r: BranchRow): BranchInfo {
    // Rows written before from_step/to_step existed: the branch's own (copied) events say it.
    const steps =
      r.from_step !== null && r.to_step !== null
        ? { lo: r.from_step, hi: r.to_step }
        : this.db
            .prepare<[number], { lo: number | null; hi: number | null }>(
              `SELECT MIN(step) AS lo, MAX(step) AS hi FROM events WHERE run = ? AND type = 'nav_step'`,
            )
            .get(this.rid(r.run_id));
    return {
      run_id: r.run_id,
      of_run: r.of_run,
      at_step: r.at_step,
      from_step: steps?.lo ?? r.at_step + 1,
      to_step: steps?.hi ?? r.at_step,
      created_at: r.created_at,
    };
  }

  /**
   * Keeps the events of `runId` after `afterSeq` (the checkpoint of the step restored to) as the new
   * run `branch`, leaving out ranges an earlier restore already branched off. Only the PLAN is
   * written here (tailPlan.ts) with the branch's run row and counters, so a restore costs the same
   * at step 10 as at step 10,000; the events are copied when the branch is first read or changed
   * (materializeBranch). Returns the branch's event count (0: no step was abandoned; then nothing
   * is written).
   */
  keepTailAsBranch(runId: string, afterSeq: number, branch: NewRun, atStep: number, now: string): number {
    const rid = this.rid(runId);
    const taken = this.bq.taken.all(runId, afterSeq).map((t) => [t.from_seq, t.to_seq] as const);
    const plan: TailPlan = { after: afterSeq, to: this.q.lastSeq.get(rid)?.last_seq ?? 0, taken };
    const kept = keptRanges(plan);
    // A run's seqs are consecutive (commit appends seq after seq), so a range holds t - f events
    // and ends at t; the steps it ran come from the events_nav index (one small entry per step):
    // no event row is read, so a long tail costs little more than a short one.
    let count = 0;
    let last = afterSeq;
    let fromStep: number | null = null;
    let toStep: number | null = null;
    for (const [f, t] of kept) {
      count += t - f;
      last = Math.max(last, t);
      const s = this.bq.navStepRange.get(rid, f, t)!;
      if (s.lo !== null) fromStep = fromStep === null ? s.lo : Math.min(fromStep, s.lo);
      if (s.hi !== null) toStep = toStep === null ? s.hi : Math.max(toStep, s.hi);
    }
    if (toStep === null || toStep <= atStep) return 0;
    this.transaction(() => {
      this.createRun({ ...branch, kind: 'branch' });
      this.q.updateCounters.run({
        id: branch.id,
        last_seq: count,
        steps: Math.max(atStep, toStep),
        status: 'stopped',
        set_ended: 1,
        ended_at: now,
        set_error: 0,
        error: null,
      });
      this.bq.insert.run(
        branch.id,
        runId,
        atStep,
        afterSeq,
        last,
        now,
        JSON.stringify(plan),
        fromStep,
        toStep,
      );
    });
    this.pendingBranches.add(branch.id);
    return count;
  }

  /**
   * Copies a pending branch's events (its plan's seqs of the parent, renumbered from 1, payloads as
   * stored: blobs and shapes are shared, event pages re-encoded with the new seqs) and the
   * checkpoints among them into the branch's own rows, in one transaction. Re-checks the row, so a
   * branch another connection already copied is left alone.
   */
  private materializeBranch(branchId: string): void {
    this.pendingBranches.delete(branchId);
    const row = this.db
      .prepare<[string], { of_run: string; pending: string | null }>(
        'SELECT of_run, pending FROM run_branches WHERE run_id = ?',
      )
      .get(branchId);
    if (!row?.pending) return;
    const plan = JSON.parse(row.pending) as TailPlan;
    const rid = this.rid(row.of_run);
    const kept = (seq: number) => inPlan(plan, seq);
    const rows = this.db
      .prepare<[number, number, number], EventRow & { step: number | null }>(
        'SELECT seq, type, ts, step, enc, data FROM events WHERE run = ? AND seq > ? AND seq <= ? ORDER BY seq',
      )
      .all(rid, plan.after, plan.to)
      .filter((r) => kept(r.seq));
    // Paged events, one group per source page (each becomes one page of the branch).
    const ranges = keptRanges(plan);
    const groups: PagedEvent[][] = [];
    for (const head of this.q.pageHeadsAfter.all(rid, plan.after)) {
      if (head.first > plan.to) break;
      if (blockInRanges(ranges, head.first, head.seq) === 'none') continue; // taken whole: not decoded
      const events = decodePage(this.q.pageData.get(rid, head.seq)!.data).filter((e) => kept(e.seq));
      if (events.length > 0) groups.push(events);
    }
    const seqs = [...rows.map((r) => r.seq), ...groups.flat().map((e) => e.seq)].sort((a, b) => a - b);
    const renumber = new Map<number, number>();
    seqs.forEach((seq, i) => renumber.set(seq, i + 1));
    const cps = this.db
      .prepare<[number, number, number], { seq: number; step: number; root: string }>(
        'SELECT seq, step, root FROM checkpoints WHERE run = ? AND seq > ? AND seq <= ? ORDER BY seq',
      )
      .all(rid, plan.after, plan.to)
      .filter((c) => renumber.has(c.seq));
    this.transaction(() => {
      const bid = this.rid(branchId);
      for (const r of rows)
        this.q.insertEvent.run(bid, renumber.get(r.seq), r.type, r.ts, r.step, r.enc, r.data);
      for (const g of groups)
        this.putPage(
          bid,
          g.map((e) => ({ ...e, seq: renumber.get(e.seq)! })),
        );
      for (const c of cps) this.q.insertCheckpoint.run(bid, renumber.get(c.seq), c.step, c.root);
      this.db.prepare('UPDATE run_branches SET pending = NULL WHERE run_id = ?').run(branchId);
      // The counters were planned from seq arithmetic; the copy is the truth.
      this.db.prepare('UPDATE runs SET last_seq = ? WHERE rid = ?').run(seqs.length, bid);
    });
  }

  /**
   * Deletes a run with its log in ONE transaction: events, checkpoint rows, its branch/import marks,
   * and the effects it recorded unless another run of the same lineage (a fork, which replays them)
   * remains. Blobs are left: they are content-addressed and shared with other runs' checkpoints and
   * events (no garbage collection of unreferenced ones).
   */
  deleteRun(runId: string): { events: number; checkpoints: number } {
    const row = this.q.getRun.get(runId);
    if (!row) return { events: 0, checkpoints: 0 };
    const out = { events: 0, checkpoints: 0 };
    this.atomically(() => {
      // Branches still held as plans over this run's rows get rows of their own before those go.
      for (const b of this.db
        .prepare<[string], { run_id: string }>(
          'SELECT run_id FROM run_branches WHERE of_run = ? AND pending IS NOT NULL',
        )
        .all(runId))
        this.materializeBranch(b.run_id);
      this.pendingBranches.delete(runId); // a branch deleted before it was ever read: nothing to copy
      out.events = this.db.prepare('DELETE FROM events WHERE run = ?').run(row.rid).changes;
      const pages = this.db
        .prepare<[number], { n: number | null }>('SELECT SUM(n) AS n FROM event_pages WHERE run = ?')
        .get(row.rid);
      out.events += pages?.n ?? 0;
      this.db.prepare('DELETE FROM event_pages WHERE run = ?').run(row.rid);
      out.checkpoints = this.db.prepare('DELETE FROM checkpoints WHERE run = ?').run(row.rid).changes;
      this.db.prepare('DELETE FROM run_branches WHERE run_id = ?').run(runId);
      const imports = this.db
        .prepare<[], { n: number }>(
          "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'run_imports'",
        )
        .get();
      if (imports?.n) this.db.prepare('DELETE FROM run_imports WHERE run_id = ?').run(runId);
      const sameLineage = this.db
        .prepare<[string, string], { n: number }>(
          'SELECT COUNT(*) AS n FROM runs WHERE lineage = ? AND id != ?',
        )
        .get(row.lineage, runId);
      if (!sameLineage?.n) this.db.prepare('DELETE FROM effects WHERE run_id = ?').run(runId);
      this.db.prepare('DELETE FROM runs WHERE rid = ?').run(row.rid);
    });
    this.rids.delete(runId);
    this.changed(runId, true);
    return out;
  }

  /** On start: runs a previous process left running/paused can no longer continue by themselves. */
  markInterrupted(now: string): number {
    const ids = this.db
      .prepare<[], { id: string }>(`SELECT id FROM runs WHERE status IN ('running', 'paused', 'idle')`)
      .all();
    const n = this.q.interrupt.run(now).changes;
    for (const r of ids) this.changed(r.id);
    return n;
  }
}

/** The first `limit` of two seq-ascending lists, merged in seq order. */
function mergeBySeq(a: EventEnvelope[], b: EventEnvelope[], limit: number): EventEnvelope[] {
  if (b.length === 0) return a.slice(0, limit);
  if (a.length === 0) return b.slice(0, limit);
  const out: EventEnvelope[] = [];
  let i = 0;
  let j = 0;
  while (out.length < limit && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && a[i]!.seq < b[j]!.seq)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}
