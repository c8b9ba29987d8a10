// The distributed `RunLog`: run rows, the event log, checkpoints and batch results in PostgreSQL
// (schema: pg/migrations, applied by pg/migrate.ts on connect), shared by every server and worker.
// Semantics are RunStore's: `commit` writes a batch's events (consecutive seqs), its checkpoints and
// the run row's counters in ONE transaction (`last_seq` only grows); big event payloads and
// checkpoint states are content-addressed through the same Merkle encoding (merkle.ts), so an
// unchanged sub-state is stored once, whichever worker wrote it first.
//
// Differences from SQLite, because the database is a network hop away and shared:
//  * a blob is referenced by its hash (`{"$sw": "<base64url sha1>"}`), not a row id, so a step is
//    encoded in memory and all its new blobs go in with one statement (sorted by hash, so two
//    transactions storing the same values at once wait for each other instead of deadlocking);
//  * what this process knows to be stored (blob hashes, frozen objects' encodings) is learned only
//    when a transaction commits, so concurrent commits never lean on each other's uncommitted blobs;
//  * reads fetch a value's blobs level by level (one query per level of the DAG, not per blob);
//  * small payloads are plain JSON (no shape interning), and a commit to an unknown run fails.
import pg from 'pg';
import type { BatchRecord, EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import type { Checkpoint } from '../../engine/run.api.ts';
import {
  bytesDigest,
  jsonDigest,
  MerkleCodec,
  type BlobRef,
  type BlobSink,
  type BlobSource,
} from './merkle.ts';
import { isPgUnavailable } from './pgErrors.ts';
import { migrate } from './pg/migrate.ts';
import { projectPgEvents } from './pgProjection.ts';
import type { DataPath, ProjectedEvent, RunLog } from './runLog.ts';
import { batchField, batchIdOf, kindOfNewRun, type RunListQuery, type RunListRow } from './runList.ts';
import type { CommitBatch, NewRun, StoredRun } from './runStore.ts';

/** Event types whose payloads repeat big values step after step (as in RunStore). */
const BLOB_ENCODED = new Set(['nav_step', 'restored', 'state_written', 'viewer_data']);
const MAX_KNOWN = 1_000_000;
const DECODED_CACHE = 50_000;
const INT8_OID = 20;

/** bigint columns as JS numbers (seqs, steps, epoch ms all fit in 2^53); this pool only. */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

export interface PgRunLogOptions {
  /** Pool size (default 10). */
  max?: number;
  /** How long a new connection may take before the query fails (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Apply pending migrations on connect (default true). */
  migrate?: boolean;
  applicationName?: string;
  /** Anything else for pg.Pool (ssl, timeouts, …). */
  pool?: Omit<pg.PoolConfig, 'connectionString' | 'types'>;
}

/** What `PgRunLog.ping` found. */
export interface PgPing {
  up: boolean;
  /** Round trip of `SELECT 1` (ms) when up. */
  latencyMs: number | null;
  /** The last connection failure this process saw (ISO time), if any. */
  lastError: { message: string; at: string } | undefined;
}

/** ts: epoch ms; enc 1: data is a blob root, else plain JSON text. */
type EventRow = Pick<EventEnvelope, 'seq' | 'type'> & { ts: number; enc: number; data: string };

interface CheckpointRow {
  seq: number;
  step: number;
  root: string;
}

// Rows come back in the interface's shapes as they are (booleans, JSON columns parsed, bigints as
// numbers), so a select names exactly the fields of StoredRun / BatchRecord.
const RUN_FIELDS =
  'id, graph_name, status, steps, last_seq, started_at, ended_at, parent_run_id, parent_step, lineage, error, fresh_effects, step_delay_ms, graph_version';
const BATCH_FIELDS =
  'id, graph_name, graph, episodes, workers, seed, sets, mode, status, created_at, ended_at, error, graph_version';

const SQL = {
  insertBlobs: `INSERT INTO blobs (hash, json, bin)
    SELECT * FROM unnest($1::bytea[], $2::text[], $3::bytea[]) AS b(hash, json, bin) ORDER BY hash
    ON CONFLICT (hash) DO NOTHING`,
  selectBlobs: 'SELECT hash, json, bin FROM blobs WHERE hash = ANY($1::bytea[])',
  insertRun: `INSERT INTO runs (id, graph_name, graph_hash, status, started_at, parent_run_id, parent_step, lineage, fresh_effects, step_delay_ms, graph_version, kind, batch_id)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING rid`,
  // A step's whole write as ONE statement (data-modifying CTEs), so the transaction is three round
  // trips (BEGIN, this, COMMIT) whatever the step holds; empty arrays insert nothing.
  commit: `WITH blobs_in AS (
      INSERT INTO blobs (hash, json, bin)
      SELECT * FROM unnest($2::bytea[], $3::text[], $4::bytea[]) AS b(hash, json, bin) ORDER BY hash
      ON CONFLICT (hash) DO NOTHING
    ), events_in AS (
      INSERT INTO events (run, seq, type, ts, step, enc, data)
      SELECT $1::bigint, * FROM unnest($5::bigint[], $6::text[], $7::bigint[], $8::bigint[], $9::smallint[], $10::text[])
    ), checkpoints_in AS (
      INSERT INTO checkpoints (run, seq, step, root)
      SELECT $1::bigint, * FROM unnest($11::bigint[], $12::bigint[], $13::text[])
    )
    UPDATE runs SET last_seq = GREATEST(last_seq, $14::bigint), steps = COALESCE($15::bigint, steps),
      status = COALESCE($16::text, status),
      ended_at = CASE WHEN $17::boolean THEN $18::text ELSE ended_at END,
      error = CASE WHEN $19::boolean THEN $20::text ELSE error END
    WHERE rid = $1::bigint`,
  events: 'SELECT seq, type, ts, enc, data FROM events WHERE run = $1 AND seq > $2 ORDER BY seq LIMIT $3',
  eventsOfType:
    'SELECT seq, type, ts, enc, data FROM events WHERE run = $1 AND seq > $2 AND type = $3 ORDER BY seq LIMIT $4',
  checkpointAt:
    'SELECT seq, step, root FROM checkpoints WHERE run = $1 AND step = $2 ORDER BY seq DESC LIMIT 1',
  lastCheckpoint:
    'SELECT seq, step, root FROM checkpoints WHERE run = $1 ORDER BY step DESC, seq DESC LIMIT 1',
};

/** What this process knows about stored blobs: shared by every read and every committed write. */
class BlobCache {
  /** Hashes (base64url) known to be committed; bounded (forgetting only costs a redundant insert). */
  readonly known = new Set<string>();
  /** Frozen object → its encoding, for objects whose blobs are committed. */
  identity = new WeakMap<object, unknown>();
  /** Decoded blobs (frozen, shared); bounded. */
  readonly decoded = new Map<string, unknown>();

  learn(ref: string): void {
    if (this.known.size >= MAX_KNOWN) this.known.clear();
    this.known.add(ref);
  }

  /**
   * Forgets what is known to be stored (decoded values stay: they are content-addressed). After a
   * lost connection: a database restarted from a crash may have lost its last commits (with
   * `synchronous_commit=off`), and a commit that failed in flight may or may not have landed.
   */
  forgetStored(): void {
    this.known.clear();
    this.identity = new WeakMap();
  }

  keep(ref: string, value: unknown): void {
    if (this.decoded.size >= DECODED_CACHE) this.decoded.clear();
    this.decoded.set(ref, value);
  }
}

interface NewBlob {
  hash: Buffer;
  json: string | null;
  bin: Buffer | null;
}

/** One transaction's encoding: new blobs are collected, and become known only once it commits. */
class EncodeSession implements BlobSink {
  readonly blobs = new Map<string, NewBlob>();
  private readonly identity = new Map<object, unknown>();

  constructor(
    private readonly cache: BlobCache,
    private readonly codec: MerkleCodec,
  ) {}

  /** JSON text of the encoded root. */
  put(value: unknown): string {
    return JSON.stringify(this.codec.encode(value, this));
  }

  remembered(value: object): unknown {
    return this.identity.get(value) ?? this.cache.identity.get(value);
  }
  remember(value: object, encoded: unknown): void {
    this.identity.set(value, encoded);
  }
  storeJson(json: string): BlobRef {
    return this.add(jsonDigest(json), json, null);
  }
  storeBytes(bytes: Buffer): BlobRef {
    return this.add(bytesDigest(bytes), null, bytes);
  }

  private add(hash: Buffer, json: string | null, bin: Buffer | null): string {
    const ref = hash.toString('base64url');
    if (!this.cache.known.has(ref) && !this.blobs.has(ref))
      this.blobs.set(ref, { hash, json, bin: bin && Buffer.from(bin) });
    return ref;
  }

  /** The insert's parameters, sorted by hash (a fixed lock order between concurrent writers). */
  params(): [Buffer[], (string | null)[], (Buffer | null)[]] {
    const rows = [...this.blobs.values()].sort((a, b) => Buffer.compare(a.hash, b.hash));
    return [rows.map((r) => r.hash), rows.map((r) => r.json), rows.map((r) => r.bin)];
  }

  committed(): void {
    for (const [value, encoded] of this.identity) this.cache.identity.set(value, encoded);
    for (const ref of this.blobs.keys()) this.cache.learn(ref);
  }
}

/** One read's blobs, fetched before the synchronous decode. */
class DecodeSession implements BlobSource {
  private readonly fetched = new Map<string, { node?: unknown; bin?: Buffer }>();
  /** Cache hits seen while fetching, held so a concurrent read clearing the cache cannot lose them. */
  private readonly pinned = new Map<string, unknown>();

  constructor(
    private readonly cache: BlobCache,
    private readonly codec: MerkleCodec,
  ) {}

  /** Fetches every blob the encoded nodes reach and this process has not decoded yet. */
  async fetch(db: pg.Pool, nodes: unknown[]): Promise<void> {
    let frontier = this.unseen(nodes);
    while (frontier.length > 0) {
      const res = await db.query<{ hash: Buffer; json: string | null; bin: Buffer | null }>({
        name: 'sw_select_blobs',
        text: SQL.selectBlobs,
        values: [frontier.map((r) => Buffer.from(r, 'base64url'))],
      });
      const next: unknown[] = [];
      for (const row of res.rows) {
        const ref = row.hash.toString('base64url');
        this.cache.learn(ref);
        if (row.json !== null) {
          const node = JSON.parse(row.json) as unknown;
          this.fetched.set(ref, { node });
          next.push(node);
        } else this.fetched.set(ref, { bin: row.bin ?? Buffer.alloc(0) });
      }
      // Not in the database (a plain value shaped like a marker, or a broken reference): ask once.
      for (const ref of frontier) if (!this.fetched.has(ref)) this.fetched.set(ref, {});
      frontier = this.unseen(next);
    }
  }

  private unseen(nodes: unknown[]): string[] {
    const refs = new Set<BlobRef>();
    for (const n of nodes) this.codec.refsOf(n, refs);
    const out: string[] = [];
    for (const ref of refs) {
      if (typeof ref !== 'string' || this.fetched.has(ref) || this.pinned.has(ref)) continue;
      const hit = this.cache.decoded.get(ref);
      if (hit !== undefined) this.pinned.set(ref, hit);
      else out.push(ref);
    }
    return out;
  }

  decode(root: string): unknown {
    return this.decodeNode(JSON.parse(root));
  }

  decodeNode(node: unknown): unknown {
    return this.codec.decode(node, this);
  }

  load(ref: BlobRef): unknown {
    const key = ref as string;
    const hit = this.pinned.get(key) ?? this.cache.decoded.get(key);
    if (hit !== undefined) return hit;
    const node = this.fetched.get(key)?.node;
    if (node === undefined) throw new Error(`blob ${key} is missing from the database`);
    const value = this.codec.decode(node, this);
    this.cache.keep(key, value);
    this.pinned.set(key, value);
    // Re-encoding this value would give this same blob: a later commit that carries it on (a
    // restored state, say) need not hash it again.
    if (value !== null && typeof value === 'object') this.cache.identity.set(value, { $sw: key });
    return value;
  }

  loadBytes(ref: BlobRef): Uint8Array | undefined {
    return this.fetched.get(ref as string)?.bin;
  }
}

const stepOf = (data: unknown): number | null =>
  typeof (data as { step?: unknown } | null)?.step === 'number' ? (data as { step: number }).step : null;

export class PgRunLog implements RunLog {
  readonly kind = 'postgres' as const;
  private readonly codec = new MerkleCodec('string');
  private readonly cache = new BlobCache();
  private readonly rids = new Map<string, number>();
  private closed: Promise<void> | undefined;
  /** The last connection failure seen (for /api/health), cleared by nothing: it says when it was. */
  private lastFailure: { message: string; at: string } | undefined;

  private constructor(readonly pool: pg.Pool) {
    // A connection the server dropped (a restart, a crash) emits 'error' on its client. The pool
    // listens on idle clients only; a client checked out between two statements of a transaction
    // has no listener, and an unhandled 'error' event would kill the process. Every client gets one
    // here: the statement in flight fails with its own error, the pool discards the broken client
    // and opens a new connection for the next query (reconnecting is the pool's normal path).
    const noteClient = (err: Error) => this.connectionLost(err);
    pool.on('connect', (client) => client.on('error', noteClient));
    pool.on('error', noteClient);
  }

  /** Opens a pool on `url` (`postgres://user@host:port/db`) and brings the schema up to date. */
  static async connect(url: string, opts: PgRunLogOptions = {}): Promise<PgRunLog> {
    const pool = new pg.Pool({
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
      ...opts.pool,
      connectionString: url,
      max: opts.max ?? 10,
      types,
      application_name: opts.applicationName ?? 'statewire',
    });
    const log = new PgRunLog(pool);
    try {
      if (opts.migrate !== false) await migrate(pool);
    } catch (err) {
      await pool.end();
      throw err;
    }
    return log;
  }

  /** A connection failed or was cut: remembered for health, and the caches of stored things reset. */
  private connectionLost(err: unknown): void {
    if (!isPgUnavailable(err)) return;
    this.lastFailure = { message: (err as Error).message, at: new Date().toISOString() };
    this.cache.forgetStored();
    this.rids.clear();
  }

  /** Runs `fn` on the pool, noting a lost connection (the error is rethrown as it is). */
  private noting<T>(p: Promise<T>): Promise<T> {
    return p.catch((err: unknown) => {
      this.connectionLost(err);
      throw err;
    });
  }

  /**
   * One `SELECT 1` within `timeoutMs`: up with its latency, or down with why (for /api/health and
   * for workers waiting out an outage). Never throws.
   */
  async ping(timeoutMs = 2000): Promise<PgPing> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      await Promise.race([this.noting(this.pool.query('SELECT 1')), late]);
      return { up: true, latencyMs: Math.round(performance.now() - started), lastError: this.lastFailure };
    } catch (err) {
      const message = (err as Error).message;
      if (!this.lastFailure || this.lastFailure.message !== message)
        this.lastFailure = { message, at: new Date().toISOString() };
      return { up: false, latencyMs: null, lastError: this.lastFailure };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs `fn` in one transaction on one connection (ROLLBACK on any failure). */
  private async transaction<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.noting(this.pool.connect());
    let broken: Error | undefined;
    try {
      await c.query('BEGIN');
      const out = await fn(c);
      await c.query('COMMIT');
      return out;
    } catch (err) {
      this.connectionLost(err);
      await c.query('ROLLBACK').catch((e: Error) => {
        broken = e;
      });
      throw err;
    } finally {
      c.release(broken);
    }
  }

  private async insertBlobs(c: pg.PoolClient, s: EncodeSession): Promise<void> {
    if (s.blobs.size > 0)
      await c.query({ name: 'sw_insert_blobs', text: SQL.insertBlobs, values: s.params() });
  }

  /** Integer key of a run (events/checkpoints store it instead of the id string). */
  private async rid(runId: string): Promise<number | undefined> {
    const cached = this.rids.get(runId);
    if (cached !== undefined) return cached;
    const r = await this.pool.query<{ rid: number }>('SELECT rid FROM runs WHERE id = $1', [runId]);
    const rid = r.rows[0]?.rid;
    if (rid !== undefined) this.rids.set(runId, rid);
    return rid;
  }

  private async decoded(roots: string[]): Promise<DecodeSession> {
    const d = new DecodeSession(this.cache, this.codec);
    await d.fetch(
      this.pool,
      roots.map((r) => JSON.parse(r) as unknown),
    );
    return d;
  }

  async createRun(r: NewRun): Promise<void> {
    const s = new EncodeSession(this.cache, this.codec);
    const graph = s.put(r.graph);
    const rid = await this.transaction(async (c) => {
      await this.insertBlobs(c, s);
      const res = await c.query<{ rid: number }>(SQL.insertRun, [
        r.id,
        r.graphName,
        graph,
        r.status,
        r.startedAt,
        r.parentRunId,
        r.parentStep,
        r.lineage,
        r.freshEffects,
        r.stepDelayMs,
        r.graphVersion ?? null,
        kindOfNewRun(r.id, r.parentRunId, r.kind),
        batchIdOf(r.id),
      ]);
      return res.rows[0]!.rid;
    });
    s.committed();
    this.rids.set(r.id, rid);
  }

  async commit(runId: string, batch: CommitBatch): Promise<void> {
    const rid = await this.rid(runId);
    if (rid === undefined) throw new Error(`unknown run ${runId}`);
    const s = new EncodeSession(this.cache, this.codec);
    const ev = {
      seq: [] as number[],
      type: [] as string[],
      ts: [] as number[],
      step: [] as (number | null)[],
    };
    const enc: number[] = [];
    const data: string[] = [];
    const cp = { seq: [] as number[], step: [] as number[], root: [] as string[] };
    let lastSeq = 0;
    for (const part of [...(batch.earlier ?? []), batch]) {
      for (const e of part.events) {
        ev.seq.push(e.seq);
        ev.type.push(e.type);
        ev.ts.push(Date.parse(e.ts));
        ev.step.push(stepOf(e.data));
        const blob = BLOB_ENCODED.has(e.type);
        enc.push(blob ? 1 : 0);
        data.push(blob ? s.put(e.data) : JSON.stringify(e.data ?? null));
        lastSeq = e.seq;
      }
      if (part.checkpoint) {
        cp.seq.push(lastSeq);
        cp.step.push(part.checkpoint.step);
        cp.root.push(s.put(part.checkpoint.state));
      }
    }
    await this.transaction(async (c) => {
      const res = await c.query({
        name: 'sw_commit',
        text: SQL.commit,
        values: [
          rid,
          ...s.params(),
          ev.seq,
          ev.type,
          ev.ts,
          ev.step,
          enc,
          data,
          cp.seq,
          cp.step,
          cp.root,
          lastSeq,
          batch.steps ?? null,
          batch.status ?? null,
          batch.endedAt !== undefined,
          batch.endedAt ?? null,
          batch.error !== undefined,
          batch.error ?? null,
        ],
      });
      if (res.rowCount !== 1) throw new Error(`unknown run ${runId}`);
    });
    s.committed();
  }

  /** The rows of these runs (those that exist), in no particular order. */
  async getRuns(ids: readonly string[]): Promise<StoredRun[]> {
    const sql = `SELECT ${RUN_FIELDS} FROM runs WHERE id = ANY($1::text[])`;
    return (await this.pool.query<StoredRun>(sql, [ids])).rows;
  }

  async getRun(id: string): Promise<StoredRun | undefined> {
    return (await this.pool.query<StoredRun>(`SELECT ${RUN_FIELDS} FROM runs WHERE id = $1`, [id])).rows[0];
  }

  async listRuns(limit = 500): Promise<StoredRun[]> {
    const sql = `SELECT ${RUN_FIELDS} FROM runs ORDER BY started_at DESC, rid DESC LIMIT $1`;
    return (await this.pool.query<StoredRun>(sql, [limit])).rows;
  }

  /** A page of the run list (runList.ts): every instance's runs and every worker's episodes. */
  async listPage(q: RunListQuery): Promise<RunListRow[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    for (const [col, v] of [
      ['graph_name', q.graph],
      ['status', q.status],
      ['kind', q.kind],
      ['batch_id', q.batch],
    ] as const)
      if (v !== undefined) {
        args.push(v);
        where.push(`r.${col} = $${args.length}`);
      }
    if (q.before) {
      args.push(q.before.startedAt, q.before.id);
      where.push(`(r.started_at, r.id COLLATE "C") < ($${args.length - 1}, $${args.length} COLLATE "C")`);
    }
    args.push(q.limit);
    const fields = RUN_FIELDS.split(', ')
      .map((f) => `r.${f}`)
      .join(', ');
    const res = await this.pool.query<
      StoredRun & { kind: RunListRow['kind']; b_status: string | null; b_episodes: number | null }
    >(
      `SELECT ${fields}, r.kind, b.status AS b_status, b.episodes AS b_episodes FROM runs r
       LEFT JOIN batches b ON b.id = r.batch_id
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY r.started_at DESC, r.id COLLATE "C" DESC LIMIT $${args.length}`,
      args,
    );
    return res.rows.map(({ b_status, b_episodes, ...r }) => ({
      ...r,
      batch: batchField(
        r.id,
        b_status === null ? undefined : { status: b_status, episodes: b_episodes ?? 0 },
      ),
    }));
  }

  /** Every checkpoint of a run up to `maxSeq`, oldest first, decoded (a bundle export's). */
  async checkpointList(runId: string, maxSeq: number): Promise<(Checkpoint & { seq: number })[]> {
    const rid = await this.rid(runId);
    if (rid === undefined) return [];
    const rows = (
      await this.pool.query<CheckpointRow>(
        'SELECT seq, step, root FROM checkpoints WHERE run = $1 AND seq <= $2 ORDER BY seq',
        [rid, maxSeq],
      )
    ).rows;
    const d = await this.decoded(rows.map((r) => r.root));
    return rows.map((r) => ({ seq: r.seq, step: r.step, state: d.decode(r.root) as Checkpoint['state'] }));
  }

  async graphOf(id: string): Promise<unknown> {
    const r = await this.pool.query<{ graph_hash: string }>('SELECT graph_hash FROM runs WHERE id = $1', [
      id,
    ]);
    const root = r.rows[0]?.graph_hash;
    return root === undefined ? undefined : (await this.decoded([root])).decode(root);
  }

  async events(runId: string, after: number, limit: number, type?: string): Promise<EventEnvelope[]> {
    const rid = await this.rid(runId);
    if (rid === undefined) return [];
    const res =
      type === undefined
        ? await this.pool.query<EventRow>({
            name: 'sw_events',
            text: SQL.events,
            values: [rid, after, limit],
          })
        : await this.pool.query<EventRow>({
            name: 'sw_events_of_type',
            text: SQL.eventsOfType,
            values: [rid, after, type, limit],
          });
    const d = await this.decoded(res.rows.filter((r) => r.enc === 1).map((r) => r.data));
    return res.rows.map((r) => ({
      type: r.type,
      runId,
      seq: r.seq,
      ts: new Date(r.ts).toISOString(),
      data: r.enc === 1 ? d.decode(r.data) : (JSON.parse(r.data) as unknown),
    }));
  }

  async checkpointSteps(runId: string): Promise<number[]> {
    const rid = await this.rid(runId);
    if (rid === undefined) return [];
    const r = await this.pool.query<{ step: number }>(
      'SELECT DISTINCT step FROM checkpoints WHERE run = $1 ORDER BY step',
      [rid],
    );
    return r.rows.map((x) => x.step);
  }

  private async readCheckpoint(
    text: string,
    values: unknown[],
  ): Promise<(Checkpoint & { seq: number }) | undefined> {
    const r = (await this.pool.query<CheckpointRow>(text, values)).rows[0];
    if (!r) return undefined;
    const state = (await this.decoded([r.root])).decode(r.root);
    return { step: r.step, seq: r.seq, state: state as Checkpoint['state'] };
  }

  /** The latest checkpoint stored for `step` (a restore may have re-run a step; the newest wins). */
  async checkpoint(runId: string, step: number): Promise<(Checkpoint & { seq: number }) | undefined> {
    const rid = await this.rid(runId);
    return rid === undefined ? undefined : this.readCheckpoint(SQL.checkpointAt, [rid, step]);
  }

  /** The checkpoint of the highest step (its newest one), as the SQLite store answers it. */
  async lastCheckpoint(runId: string): Promise<(Checkpoint & { seq: number }) | undefined> {
    const rid = await this.rid(runId);
    return rid === undefined ? undefined : this.readCheckpoint(SQL.lastCheckpoint, [rid]);
  }

  async projectEvents(
    runIds: readonly string[],
    type: string,
    paths: readonly DataPath[],
  ): Promise<Map<string, ProjectedEvent[]>> {
    return projectPgEvents(
      {
        pool: this.pool,
        codec: this.codec,
        rids: async (ids) => {
          const r = await this.pool.query<{ id: string; rid: number }>(
            'SELECT id, rid FROM runs WHERE id = ANY($1::text[])',
            [ids],
          );
          return new Map(r.rows.map((x) => [x.id, x.rid]));
        },
        decoder: async (nodes) => {
          const d = new DecodeSession(this.cache, this.codec);
          await d.fetch(this.pool, nodes);
          return (node) => d.decodeNode(node);
        },
      },
      runIds,
      type,
      paths,
    );
  }

  /**
   * Deletes a run with its log in one transaction: events, checkpoints, and the effects it recorded
   * unless another run of the same lineage remains. Blobs stay (shared, content-addressed).
   */
  async deleteRun(runId: string): Promise<void> {
    await this.transaction(async (c) => {
      const row = (
        await c.query<{ rid: number; lineage: string }>(
          'SELECT rid, lineage FROM runs WHERE id = $1 FOR UPDATE',
          [runId],
        )
      ).rows[0];
      if (!row) return;
      await c.query('DELETE FROM events WHERE run = $1', [row.rid]);
      await c.query('DELETE FROM checkpoints WHERE run = $1', [row.rid]);
      const same = await c.query('SELECT 1 FROM runs WHERE lineage = $1 AND id <> $2 LIMIT 1', [
        row.lineage,
        runId,
      ]);
      if (same.rowCount === 0) await c.query('DELETE FROM effects WHERE run_id = $1', [runId]);
      await c.query('DELETE FROM runs WHERE rid = $1', [row.rid]);
    });
    this.rids.delete(runId);
  }

  // ---- batches ----

  async createBatch(b: BatchRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO batches (id, graph_name, graph, episodes, workers, seed, sets, mode, status, created_at, ended_at, error, graph_version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        b.id,
        b.graph_name,
        JSON.stringify(b.graph ?? null),
        b.episodes,
        b.workers,
        b.seed,
        JSON.stringify(b.sets),
        b.mode,
        b.status,
        b.created_at,
        b.ended_at,
        b.error,
        b.graph_version ?? null,
      ],
    );
  }

  async getBatch(id: string): Promise<BatchRecord | undefined> {
    const sql = `SELECT ${BATCH_FIELDS} FROM batches WHERE id = $1`;
    return (await this.pool.query<BatchRecord>(sql, [id])).rows[0];
  }

  async listBatches(limit = 200): Promise<BatchRecord[]> {
    const sql = `SELECT ${BATCH_FIELDS} FROM batches ORDER BY created_at DESC, id DESC LIMIT $1`;
    return (await this.pool.query<BatchRecord>(sql, [limit])).rows;
  }

  async updateBatch(
    id: string,
    patch: Partial<Pick<BatchRecord, 'status' | 'ended_at' | 'error'>>,
  ): Promise<void> {
    const cols = (['status', 'ended_at', 'error'] as const).filter((k) => k in patch);
    if (cols.length === 0) return;
    await this.pool.query(
      `UPDATE batches SET ${cols.map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE id = $1`,
      [id, ...cols.map((c) => patch[c] ?? null)],
    );
  }

  async recordEpisode(batchId: string, row: EpisodeRow): Promise<number> {
    await this.pool.query(
      `INSERT INTO batch_episodes (batch_id, episode, row) VALUES ($1, $2, $3)
       ON CONFLICT (batch_id, episode) DO UPDATE SET row = EXCLUDED.row`,
      [batchId, row.episode, JSON.stringify(row)],
    );
    const n = await this.pool.query<{ n: number }>(
      'SELECT count(*) AS n FROM batch_episodes WHERE batch_id = $1',
      [batchId],
    );
    return n.rows[0]?.n ?? 0;
  }

  async episodes(batchId: string): Promise<EpisodeRow[]> {
    const r = await this.pool.query<{ row: EpisodeRow }>(
      'SELECT row FROM batch_episodes WHERE batch_id = $1 ORDER BY episode',
      [batchId],
    );
    return r.rows.map((x) => x.row);
  }

  async close(): Promise<void> {
    await (this.closed ??= this.pool.end());
  }
}
