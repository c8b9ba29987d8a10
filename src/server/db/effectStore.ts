// Recorded external calls (repeatable intent, docs/architecture.md "Run state and durability"; engine/effects.ts): an LLM call or a
// node-service call, under a stable idempotency key (`lineage:step:node:n:hash`, the hash of the
// request). Two short commits per call, each straight to SQLite:
//   - the intent, BEFORE the call: a bare row (key, run, empty request and response) in one
//     autocommit INSERT — no encoding, no hashing, one b-tree leaf. The key names the call and
//     hashes its request, so the row is all a resumed run needs to re-send the same key;
//   - the answer, AFTER the call: the request and the answer as content-addressed blobs and the
//     row updated to point at them, in one transaction.
// Both are durable before the step commits, so a crash between the call and the step commit never
// pays for the call twice — the resumed run finds the answer, or finds the intent and re-sends the
// same key. "Durable" is the database's (database.ts: WAL, synchronous=NORMAL): a commit is in the
// WAL when it returns, so it survives the process being killed (kill -9); a power loss may lose the
// last commits before the next checkpoint (synchronous=FULL would fsync every commit).
//
// Stored form of a row (`effects`): `request` and `response` are `@` + a BlobStore root (values in
// the content-addressed Merkle DAG, so an image sent or answered every step is stored once);
// `request` holds the call (`{kind, step, node_id, index, request}`), `response` `{response, ms}`.
// The small wrapper fields stay in the row's root text and only the request and the response
// themselves go to blobs (`callRoot`, `answerRoot`): a wrapper blob would be new on every call
// (its step and ms differ), a row of the blob table and its hash index written for nothing.
// Both are '' while the call is only intended (older rows kept the request there already).
// Rows written before (plain JSON, no `@`) still answer.
// A fork's first run may reuse its parent's answers (`reuse`, engine/effectReuse.ts): a reused call
// is written as the fork's own row, its answer `{response, ms: 0, reused_from: {run_id, key}}`, so
// the fork replays and verifies on its own and its log says where each answer came from.
import type { ReusedFrom, ReuseUntilDivergence } from '../../engine/effectReuse.ts';
import type { EffectCall, EffectStore } from '../../engine/run.api.ts';
import type { BlobStore } from './blobStore.ts';
import type { Db } from './database.ts';

/** One recorded call, as replay and run bundles read it. */
export interface RecordedCall {
  key: string;
  run_id: string;
  kind: string;
  step: number;
  node_id: string;
  index: number;
  request: unknown;
  /** Absent while the call was only intended (the run died during the call; older rows only). */
  response?: unknown;
  ms?: number;
  /** A fork's call answered from its parent's recording (docs/replay.md "Re-run without paying twice"). */
  reused_from?: ReusedFrom;
}

/** The stored answer of a call. */
interface Answer {
  response: unknown;
  ms: number;
  reused_from?: ReusedFrom;
}

const PENDING = '';

/** `@` + the root of `{kind, step, node_id, index, request}`: the wrapper inline, the request content-addressed. */
function callRoot(blobs: BlobStore, c: Omit<EffectCall, 'key'>): string {
  const request = blobs.put(c.request ?? null);
  return `@{"kind":${JSON.stringify(c.kind)},"step":${JSON.stringify(c.step)},"node_id":${JSON.stringify(c.node_id)},"index":${JSON.stringify(c.index)},"request":${request}}`;
}

/** `@` + the root of `{response, ms, reused_from?}`, the same way. */
function answerRoot(blobs: BlobStore, response: unknown, ms: number, reusedFrom?: ReusedFrom): string {
  const from = reusedFrom ? `,"reused_from":${JSON.stringify(reusedFrom)}` : '';
  return `@{"response":${blobs.put(response ?? null)},"ms":${JSON.stringify(ms)}${from}}`;
}

export class SqliteEffectStore implements EffectStore {
  private readonly sel;
  private readonly intent;
  private readonly ins;
  private readonly answer;
  private readonly recordTx;

