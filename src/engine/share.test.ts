// Record sharing between checkpoints: a checkpoint shares with the previous one every record whose
// content did not change (not only the values), and sharing never changes what any step's checkpoint,
// stateAt or restore shows.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGraph } from '../domain/graph/graph.parse.ts';
import type { GraphDef } from '../domain/graph/graph.schema.ts';
import { createRun } from './createRun.ts';
import { deepFreeze } from './freeze.ts';
import { share, ShareMemo } from './share.ts';
import { container, paintedMap, slot } from './testkit.ts';

function demo(steps: number): GraphDef {
  const r = parseGraph(
    JSON.parse(readFileSync(new URL('../../workspace/graphs/grid_navigator.json', import.meta.url), 'utf8')),
  );
  if (!r.ok) throw new Error('demo graph does not parse');
  return { ...r.graph, step_budget: steps };
}

async function drive(run: { stepOnce(): Promise<{ done: boolean }> }, steps = Infinity) {
  for (let i = 0; i < steps; i++) if ((await run.stepOnce()).done) return;
}

/** Every pair of counterpart objects with equal content that are NOT the same reference, by path. */
function unshared(cur: unknown, prev: unknown, path = '', out: string[] = []): string[] {
  if (typeof cur !== 'object' || cur === null || typeof prev !== 'object' || prev === null) return out;
  if (cur === prev) return out;
  if (JSON.stringify(cur) === JSON.stringify(prev)) out.push(path || '(root)');
  else
    for (const k of Object.keys(cur))
      if (Object.hasOwn(prev, k))
        unshared(
          (cur as Record<string, unknown>)[k],
          (prev as Record<string, unknown>)[k],
          `${path}.${k}`,
          out,
        );
  return out;
}

describe('share', () => {
  it('keys that look like code stay data: a changed record with such keys is rebuilt by content', () => {
    const evil = '"}); globalThis.__pwned = 1; ({"';
    const prev = deepFreeze(JSON.parse(`{"${'\\u0022'}": 0, "a": 1, "__proto__": {"x": 1}, "b\\u2028c": 2}`));
    const raw = JSON.parse(JSON.stringify(prev)) as Record<string, unknown>;
    raw[evil] = 3;
    raw.a = 5;
    const cur = deepFreeze(raw);
    const out = share(cur, prev) as Record<string, unknown>;
    expect((globalThis as { __pwned?: number }).__pwned).toBeUndefined();
    expect(JSON.stringify(out)).toBe(JSON.stringify(cur));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(Object.keys(cur));
  });

  it('returns the previous object when the content is equal, and shares the equal children otherwise', () => {
    const prev = deepFreeze({ a: { x: 1 }, b: [1, 2, { c: 'y' }], n: 1 });
    const same = deepFreeze({ a: { x: 1 }, b: [1, 2, { c: 'y' }], n: 1 });
    expect(share(same, prev)).toBe(prev);
    const changed = deepFreeze({ a: { x: 1 }, b: [1, 2, { c: 'y' }], n: 2 });
    const s = share(changed, prev);
    expect(s).not.toBe(prev);
    expect(s).toEqual(changed);
    expect(s.a).toBe(prev.a);
    expect(s.b).toBe(prev.b);
    expect(Object.isFrozen(s)).toBe(true);
  });

  it('never shares across a different key order, a missing key, an array/object swap or -0', () => {
    const prev = deepFreeze({ a: 1, b: 2, z: -0 });
    expect(share(deepFreeze({ b: 2, a: 1, z: -0 }), prev)).not.toBe(prev);
    expect(Object.keys(share(deepFreeze({ b: 2, a: 1, z: -0 }), prev))).toEqual(['b', 'a', 'z']);
    expect(share(deepFreeze({ a: 1, b: 2 }), prev)).not.toBe(prev);
    expect(share(deepFreeze({ a: 1, b: 2, z: 0 }), prev)).not.toBe(prev);
    const list = deepFreeze([1, 2]);
    expect(share(deepFreeze({ 0: 1, 1: 2 }), list)).not.toBe(list);
    const bytes = new Uint8Array([1, 2]);
    expect(share({ d: bytes }, deepFreeze({ d: new Uint8Array([1, 2]) })).d).toBe(bytes);
  });

  it('a list that dropped its oldest entries keeps every remaining entry, not a copy of it', () => {
    const prev = deepFreeze([{ p: 1 }, { p: 2 }, { p: 3 }, { p: 4 }]);
    const newest = deepFreeze({ p: 5, at: [0, 1] });
    const cur = deepFreeze([...prev.slice(2), newest]);
    const s = share(cur, prev) as readonly object[];
    expect(s).toEqual([{ p: 3 }, { p: 4 }, { p: 5, at: [0, 1] }]);
    expect(s[0]).toBe(prev[2]);
    expect(s[1]).toBe(prev[3]);
    expect(Object.isFrozen(s)).toBe(true);
  });

  it('a value met twice in one capture is made once, and still shares with each counterpart', () => {
    const pos = deepFreeze([3, 4]);
    const prev = deepFreeze({ out: { at: pos, t: 1 }, list: [{ at: pos, t: 1 }] });
    const value = deepFreeze({ at: [3, 4], t: 2 });
    const cur = deepFreeze({ out: value, list: [prev.list[0], value] });
    const memo = new ShareMemo();
    const s = share(cur, prev, false, memo) as { out: { at: unknown }; list: readonly unknown[] };
    expect(JSON.stringify(s)).toBe(JSON.stringify(cur));
    expect(s.list[1]).toBe(s.out);
    expect(s.out.at).toBe(pos);
    expect(s.list[0]).toBe(prev.list[0]);
    // the same value under a counterpart of equal content is that counterpart
    const again = deepFreeze({ out: value });
    expect(share(again, deepFreeze({ out: { at: [3, 4], t: 2 } }), false, memo)).not.toBe(again);
    const twin = deepFreeze({ out: { at: [3, 4], t: 2 } });
    expect(share(deepFreeze({ out: value }), twin, false, memo)).toBe(twin);
  });

  it('an owned (mutable) record is copied, never returned, so later edits cannot reach the history', () => {
    const mine: Record<string, unknown> = { a: deepFreeze({ x: 1 }) };
    const captured = share(mine, undefined, true);
    expect(captured).not.toBe(mine);
    mine.a = 'edited';
    expect(captured).toEqual({ a: { x: 1 } });
    expect(Object.isFrozen(captured)).toBe(true);
  });
});

