// A restore's branch is recorded as a plan over the original run's rows and copied only when
// something reads or changes it: the copy must be exactly what an immediate one gave (same events,
// renumbered from 1, same checkpoints and counters), whenever it happens — after the original run
// went on, after a restart, or right before the original run is deleted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { closeDatabase, openDatabase, type Db } from './database.ts';
import { RunStore, type NewRun } from './runStore.ts';
import { blockInRanges, inPlan, keptRanges } from './tailPlan.ts';

const run = (id: string, extra: Partial<NewRun> = {}): NewRun => ({
  id,
  graphName: 'g',
  graph: { name: 'g', nodes: [] },
  status: 'running',
  startedAt: '2026-01-01T00:00:00.000Z',
  parentRunId: null,
  parentStep: null,
  lineage: 'L',
  freshEffects: false,
  stepDelayMs: 0,
  ...extra,
});
const NOW = '2026-01-01T01:00:00.000Z';

/** Commits steps from..to of run `id` the way a live run does: rows, a page, a checkpoint per step. */
function steps(store: RunStore, id: string, from: number, to: number): void {
  for (let step = from; step <= to; step++) {
    const seq = store.getRun(id)!.last_seq;
    const ts = `2026-01-01T00:00:${String(step % 60).padStart(2, '0')}.000Z`;
    const e = (i: number, type: EventEnvelope['type'], data: unknown): EventEnvelope => ({
      type,
      runId: id,
      seq: seq + i,
      ts,
      data,
    });
    store.commit(id, {
      events: [
        e(1, 'exec_log', { step, node_id: 'a', text: `é ${step}` }),
        e(2, 'state_written', { step, slot: 's', after: { n: step, big: 'x'.repeat(120) } }),
        e(3, 'node_status', { step, node_id: 'a', status: 'done' }),
        e(4, 'signal', { step, name: 'step_end' }),
        e(5, 'nav_step', { step, containers: { c: { n: step } } }),
      ],
      checkpoint: { step, state: { n: step, list: Array.from({ length: step % 7 }, (_, i) => i) } },
      steps: step,
    });
  }
}

/** The rows a branch has of its own (0 while it is still a plan). */
const ownRows = (db: Db, id: string) =>
  (
    db
      .prepare(
        'SELECT (SELECT COUNT(*) FROM events WHERE run = r.rid) + (SELECT COUNT(*) FROM event_pages WHERE run = r.rid) AS n FROM runs r WHERE id = ?',
      )
      .get(id) as { n: number }
  ).n;

describe('tail plans', () => {
  const plan = { after: 10, to: 100, taken: [[40, 60] as const, [90, 120] as const] };
  it('keep the tail minus the taken ranges', () => {
    expect(keptRanges(plan)).toEqual([
      [10, 40],
      [60, 90],
    ]);
    expect([11, 40, 41, 60, 61, 90, 91, 10].map((s) => inPlan(plan, s))).toEqual([
      true,
      true,
      false,
      false,
      true,
      true,
      false,
      false,
    ]);
  });
  it('tell whether a page lies inside, outside or across the kept ranges', () => {
    const kept = keptRanges(plan);
    expect(blockInRanges(kept, 12, 20)).toBe('all');
    expect(blockInRanges(kept, 45, 55)).toBe('none');
    expect(blockInRanges(kept, 35, 45)).toBe('some');
    expect(blockInRanges(kept, 5, 11)).toBe('some');
  });
});