  constructor(
    private readonly db: Db,
    private readonly runId: string,
    private readonly blobs: BlobStore,
    private readonly now: () => string = () => new Date().toISOString(),
    /** A fork's parent recording, reused until the first call that differs. */
    private readonly reuseFrom?: ReuseUntilDivergence,
  ) {
    this.sel = db.prepare<[string], { response: string }>('SELECT response FROM effects WHERE key = ?');
    // A row already there stays (an answer a fresh-effects run re-calls; `record` replaces it then).
    this.intent = db.prepare(
      `INSERT INTO effects (key, run_id, request, response, created_at) VALUES (?, ?, '${PENDING}', '${PENDING}', ?)
       ON CONFLICT (key) DO NOTHING`,
    );
    this.ins = db.prepare(
      'INSERT OR REPLACE INTO effects (key, run_id, request, response, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.answer = db.prepare('UPDATE effects SET request = ?, response = ? WHERE key = ? AND run_id = ?');
    this.recordTx = db.transaction(
      (key: string, call: Omit<EffectCall, 'key'>, response: unknown, ms: number, from?: ReusedFrom) => {
        // The request is encoded and hashed once, here, after the call (the intent carried none).
        const req = callRoot(this.blobs, call);
        const res = answerRoot(this.blobs, response, ms, from);
        // The usual case: this run's intent row. Otherwise (no intent, or the row is another run's of
        // the lineage — a fresh-effects fork calling again) the row is written whole.
        if (this.answer.run(req, res, key, this.runId).changes === 0) {
          this.ins.run(key, this.runId, req, res, this.now());
        }
      },
    );
  }

  lookup(key: string): unknown | undefined {
    const row = this.sel.get(key);
    if (!row || row.response === PENDING) return undefined;
    if (!row.response.startsWith('@')) return JSON.parse(row.response);
    return (this.blobs.get(row.response.slice(1)) as { response: unknown }).response;
  }

  intend(call: EffectCall): void {
    this.intent.run(call.key, this.runId, this.now());
  }

  reuse(call: EffectCall): { response: unknown; from: ReusedFrom } | undefined {
    const got = this.reuseFrom?.take(call);
    if (got) this.store(call.key, call, got.response, 0, got.from);
    return got;
  }

  record(key: string, request: unknown, response: unknown, call?: EffectCall & { ms: number }): void {
    const { step, node_id, index, kind } = call ?? { step: -1, node_id: '', index: 0, kind: 'llm' };
    this.store(key, { step, node_id, index, kind, request }, response, call?.ms ?? 0);
  }

  private store(
    key: string,
    call: Omit<EffectCall, 'key'>,
    response: unknown,
    ms: number,
    from?: ReusedFrom,
  ): void {
    const { step, node_id, index, kind, request } = call;
    try {
      // IMMEDIATE: the write lock first. Episode children write the same file (batch/episodeDbLog.ts);
      // a transaction that read first would fail at once on their commit instead of waiting for it.
      this.recordTx.immediate(key, { step, node_id, index, kind, request }, response, ms, from);
    } catch (err) {
      // Rolled back (disk full…): the blob ids it remembered name rows that were never stored.
      this.blobs.resetCaches();
      throw err;
    }
  }
}

/**
 * Every call recorded under a lineage (a run and the forks sharing its answers), oldest first. Bare
 * intents (a call the run died during) and rows of the old plain-JSON form carry no request, step
 * or node and are left out.
 */
export function recordedCalls(db: Db, blobs: BlobStore, lineage: string): RecordedCall[] {
  const rows = db
    .prepare<[string, string], { key: string; run_id: string; request: string; response: string }>(
      // Keys start `lineage:`; ';' is the character after ':', so this is a range scan of the key index.
      'SELECT key, run_id, request, response FROM effects WHERE key >= ? AND key < ? ORDER BY created_at, key',
    )
    .all(`${lineage}:`, `${lineage};`);
  const out: RecordedCall[] = [];
  for (const r of rows) {
    // Left out: bare intents (nothing to show but the key) and rows of the old plain-JSON form.
    if (!r.request.startsWith('@')) continue;
    const call = blobs.get(r.request.slice(1)) as Omit<RecordedCall, 'key' | 'run_id'>;
    const answer = r.response === PENDING ? undefined : (blobs.get(r.response.slice(1)) as Answer);
    out.push({
      key: r.key,
      run_id: r.run_id,
      ...call,
      ...(answer ? { response: answer.response, ms: answer.ms } : {}),
      ...(answer?.reused_from ? { reused_from: answer.reused_from } : {}),
    });
  }
  return out;
}

/**
 * Stores calls another Statewire recorded (a run bundle's, runs/bundleImport.ts) as answered rows of
 * run `runId`, in the same content-addressed form. A key already here is kept as it is: the same key
 * is the same call of the same lineage (a run imported back where it was recorded).
 */
export function importCalls(
  db: Db,
  blobs: BlobStore,
  runId: string,
  calls: readonly RecordedCall[],
  now: string,
): number {
  const ins = db.prepare(
    'INSERT OR IGNORE INTO effects (key, run_id, request, response, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  let added = 0;
  for (const c of calls) {
    const res = answerRoot(blobs, c.response, c.ms ?? 0, c.reused_from);
    added += ins.run(c.key, runId, callRoot(blobs, c), res, now).changes;
  }
  return added;
}