describe('checkpoints share unchanged records with the previous step', () => {
  it('demo: every record equal to the previous checkpoint’s is that record', async () => {
    const run = createRun(demo(60), { runId: 'r', now: () => 0 }, () => undefined);
    await drive(run);
    const steps = run.checkpointSteps();
    expect(steps.length).toBe(60);
    let sharedRecords = 0;
    for (let i = 1; i < steps.length; i++) {
      const prev = run.checkpoint(steps[i - 1]!)!.state;
      const cur = run.checkpoint(steps[i]!)!.state;
      expect(unshared(cur, prev)).toEqual([]);
      const p = prev as { live: Record<string, unknown> };
      const c = cur as { live: Record<string, unknown> };
      for (const k of Object.keys(c.live)) if (c.live[k] === p.live[k]) sharedRecords++;
    }
    expect(sharedRecords).toBeGreaterThan(0);
  });

  it('demo: the pose both harvested and appended to the trail is one object, kept once', async () => {
    const run = createRun(demo(80), { runId: 'r', now: () => 0 }, () => undefined);
    await drive(run);
    type S = {
      live: { harvest: { pose?: unknown } };
      containers: { memory: { keyed: { trail: Record<string, readonly unknown[]> } } };
    };
    let checked = 0;
    for (const step of run.checkpointSteps()) {
      const st = run.checkpoint(step)!.state as S;
      const pose = st.live.harvest.pose;
      for (const list of Object.values(st.containers.memory.keyed.trail)) {
        if (pose === undefined || list.length === 0) continue;
        if (JSON.stringify(list.at(-1)) !== JSON.stringify(pose)) continue;
        expect(list.at(-1)).toBe(pose);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('a one-slot change shares every other container, slot value and live record', async () => {
    const m = paintedMap(30, 10, 20);
    const g: GraphDef = {
      ...m.graph,
      containers: [
        ...m.graph.containers,
        container('idle', { notes: slot('lastWrite'), log: slot('accumulator') }),
      ],
    };
    const run = createRun(g, { runId: 'p', registry: m.registry }, () => undefined);
    await drive(run);
    type S = {
      containers: Record<string, { values: Record<string, readonly unknown[]> }>;
      live: Record<string, unknown>;
    };
    for (let k = 2; k <= 30; k++) {
      const prev = run.checkpoint(k - 1)!.state as S;
      const cur = run.checkpoint(k)!.state as S;
      expect(cur.containers.idle).toBe(prev.containers.idle);
      const map = cur.containers.world!.values.map!;
      const before = prev.containers.world!.values.map!;
      expect(map).not.toBe(before);
      // only the painted row is new
      expect(map.filter((row, r) => row !== before[r])).toHaveLength(1);
      for (const rec of ['pending', 'arrived', 'nodeStates', 'errors', 'latches', 'harvest', 'features'])
        expect(cur.live[rec], rec).toBe(prev.live[rec]);
    }
  });
});

describe('sharing changes nothing a reader sees', () => {
  it('each checkpoint, stateAt and restore show what they showed when the step was taken', async () => {
    const run = createRun(demo(50), { runId: 'r', now: () => 0 }, () => undefined);
    const atStep = new Map<number, { cp: string; state: string }>();
    for (;;) {
      const { done } = await run.stepOnce();
      const cp = run.checkpoint(run.step);
      if (cp)
        atStep.set(run.step, { cp: JSON.stringify(cp.state), state: JSON.stringify(run.stateAt(run.step)) });
      if (done) break;
    }
    expect(atStep.size).toBe(50);
    for (const [step, seen] of atStep) {
      expect(JSON.stringify(run.checkpoint(step)!.state)).toBe(seen.cp);
      expect(JSON.stringify(run.stateAt(step))).toBe(seen.state);
    }
    // restoring walks back (later checkpoints are dropped), so go from the newest to the oldest
    for (const step of [45, 31, 17, 3]) {
      run.restore(step);
      expect(JSON.stringify(run.stateAt())).toBe(atStep.get(step)!.state);
      expect(JSON.stringify(run.checkpoint(step)!.state)).toBe(atStep.get(step)!.cp);
    }
  });
});
