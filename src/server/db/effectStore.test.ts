// The SQLite store of recorded calls (effectStore.ts): a bare intent row before the call, the
// request and answer (content-addressed) after it, and what a resumed run finds after the process
// was killed (kill -9) during the call — the intent, so it re-sends the same key.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEffect, type EffectCall, type EffectHost } from '../../engine/effects.ts';
import { BlobStore } from './blobStore.ts';
import { closeDatabase, openDatabase, type Db } from './database.ts';
import { recordedCalls, SqliteEffectStore } from './effectStore.ts';

const CHILD = join(import.meta.dirname, 'effectStoreChild.testutil.ts');

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sw-effects-'));
  db = openDatabase(join(dir, 'runs.db'));
});
afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

const rowOf = (key: string) =>
  db
    .prepare<[string], { run_id: string; request: string; response: string }>(
      'SELECT run_id, request, response FROM effects WHERE key = ?',
    )
    .get(key);

const call = (key: string, request: unknown = { prompt: 'hi' }): EffectCall => ({
  key,
  step: 2,
  node_id: 'think',
  index: 0,
  kind: 'llm',
  request,
});

function host(store: SqliteEffectStore, freshEffects = false): EffectHost {
  return { lineage: 'run1', options: { effects: store, freshEffects }, emit: () => undefined, now: () => 0 };
}

describe('SqliteEffectStore', () => {
  it('the intent is a bare row; the answer adds the request and the response', () => {
    const store = new SqliteEffectStore(db, 'run1', new BlobStore(db));
    store.intend(call('run1:2:think:0:h'));
    expect(rowOf('run1:2:think:0:h')).toEqual({ run_id: 'run1', request: '', response: '' });
    expect(store.lookup('run1:2:think:0:h')).toBeUndefined();
    expect(recordedCalls(db, new BlobStore(db), 'run1')).toEqual([]); // nothing to show but the key

    store.record(
      'run1:2:think:0:h',
      { prompt: 'hi' },
      { text: 'hello' },
      { ...call('run1:2:think:0:h'), ms: 7 },
    );
    expect(store.lookup('run1:2:think:0:h')).toEqual({ text: 'hello' });
    // A second store on the same database (a restarted server) reads it back whole.
    expect(recordedCalls(db, new BlobStore(db), 'run1')).toEqual([
      {
        key: 'run1:2:think:0:h',
        run_id: 'run1',
        kind: 'llm',
        step: 2,
        node_id: 'think',
        index: 0,
        request: { prompt: 'hi' },
        response: { text: 'hello' },
        ms: 7,
      },
    ]);
  });

  it('an intent never overwrites a stored answer; a fresh-effects fork replaces it with its own', () => {
    const blobs = new BlobStore(db);
    const parent = new SqliteEffectStore(db, 'run1', blobs);
    parent.intend(call('run1:2:think:0:h'));
    parent.record('run1:2:think:0:h', { prompt: 'hi' }, 'first', { ...call('run1:2:think:0:h'), ms: 1 });
    const fork = new SqliteEffectStore(db, 'fork1', blobs);
    fork.intend(call('run1:2:think:0:h'));
    expect(fork.lookup('run1:2:think:0:h')).toBe('first');
    fork.record('run1:2:think:0:h', { prompt: 'hi' }, 'second', { ...call('run1:2:think:0:h'), ms: 1 });
    expect(parent.lookup('run1:2:think:0:h')).toBe('second');
    expect(rowOf('run1:2:think:0:h')?.run_id).toBe('fork1');
  });

  it('calls with the same request and answer add no blob after the first (the wrapper stays in the row)', () => {
    const store = new SqliteEffectStore(db, 'run1', new BlobStore(db));
    const blobCount = () => db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM blobs').get()!.n;
    // A service call's shape: the inputs are a blob of their own, the request's root text is small
    // (inline) — but with the wrapper's fields it would not be, and that blob differs every step.
    const big = { service: 'echo', fn: 'echo__echo', inputs: { data: 'p'.repeat(500) }, config: {} };
    const answer = { outputs: { data: 't'.repeat(500) }, logs: ['ok'] };
    store.intend({ ...call('run1:1:think:0:h', big), step: 1 });
    store.record('run1:1:think:0:h', big, answer, { ...call('run1:1:think:0:h', big), step: 1, ms: 3 });
    const after = blobCount();
    expect(after).toBeGreaterThan(0);
    for (let step = 2; step <= 5; step++) {
      const key = `run1:${step}:think:0:h`;
      store.intend({ ...call(key, big), step });
      store.record(key, big, answer, { ...call(key, big), step, ms: step });
    }
    expect(blobCount()).toBe(after);
    const calls = recordedCalls(db, new BlobStore(db), 'run1');
    expect(calls.map((c) => [c.step, c.ms])).toEqual([
      [1, 3],
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 5],
    ]);
    expect(calls.every((c) => c.node_id === 'think' && c.kind === 'llm')).toBe(true);
    expect(calls.map((c) => [c.request, c.response])).toEqual(Array(5).fill([big, answer]));
  });

  it('an answer without an intent (a store asked only to record) is written whole', () => {
    const store = new SqliteEffectStore(db, 'run1', new BlobStore(db));
    store.record('run1:3:think:0:h', { prompt: 'x' }, 'y');
    expect(recordedCalls(db, new BlobStore(db), 'run1')).toMatchObject([
      { key: 'run1:3:think:0:h', step: -1, request: { prompt: 'x' }, response: 'y' },
    ]);
  });

  it('kill -9 during the call: the intent survived, the resumed run re-sends the same key and records', async () => {
    const path = join(dir, 'runs.db');
    const sent = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      let key = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /^sent (\S+)\n/.exec(out);
        if (m && !key) {
          key = m[1]!;
          child.kill('SIGKILL');
        }
      });
      child.once('error', reject);
      child.once('exit', (_code, signal) =>
        signal === 'SIGKILL' && key ? resolve(key) : reject(new Error(`child ended without a call: ${err}`)),
      );
    });
    expect(sent).toMatch(/^run1:4:env:0:[0-9a-f]{16}$/);
    expect(rowOf(sent)).toEqual({ run_id: 'run1', request: '', response: '' });

    const store = new SqliteEffectStore(db, 'run1', new BlobStore(db));
    const keys: string[] = [];
    const request = { service: 'sim', fn: 'sim__step', inputs: { action: 2 } };
    const answer = await makeEffect(host(store), 4, 'env')(
      request,
      async (key) => {
        keys.push(key);
        return { outputs: { reward: 1 } };
      },
      'service',
    );
    expect(keys).toEqual([sent]);
    expect(answer).toEqual({ outputs: { reward: 1 } });
    expect(recordedCalls(db, new BlobStore(db), 'run1')).toMatchObject([
      { key: sent, kind: 'service', step: 4, node_id: 'env', request, response: { outputs: { reward: 1 } } },
    ]);
    // Once answered, the call is never made again.
    let again = false;
    await makeEffect(host(store), 4, 'env')(request, async () => (again = true), 'service');
    expect(again).toBe(false);
  });
});
