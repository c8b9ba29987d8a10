// The one behaviour suite of the `RunLog` interface, run against every implementation (SQLite:
// sqliteRunLog.test.ts, PostgreSQL: pgRunLog.test.ts). Each test opens a log of its own and uses
// ids of its own, so a database shared between tests (a PostgreSQL server) does not disturb it.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BatchRecord, EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { makeNdArray, type NdArray } from '../../domain/services/ndarray.ts';
import { deepFreeze } from '../../engine/freeze.ts';
import type { NewRun, RunLog } from './runLog.ts';
import { projectEvent } from '../../domain/batch/query.ts';

export function runLogSuite(
  name: string,
  open: () => Promise<RunLog>,
  cleanup?: (log: RunLog) => Promise<void>,
): void {
  describe(`RunLog: ${name}`, () => {
    let log: RunLog;
    let tag: string;
    const id = (s: string) => `${s}_${tag}`;
    const run = (s: string, over: Partial<NewRun> = {}): NewRun => ({
      id: id(s),
      graphName: 'demo',
      graph: { name: 'demo', nodes: [{ id: 'a', type: 'llm', config: { model: 'x', temperature: 0.5 } }] },
      status: 'running',
      startedAt: '2026-03-01T10:00:00.000Z',
      parentRunId: null,
      parentStep: null,
      lineage: id(s),
      freshEffects: false,
      stepDelayMs: 0,
      ...over,
    });
    const ev = (runId: string, seq: number, type: EventEnvelope['type'], data: unknown): EventEnvelope => ({
      type,
      runId,
      seq,
      ts: new Date(Date.UTC(2026, 2, 1, 10, 0, 0, seq)).toISOString(),
      data,
    });
    /** A demo-like step: a nav_step snapshot, a state write, node logs. */
    const step = (runId: string, n: number, first: number, state: unknown, count = 6): EventEnvelope[] => [
      ev(runId, first, 'nav_step', { step: n, containers: state, cleared: [] }),
      ev(runId, first + 1, 'state_written', { step: n, container: 'memory', slot: 'trail', value: state }),
      ...Array.from({ length: count - 2 }, (_, i) =>
        ev(runId, first + 2 + i, 'exec_log', { step: n, node_id: `n${i}`, ms: i * 1.5, error: null }),
      ),
    ];
    const state = (n: number) =>
      deepFreeze({
        memory: { trail: Array.from({ length: n }, (_, i) => ({ pos: [i, i * 2], note: `visited ${i}` })) },
        graph_state: {
          step_count: n,
          last_obs: `grid episode 1 step ${n}`,
          config: { size: 8, walls: 'x'.repeat(120) },
        },
      });

    beforeEach(async () => {
      tag = randomBytes(5).toString('hex');
      log = await open();
    });
    afterEach(async () => {
      await cleanup?.(log);
      await log.close();
    });

    describe('runs', () => {
      it('creates, reads and lists runs; the graph comes back exactly', async () => {
        const r = run('a', {
          parentRunId: 'p',
          parentStep: 4,
          freshEffects: true,
          stepDelayMs: 250,
          graphVersion: 'ab'.repeat(32),
        });
        await log.createRun(r);
        expect(await log.getRun(r.id)).toEqual({
          id: r.id,
          graph_name: 'demo',
          status: 'running',
          steps: 0,
          last_seq: 0,
          started_at: r.startedAt,
          ended_at: null,
          parent_run_id: 'p',
          parent_step: 4,
          lineage: r.lineage,
          error: null,
          fresh_effects: true,
          step_delay_ms: 250,
          graph_version: 'ab'.repeat(32),
        });
        expect(JSON.stringify(await log.graphOf(r.id))).toBe(JSON.stringify(r.graph));
        // A run stored without a version (before versions were kept) reads back null.
        await log.createRun(run('unversioned'));
        expect(await log.getRun(id('unversioned'))).toMatchObject({ graph_version: null });
        expect(await log.getRun(id('missing'))).toBeUndefined();
        expect(await log.graphOf(id('missing'))).toBeUndefined();
      });

      it('lists newest first and honours the limit', async () => {
        await log.createRun(run('old', { startedAt: '2099-01-01T00:00:00.000Z' }));
        await log.createRun(run('new', { startedAt: '2099-01-03T00:00:00.000Z' }));
        await log.createRun(run('mid', { startedAt: '2099-01-02T00:00:00.000Z' }));
        const mine = (await log.listRuns()).filter((r) => r.id.endsWith(tag)).map((r) => r.id);
        expect(mine).toEqual([id('new'), id('mid'), id('old')]);
        expect(await log.listRuns(2)).toHaveLength(2);
      });

      it('refuses a second run with the same id', async () => {
        await log.createRun(run('dup'));
        await expect(log.createRun(run('dup'))).rejects.toThrow();
        expect((await log.listRuns()).filter((r) => r.id === id('dup'))).toHaveLength(1);
      });
    });

    describe('events', () => {
      it('reads committed events back exactly, paged by seq and filtered by type', async () => {
        const r = id('ev');
        await log.createRun(run('ev'));
        const all: EventEnvelope[] = [];
        for (let n = 1; n <= 5; n++) {
          const events = step(r, n, all.length + 1, state(n));
          await log.commit(r, { events, steps: n });
          all.push(...events);
        }
        expect(await log.events(r, 0, 1000)).toEqual(all);
        expect((await log.events(r, 0, 1000)).map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
        // paging: after/limit walk the whole log without gaps or repeats
        const paged: EventEnvelope[] = [];
        for (let after = 0; ;) {
          const page = await log.events(r, after, 7);
          if (page.length === 0) break;
          expect(page.length).toBeLessThanOrEqual(7);
          paged.push(...page);
          after = page[page.length - 1]!.seq;
        }
        expect(paged).toEqual(all);
        expect(await log.events(r, 10, 3)).toEqual(all.slice(10, 13));
        expect(await log.events(r, all.length, 10)).toEqual([]);
        const snaps = await log.events(r, 0, 1000, 'nav_step');
        expect(snaps.map((e) => e.seq)).toEqual(all.filter((e) => e.type === 'nav_step').map((e) => e.seq));
        expect(await log.events(r, snaps[1]!.seq, 2, 'nav_step')).toEqual(snaps.slice(2, 4));
        expect(await log.events(id('nope'), 0, 10)).toEqual([]);
        expect(await log.getRun(r)).toMatchObject({ steps: 5, last_seq: all.length });
      });

      it('round-trips values exactly: nesting, key order, unicode, numbers, null, big arrays', async () => {
        const r = id('values');
        await log.createRun(run('values'));
        const tricky = {
          zeta: 1,
          alpha: { nested: { deeper: [1, [2, [3, { four: 4 }]]], empty: {}, none: [] } },
          '': 'empty key',
          'dotted.key': ['a.b', "it's", 'quote " and \\ backslash', 'line\nbreak\ttab', 'nul \u0000 char'],
          unicode: ['ünïcödé', '日本語テキスト', '🧭🗺️👩‍👩‍👧', 'עברית', 'e\u0301', '\ud800 lone', '\u2028\u2029'],
          numbers: [
            0,
            -1,
            1.5,
            -2.25,
            1e-7,
            1e300,
            -1e-300,
            Number.MAX_SAFE_INTEGER,
            -Number.MAX_SAFE_INTEGER,
            0.1 + 0.2,
          ],
          flags: [true, false, null],
          big: Array.from({ length: 1500 }, (_, i) => ({ i, s: `item ${i}`, even: i % 2 === 0 })),
          bigNumbers: Array.from({ length: 100 }, (_, i) => i * 3.14159),
          longText: 'lorem ipsum '.repeat(2000),
          last: null,
        };
        const frozen = deepFreeze(structuredClone(tricky));
        const events = [
          ev(r, 1, 'nav_step', { step: 1, containers: frozen }),
          ev(r, 2, 'exec_log', { step: 1, node_id: 'n', out: tricky }),
          ev(r, 3, 'state_written', { step: 1, value: tricky.unicode }),
          ev(r, 4, 'signal', 'a bare string'),
          ev(r, 5, 'exec_log', null),
          ev(r, 6, 'viewer_data', { step: 1, value: 42 }),
          ev(r, 7, 'node_status', { step: 1, status: [] }),
        ];
        await log.commit(r, { events, checkpoint: { step: 1, state: frozen }, steps: 1 });
        const back = await log.events(r, 0, 100);
        expect(back).toEqual(events);
        // exact, key order included
        expect(back.map((e) => JSON.stringify(e))).toEqual(events.map((e) => JSON.stringify(e)));
        const cp = await log.checkpoint(r, 1);
        expect(JSON.stringify(cp?.state)).toBe(JSON.stringify(tricky));
        expect(cp).toMatchObject({ step: 1, seq: 7 });
      });

      it('keeps node-service arrays bit-exact', async () => {
        const r = id('nd');
        await log.createRun(run('nd'));
        const bytes = new Uint8Array(Float32Array.from({ length: 256 }, (_, i) => Math.sin(i) * 1e3).buffer);
        const st = deepFreeze({ obs: { depth: makeNdArray('float32', [16, 16], bytes) }, n: 1 });
        await log.commit(r, {
          events: [ev(r, 1, 'nav_step', { step: 1, containers: st })],
          checkpoint: { step: 1, state: st },
        });
        const cp = (await log.checkpoint(r, 1))?.state as { obs: { depth: NdArray } };
        expect(cp.obs.depth.dtype).toBe('float32');
        expect(cp.obs.depth.shape).toEqual([16, 16]);
        expect(Buffer.from(cp.obs.depth.data).equals(Buffer.from(bytes))).toBe(true);
        const snap = (await log.events(r, 0, 1))[0]?.data as { containers: { obs: { depth: NdArray } } };
        expect(Buffer.from(snap.containers.obs.depth.data).equals(Buffer.from(bytes))).toBe(true);
      });
    });

    describe('checkpoints', () => {
      it('stores a checkpoint per step at the seq of its last event; lastCheckpoint is the newest step', async () => {
        const r = id('cp');
        await log.createRun(run('cp'));
        expect(await log.lastCheckpoint(r)).toBeUndefined();
        expect(await log.checkpointSteps(r)).toEqual([]);
        let seq = 1;
        for (let n = 1; n <= 4; n++) {
          const events = step(r, n, seq, state(n));
          seq += events.length;
          await log.commit(r, { events, checkpoint: { step: n, state: state(n) }, steps: n });
        }
        expect(await log.checkpointSteps(r)).toEqual([1, 2, 3, 4]);
        const c2 = await log.checkpoint(r, 2);
        expect(c2).toEqual({ step: 2, seq: 12, state: state(2) });
        expect(await log.lastCheckpoint(r)).toEqual({ step: 4, seq: 24, state: state(4) });
        expect(await log.checkpoint(r, 9)).toBeUndefined();
        expect(await log.checkpoint(id('nope'), 1)).toBeUndefined();
        // a restore re-runs step 2: the newest checkpoint of a step wins
        const again = deepFreeze({ ...state(2), replayed: true });
        await log.commit(r, { events: step(r, 2, seq, again), checkpoint: { step: 2, state: again } });
        expect(await log.checkpoint(r, 2)).toEqual({ step: 2, seq: seq + 5, state: again });
        expect(await log.checkpointSteps(r)).toEqual([1, 2, 3, 4]);
      });

      it('a commit may carry a checkpoint without events (at the last committed seq so far: 0)', async () => {
        const r = id('cponly');
        await log.createRun(run('cponly'));
        await log.commit(r, { events: [], checkpoint: { step: 0, state: state(0) } });
        expect(await log.checkpoint(r, 0)).toEqual({ step: 0, seq: 0, state: state(0) });
      });
    });

    describe('commit', () => {
      it('group commit: earlier whole steps share the transaction, each with its own checkpoint', async () => {
        const r = id('group');
        await log.createRun(run('group'));
        const s1 = step(r, 1, 1, state(1));
        const s2 = step(r, 2, 7, state(2));
        const s3 = step(r, 3, 13, state(3));
        await log.commit(r, {
          earlier: [
            { events: s1, checkpoint: { step: 1, state: state(1) } },
            { events: s2, checkpoint: { step: 2, state: state(2) } },
          ],
          events: s3,
          checkpoint: { step: 3, state: state(3) },
          steps: 3,
        });
        expect(await log.events(r, 0, 100)).toEqual([...s1, ...s2, ...s3]);
        expect(await log.checkpointSteps(r)).toEqual([1, 2, 3]);
        expect((await log.checkpoint(r, 1))?.seq).toBe(6);
        expect((await log.checkpoint(r, 2))?.seq).toBe(12);
        expect(await log.checkpoint(r, 3)).toEqual({ step: 3, seq: 18, state: state(3) });
        expect(await log.getRun(r)).toMatchObject({ steps: 3, last_seq: 18 });
      });

      it('a failed commit (duplicate seq) leaves nothing half-written, and its values can be stored later', async () => {
        const r = id('fail');
        await log.createRun(run('fail'));
        await log.commit(r, {
          events: step(r, 1, 1, state(1)),
          checkpoint: { step: 1, state: state(1) },
          steps: 1,
        });
        const before = await log.events(r, 0, 100);
        // a new value, first seen by the failing commit
        const fresh = deepFreeze({
          memory: { blob: 'never stored '.repeat(50), list: Array.from({ length: 70 }, (_, i) => `v${i}`) },
        });
        const bad = step(r, 2, 7, fresh);
        bad.push(ev(r, 7, 'exec_log', { step: 2, node_id: 'dup', error: null })); // seq 7 twice
        await expect(
          log.commit(r, {
            earlier: [{ events: step(r, 9, 100, fresh), checkpoint: { step: 9, state: fresh } }],
            events: bad,
            checkpoint: { step: 2, state: fresh },
            steps: 99,
            status: 'error',
            error: 'boom',
          }),
        ).rejects.toThrow();
        // an existing seq fails the same way
        await expect(
          log.commit(r, { events: [ev(r, 6, 'exec_log', { step: 1, x: 1 })], steps: 98 }),
        ).rejects.toThrow();
        expect(await log.events(r, 0, 1000)).toEqual(before);
        expect(await log.checkpointSteps(r)).toEqual([1]);
        expect(await log.getRun(r)).toMatchObject({ steps: 1, last_seq: 6, status: 'running', error: null });
        // the same (frozen) value committed properly now: every blob it needs is really stored
        const good = step(r, 2, 7, fresh);
        await log.commit(r, { events: good, checkpoint: { step: 2, state: fresh }, steps: 2 });
        expect(await log.events(r, 6, 100)).toEqual(good);
        expect(await log.checkpoint(r, 2)).toEqual({ step: 2, seq: 12, state: fresh });
      });

      it('counters: steps/status/ended_at/error only when given; last_seq never goes back', async () => {
        const r = id('counters');
        await log.createRun(run('counters'));
        await log.commit(r, { events: step(r, 1, 1, state(1)), steps: 1 });
        await log.commit(r, { events: [], status: 'paused' });
        expect(await log.getRun(r)).toMatchObject({
          steps: 1,
          last_seq: 6,
          status: 'paused',
          ended_at: null,
          error: null,
        });
        await log.commit(r, {
          events: [],
          status: 'error',
          error: 'node n failed',
          endedAt: '2026-03-01T11:00:00.000Z',
          steps: 2,
        });
        expect(await log.getRun(r)).toMatchObject({
          steps: 2,
          last_seq: 6,
          status: 'error',
          error: 'node n failed',
          ended_at: '2026-03-01T11:00:00.000Z',
        });
        // untouched when absent, cleared by an explicit null
        await log.commit(r, { events: step(r, 3, 7, state(3)) });
        expect(await log.getRun(r)).toMatchObject({ steps: 2, last_seq: 12, error: 'node n failed' });
        await log.commit(r, { events: [], status: 'running', error: null, endedAt: null });
        expect(await log.getRun(r)).toMatchObject({
          status: 'running',
          error: null,
          ended_at: null,
          last_seq: 12,
        });
      });

      it('commits to different runs at once stay apart', async () => {
        const names = ['par0', 'par1', 'par2', 'par3'];
        for (const s of names) await log.createRun(run(s));
        const ids = names.map(id);
        const shared = state(3);
        await Promise.all(
          ids.map(async (r) => {
            for (let n = 1; n <= 5; n++)
              await log.commit(r, {
                events: step(r, n, (n - 1) * 6 + 1, shared),
                checkpoint: { step: n, state: shared },
                steps: n,
              });
          }),
        );
        for (const r of ids) {
          const events = await log.events(r, 0, 100);
          expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
          expect(events.every((e) => e.runId === r)).toBe(true);
          expect(await log.lastCheckpoint(r)).toEqual({ step: 5, seq: 30, state: shared });
        }
      });
    });

    describe('deleteRun', () => {
      it('removes the run, its events and checkpoints; other runs sharing values keep theirs', async () => {
        const a = id('del');
        const b = id('keep');
        await log.createRun(run('del'));
        await log.createRun(run('keep'));
        for (const r of [a, b])
          await log.commit(r, {
            events: step(r, 1, 1, state(2)),
            checkpoint: { step: 1, state: state(2) },
            steps: 1,
          });
        await log.deleteRun(a);
        expect(await log.getRun(a)).toBeUndefined();
        expect(await log.events(a, 0, 100)).toEqual([]);
        expect(await log.checkpointSteps(a)).toEqual([]);
        expect(await log.lastCheckpoint(a)).toBeUndefined();
        expect(await log.lastCheckpoint(b)).toEqual({ step: 1, seq: 6, state: state(2) });
        expect(await log.events(b, 0, 100)).toHaveLength(6);
        await log.deleteRun(id('never-was'));
        // the id is free again, with an empty log
        await log.createRun(run('del'));
        expect(await log.events(a, 0, 100)).toEqual([]);
        await log.commit(a, { events: step(a, 1, 1, state(1)), steps: 1 });
        expect(await log.events(a, 0, 100)).toHaveLength(6);
      });
    });

    describe('projected reads', () => {
      it('reduces events to the values at paths exactly as reading them whole does', async () => {
        const r = id('proj');
        await log.createRun(run('proj'));
        const all: EventEnvelope[] = [];
        for (let n = 1; n <= 40; n++) {
          const events = step(r, n, all.length + 1, state(n));
          await log.commit(r, { events, steps: n });
          all.push(...events);
        }
        const paths = [
          ['step'],
          ['containers', 'memory', 'trail'],
          ['containers', 'graph_state', 'config', 'walls'],
          ['containers', 'memory', 'trail', '3', 'note'],
          ['containers', 'nope'],
          ['cleared'],
        ];
        const got = await log.projectEvents([r, id('unknown')], 'nav_step', paths);
        expect(got.get(id('unknown'))).toEqual([]);
        const whole = all.filter((e) => e.type === 'nav_step');
        expect(got.get(r)).toEqual(whole.map((e) => ({ seq: e.seq, values: projectEvent(e.data, paths) })));
        // the long trail (a chunked list past 32 items) and an index into it
        const last = got.get(r)![39]!.values;
        expect(last[1]).toHaveLength(40);
        expect(last[3]).toBe('visited 3');
        expect(last[4]).toBeUndefined();
        // small payloads (not blob-encoded) project the same way
        const logs = await log.projectEvents([r], 'exec_log', [['node_id'], ['ms']]);
        const execs = all.filter((e) => e.type === 'exec_log');
        expect(logs.get(r)).toEqual(
          execs.map((e) => ({ seq: e.seq, values: projectEvent(e.data, [['node_id'], ['ms']]) })),
        );
      });
    });

    describe('batches', () => {
      const batch = (s: string, over: Partial<BatchRecord> = {}): BatchRecord => ({
        id: id(s),
        graph_name: 'grid',
        graph: { name: 'grid', nodes: [{ id: 'n', type: 't' }], z: 1, a: [1, 'two', null] },
        episodes: 20,
        workers: 4,
        seed: 4_000_000_000,
        sets: ['graph_state.size=8', 'a.b="x y"'],
        mode: 'distributed',
        status: 'queued',
        graph_version: 'cd'.repeat(32),
        created_at: '2026-03-01T10:00:00.000Z',
        ended_at: null,
        error: null,
        ...over,
      });
      const episode = (n: number, over: Partial<EpisodeRow> = {}): EpisodeRow => ({
        episode: n,
        seed: 1000 + n,
        run_id: `run_${n}`,
        status: 'done',
        steps: 10 + n,
        outputs: { answer: `a${n}`, nested: { list: [n, n + 0.5] } },
        metrics: { reward: n * 0.25, steps: 10 + n },
        success: n % 2 === 0,
        error: null,
        worker: 'worker-h-1',
        attempts: 1,
        duration_ms: 12.5,
        ...over,
      });

      it('creates, reads, lists and updates batches', async () => {
        const b = batch('b');
        await log.createBatch(b);
        const back = await log.getBatch(b.id);
        expect(back).toEqual(b);
        expect(JSON.stringify(back?.graph)).toBe(JSON.stringify(b.graph));
        expect(await log.getBatch(id('none'))).toBeUndefined();
        await log.createBatch(batch('older', { created_at: '2026-02-01T00:00:00.000Z' }));
        await log.createBatch(batch('newer', { created_at: '2099-01-01T00:00:00.000Z' }));
        const mine = (await log.listBatches()).filter((x) => x.id.endsWith(tag)).map((x) => x.id);
        expect(mine).toEqual([id('newer'), id('b'), id('older')]);
        expect(await log.listBatches(1)).toHaveLength(1);
        await log.updateBatch(b.id, { status: 'running' });
        expect(await log.getBatch(b.id)).toEqual({ ...b, status: 'running' });
        await log.updateBatch(b.id, {
          status: 'error',
          ended_at: '2026-03-01T12:00:00.000Z',
          error: 'worker lost',
        });
        expect(await log.getBatch(b.id)).toEqual({
          ...b,
          status: 'error',
          ended_at: '2026-03-01T12:00:00.000Z',
          error: 'worker lost',
        });
        await log.updateBatch(b.id, {});
        await log.updateBatch(b.id, { error: null });
        expect(await log.getBatch(b.id)).toMatchObject({ status: 'error', error: null });
        await log.createBatch(batch('noversion', { graph_version: null }));
        expect(await log.getBatch(id('noversion'))).toMatchObject({ graph_version: null });
      });

      it('records each episode exactly once (a retry replaces it) and lists them in episode order', async () => {
        const b = batch('eps');
        await log.createBatch(b);
        expect(await log.episodes(b.id)).toEqual([]);
        expect(await log.recordEpisode(b.id, episode(2))).toBe(1);
        expect(await log.recordEpisode(b.id, episode(0))).toBe(2);
        expect(
          await log.recordEpisode(b.id, episode(1, { status: 'error', error: 'timeout', success: false })),
        ).toBe(3);
        // the retried episode 1 replaces its row
        const retried = episode(1, { attempts: 2, worker: 'worker-h-2', steps: 99 });
        expect(await log.recordEpisode(b.id, retried)).toBe(3);
        expect(await log.recordEpisode(b.id, retried)).toBe(3);
        expect(await log.episodes(b.id)).toEqual([episode(0), retried, episode(2)]);
        // another batch is separate
        const other = batch('eps2');
        await log.createBatch(other);
        expect(await log.recordEpisode(other.id, episode(0))).toBe(1);
        expect(await log.episodes(b.id)).toHaveLength(3);
      });

      it('records episodes arriving at once from several workers', async () => {
        const b = batch('race');
        await log.createBatch(b);
        const counts = await Promise.all(
          Array.from({ length: 24 }, (_, i) =>
            log.recordEpisode(b.id, episode(i % 12, { attempts: i < 12 ? 1 : 2 })),
          ),
        );
        expect(Math.max(...counts)).toBe(12);
        const eps = await log.episodes(b.id);
        expect(eps.map((e) => e.episode)).toEqual(Array.from({ length: 12 }, (_, i) => i));
      });
    });
  });
}
