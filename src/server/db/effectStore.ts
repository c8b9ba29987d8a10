// Recorded external calls (repeatable intent, docs/architecture.md "Run state and durability"; engine/effects.ts): an LLM call or a
// node-service call, under a stable idempotency key (`lineage:step:node:n:hash`). The intent (key +
// request) is written before the call, the answer after it, each straight to SQLite (autocommit):
// durable before its step commits, so a crash between the call and the step commit never pays for
// the call twice — the resumed run finds the answer, or re-sends the same key.
//
// Stored form of a row (`effects`): `request` and `response` are `@` + a BlobStore root (values in
// the content-addressed Merkle DAG, so an image sent or answered every step is stored once);
// `request` holds the call (`{kind, step, node_id, index, request}`), `response` `{response, ms}`,
// or '' while the call is only intended. Rows written before (plain JSON, no `@`) still answer.
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
  /** Absent while the call was only intended (the run died during the call). */
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

export class SqliteEffectStore implements EffectStore {
  private readonly sel;
  private readonly ins;
  private readonly answer;

  constructor(
    private readonly db: Db,
    private readonly runId: string,
    private readonly blobs: BlobStore,
    private readonly now: () => string = () => new Date().toISOString(),
    /** A fork's parent recording, reused until the first call that differs. */
    private readonly reuseFrom?: ReuseUntilDivergence,
  ) {
    this.sel = db.prepare<[string], { response: string }>('SELECT response FROM effects WHERE key = ?');
    this.ins = db.prepare(
      'INSERT OR REPLACE INTO effects (key, run_id, request, response, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.answer = db.prepare('UPDATE effects SET response = ? WHERE key = ? AND run_id = ?');
  }

  lookup(key: string): unknown | undefined {
    const row = this.sel.get(key);
    if (!row || row.response === PENDING) return undefined;
    if (!row.response.startsWith('@')) return JSON.parse(row.response);
    return (this.blobs.get(row.response.slice(1)) as { response: unknown }).response;
  }

  intend(call: EffectCall): void {
    // An answer already stored stays (a fresh-effects run re-calls, and `record` replaces it then).
    if (this.sel.get(call.key)) return;
    this.write(call.key, call, undefined);
  }

  reuse(call: EffectCall): { response: unknown; from: ReusedFrom } | undefined {
    const got = this.reuseFrom?.take(call);
    if (got) this.write(call.key, call, { response: got.response, ms: 0, reused_from: got.from });
    return got;
  }

  record(key: string, request: unknown, response: unknown, call?: EffectCall & { ms: number }): void {
    const answer = { response: response ?? null, ms: call?.ms ?? 0 };
    // The usual case: this store wrote the intent, whose request is the key's (the key hashes it), so
    // only the answer is added — the request is not encoded and hashed a second time.
    const answered = this.db.transaction(
      () => this.answer.run(`@${this.blobs.put(answer)}`, key, this.runId).changes > 0,
    )();
    if (answered) return;
    this.write(key, call ?? { key, step: -1, node_id: '', index: 0, kind: 'llm', request }, answer);
  }

  private write(key: string, call: EffectCall, answer: Answer | undefined): void {
    this.db.transaction(() => {
      const { kind, step, node_id, index, request } = call;
      const req = `@${this.blobs.put({ kind, step, node_id, index, request: request ?? null })}`;
      const res = answer ? `@${this.blobs.put(answer)}` : PENDING;
      this.ins.run(key, this.runId, req, res, this.now());
    })();
  }
}

/**
 * Every call recorded under a lineage (a run and the forks sharing its answers), oldest first. Rows
 * of the old plain-JSON form carry no step or node and are left out.
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
    const { kind, step, node_id, index, request } = c;
    const req = `@${blobs.put({ kind, step, node_id, index, request: request ?? null })}`;
    const answer: Answer = { response: c.response ?? null, ms: c.ms ?? 0 };
    if (c.reused_from) answer.reused_from = c.reused_from;
    const res = `@${blobs.put(answer)}`;
    added += ins.run(c.key, runId, req, res, now).changes;
  }
  return added;
}