describe('a branch kept as a plan', () => {
  let dir: string;
  let file: string;
  let db: Db;
  let store: RunStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sw-branch-'));
    file = join(dir, 'runs.db');
    db = openDatabase(file);
    store = new RunStore(db);
    store.createRun(run('r'));
    steps(store, 'r', 1, 30);
  });
  afterEach(() => {
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  /** What the branch at `step` must hold: the original's events after that step's checkpoint. */
  const expectedTail = (fromSeq: number, toSeq: number, branchId: string) =>
    store.events('r', fromSeq, toSeq - fromSeq).map((e, i) => ({ ...e, runId: branchId, seq: i + 1 }));

  const branchAt = (step: number, id: string) => {
    const cp = store.checkpoint('r', step)!;
    const n = store.keepTailAsBranch('r', cp.seq, run(id, { parentRunId: 'r', parentStep: step }), step, NOW);
    return { cp, n };
  };

  it('costs one row at restore time, and reads back as the copy would', () => {
    const last = store.getRun('r')!.last_seq;
    const want = (() => {
      const cp = store.checkpoint('r', 10)!;
      return expectedTail(cp.seq, last, 'b1');
    })();
    const { n } = branchAt(10, 'b1');
    expect(n).toBe(want.length);
    expect(ownRows(db, 'b1')).toBe(0);
    // Listing and the branch record need no copy, and already say what the branch holds.
    expect(store.getRun('b1')).toMatchObject({ status: 'stopped', steps: 30, last_seq: want.length });
    expect(store.branchRecord('b1')).toMatchObject({ of_run: 'r', at_step: 10, from_step: 11, to_step: 30 });
    expect(ownRows(db, 'b1')).toBe(0);
    // The original run goes on (rewound, re-running steps): the branch is not affected.
    steps(store, 'r', 11, 14);
    expect(store.events('b1', 0, 10_000)).toEqual(want);
    expect(ownRows(db, 'b1')).toBeGreaterThan(0);
    expect(store.checkpointSteps('b1')).toEqual(Array.from({ length: 20 }, (_, i) => 11 + i));
    expect(store.checkpoint('b1', 20)?.state).toEqual(store.checkpoint('b1', 20)?.state);
    expect(store.checkpoint('b1', 20)?.state).toEqual({ n: 20, list: [0, 1, 2, 3, 4, 5] });
    expect(store.getRun('b1')?.last_seq).toBe(want.length);
    expect(db.prepare('SELECT pending FROM run_branches WHERE run_id = ?').get('b1')).toEqual({
      pending: null,
    });
  });

  it('leaves out what an earlier branch took, and nothing when no step was abandoned', () => {
    branchAt(20, 'b1');
    const cp10 = store.checkpoint('r', 10)!;
    const cp20 = store.checkpoint('r', 20)!;
    const want = expectedTail(cp10.seq, cp20.seq, 'b2');
    expect(branchAt(10, 'b2').n).toBe(want.length);
    expect(store.branchRecord('b2')).toMatchObject({ from_step: 11, to_step: 20 });
    expect(store.events('b2', 0, 10_000)).toEqual(want);
    expect(branchAt(30, 'b3').n).toBe(0);
    expect(store.getRun('b3')).toBeUndefined();
  });

  it('survives a restart as a plan and is copied on first read', () => {
    const cp = store.checkpoint('r', 25)!;
    const want = expectedTail(cp.seq, store.getRun('r')!.last_seq, 'b1');
    branchAt(25, 'b1');
    closeDatabase(db);
    db = openDatabase(file);
    store = new RunStore(db);
    expect(ownRows(db, 'b1')).toBe(0);
    expect(store.events('b1', 0, 10_000)).toEqual(want);
  });

  it('is copied before the original run is deleted', () => {
    const cp = store.checkpoint('r', 5)!;
    const want = expectedTail(cp.seq, store.getRun('r')!.last_seq, 'b1');
    branchAt(5, 'b1');
    store.deleteRun('r');
    expect(store.getRun('r')).toBeUndefined();
    expect(store.events('b1', 0, 10_000)).toEqual(want);
    expect(store.checkpoint('b1', 30)?.state).toEqual({ n: 30, list: [0, 1] });
  });

  it('deleted while still a plan leaves the original untouched', () => {
    const before = store.events('r', 0, 10_000);
    branchAt(5, 'b1');
    store.deleteRun('b1');
    expect(store.getRun('b1')).toBeUndefined();
    expect(store.branchRecord('b1')).toBeUndefined();
    expect(store.events('r', 0, 10_000)).toEqual(before);
  });

  it('upgrades a run_branches table of an older version (no plan columns) in place', () => {
    closeDatabase(db);
    db = openDatabase(file);
    // The table as an older version created it (this test's store made the current one: empty).
    db.exec('DROP TABLE run_branches');
    db.exec(`CREATE TABLE run_branches (run_id TEXT PRIMARY KEY, of_run TEXT NOT NULL, at_step INTEGER NOT NULL,
      from_seq INTEGER NOT NULL, to_seq INTEGER NOT NULL, created_at TEXT NOT NULL) WITHOUT ROWID`);
    // An old branch: copied rows of its own, no from_step/to_step columns.
    db.prepare('INSERT INTO run_branches VALUES (?, ?, ?, ?, ?, ?)').run('old', 'r', 28, 1, 2, NOW);
    store = new RunStore(db);
    store.createRun(run('old', { parentRunId: 'r', parentStep: 28 }));
    steps(store, 'old', 29, 30);
    expect(store.branchRecord('old')).toMatchObject({ from_step: 29, to_step: 30 });
    expect(branchAt(15, 'b1').n).toBeGreaterThan(0);
    expect(
      store
        .branchesOf('r')
        .map((b) => b.run_id)
        .sort(),
    ).toEqual(['b1', 'old']);
  });
});
