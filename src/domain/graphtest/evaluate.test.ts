import { describe, expect, it } from 'vitest';
import type { ClearedRef, ContainerSnapshot, EngineEvent } from '../protocol/protocol.ts';
import { evaluate, StepRecorder, stepsNeeded, textForm, type StepRecord } from './evaluate.ts';
import { parseGraphTest, type GraphTest } from './graphTest.schema.ts';

/** A container snapshot as nav_step carries it: `{slot: value}`, keyed partitions in `keyed`. */
function container(values: Record<string, unknown>, keyed: Record<string, Record<string, unknown>> = {}) {
  const states: ContainerSnapshot['states'] = {};
  for (const [name, value] of Object.entries(values))
    states[name] = {
      type: 'lastWrite',
      value_type: 'ANY',
      lifetime: 'forever',
      value,
      ...(keyed[name] ? { keyed: keyed[name], keys: Object.keys(keyed[name]).length } : {}),
    };
  return { label: '', owner: 'home', states };
}

const navStep = (step: number, containers: Record<string, ContainerSnapshot>, cleared: ClearedRef[] = []) =>
  ({
    type: 'nav_step',
    data: { step, containers, nodeStates: {}, cleared, outputs: {}, done: false },
  }) as EngineEvent;

const signal = (name: string, cleared: ClearedRef[]) =>
  ({ type: 'signal', data: { signal: name, scope: '', cleared } }) as EngineEvent;

function testOf(expectations: unknown[], steps?: number): GraphTest {
  const r = parseGraphTest({ graph: 'g.json', ...(steps ? { steps } : {}), expect: expectations });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.test;
}

/** Three steps: a counter, a list, a text slot cleared at step 2, a keyed slot evicted at step 3. */
function recorded(): StepRecord[] {
  const rec = new StepRecorder();
  const events: EngineEvent[] = [
    signal('run_start', []),
    navStep(1, { c: container({ n: 1, list: ['a'], s: 'go left', obj: { a: { b: [10, 20] } } }) }),
    signal('episode_done', [{ container: 'c', slot: 's' }]),
    navStep(2, { c: container({ n: 2, list: ['a', 'b'], s: null, k: null }, { k: { x: 1, y: [1, 2] } }) }, [
      { container: 'c', slot: 'list' },
    ]),
    signal('episode_reset', [{ container: 'c', slot: 'k', key: 'x' }]),
    navStep(3, { c: container({ n: 3, list: [], s: 'stop', k: null }, { k: { y: [1, 2, 3] } }) }),
    signal('run_end', [{ container: 'c', slot: 'n' }]),
  ];
  for (const e of events) rec.add(e);
  return rec.steps();
}

const run = { status: 'done', steps: 3 };

function results(expectations: unknown[]) {
  return evaluate(testOf(expectations), recorded(), run);
}

describe('StepRecorder', () => {
  it('assigns each signal clear to the step it happened in; run_end joins the last step', () => {
    const steps = recorded();
    expect(steps.map((s) => s.step)).toEqual([1, 2, 3]);
    expect(steps[0]!.cleared).toEqual([]);
    expect(steps[1]!.cleared).toEqual([
      { container: 'c', slot: 's' },
      { container: 'c', slot: 'list' },
    ]);
    expect(steps[2]!.cleared).toEqual([
      { container: 'c', slot: 'k', key: 'x' },
      { container: 'c', slot: 'n' },
    ]);
  });

  it('names the step_end clear once, though both the signal and nav_step list it', () => {
    const rec = new StepRecorder();
    const ref = { container: 'c', slot: 'obs' };
    rec.add(signal('step_end', [ref]));
    rec.add(navStep(1, {}, [ref]));
    expect(rec.steps()[0]!.cleared).toEqual([ref]);
  });

  it('holds only the steps asked for, plus the latest', () => {
    const rec = new StepRecorder(stepsNeeded(testOf([{ step: 2, slot: 'c.n', equals: 2 }])));
    for (let i = 1; i <= 5; i++) rec.add(navStep(i, { c: container({ n: i }) }));
    expect(rec.steps().map((s) => s.step)).toEqual([2, 5]);
  });
});

describe('evaluate: equals (deep JSON equality)', () => {
  it('passes on equal values, objects regardless of key order', () => {
    const r = results([
      { step: 1, slot: 'c.n', equals: 1 },
      { step: 1, slot: 'c.obj', equals: { a: { b: [10, 20] } } },
      { step: 2, slot: 'c.s', equals: null },
    ]);
    expect(r.slice(0, 3).map((x) => x.ok)).toEqual([true, true, true]);
  });

  it('fails with expected and actual', () => {
    const [r] = results([{ step: 2, slot: 'c.list', equals: ['a'] }]);
    expect(r).toMatchObject({ ok: false, step: 2, slot: 'c.list', expected: ['a'], actual: ['a', 'b'] });
    expect(r!.title).toBe('c.list at step 2 equals ["a"]');
  });

  it('reads JSON paths and keyed partitions', () => {
    const r = results([
      { step: 1, slot: 'c.obj.a.b[1]', equals: 20 },
      { step: 1, slot: 'c.list.0', equals: 'a' },
      { step: 2, slot: 'c.k[x]', equals: 1 },
      { step: 2, slot: 'c.k[y][1]', equals: 2 },
      { step: 2, slot: 'c.k[y].1', equals: 3 },
    ]);
    expect(r.slice(0, 5).map((x) => x.ok)).toEqual([true, true, true, true, false]);
    expect(r[4]).toMatchObject({ expected: 3, actual: 2 });
  });

  it('a missing container, slot, partition or path is a failure that says what exists', () => {
    const r = results([
      { step: 1, slot: 'nope.n', equals: 1 },
      { step: 1, slot: 'c.nope', equals: 1 },
      { step: 3, slot: 'c.k[x]', equals: 1 },
      { step: 1, slot: 'c.obj.z', equals: 1 },
    ]);
    expect(r.slice(0, 4).map((x) => [x.ok, x.message])).toEqual([
      [false, "no container 'nope' at step 1 (containers: c)"],
      [false, "container 'c' has no slot 'nope' (slots: n, list, s, obj)"],
      [false, "c.k has no partition 'x' at step 3 (partitions: y)"],
      [false, 'c.obj has no key "z" (keys: a)'],
    ]);
  });
});

describe('evaluate: length', () => {
  it('lists, strings and objects (key count)', () => {
    const r = results([
      { step: 2, slot: 'c.list', length: 2 },
      { step: 1, slot: 'c.s', length: 7 },
      { step: 1, slot: 'c.obj.a', length: 1 },
      { step: 3, slot: 'c.k[y]', length: 3 },
    ]);
    expect(r.slice(0, 4).map((x) => x.ok)).toEqual([true, true, true, true]);
  });

  it('fails with the actual length, or says the value has none', () => {
    const r = results([
      { step: 3, slot: 'c.list', length: 2 },
      { step: 1, slot: 'c.n', length: 1 },
    ]);
    expect(r[0]).toMatchObject({ ok: false, expected: 2, actual: 0 });
    expect(r[1]).toMatchObject({ ok: false, message: 'the value has no length (it is number)' });
  });
});

describe('evaluate: matches (regex on the text form)', () => {
  it('strings as they are, other values as JSON', () => {
    const r = results([
      { step: 1, slot: 'c.s', matches: '^go' },
      { step: 1, slot: 'c.n', matches: '^1$' },
      { step: 1, slot: 'c.obj', matches: '"b":\\[10,20\\]' },
      { step: 2, slot: 'c.s', matches: '^null$' },
    ]);
    expect(r.slice(0, 4).map((x) => x.ok)).toEqual([true, true, true, true]);
    expect(textForm(undefined)).toBe('');
  });

  it('fails with the text it searched', () => {
    const [r] = results([{ step: 3, slot: 'c.s', matches: '^go' }]);
    expect(r).toMatchObject({ ok: false, expected: '/^go/', actual: 'stop' });
  });
});

describe('evaluate: cleared', () => {
  it('true when a signal of that step or its step_end cleared the slot', () => {
    const r = results([
      { step: 2, slot: 'c.s', cleared: true },
      { step: 2, slot: 'c.list', cleared: true },
      { step: 3, slot: 'c.k[x]', cleared: true },
      { step: 'last', slot: 'c.n', cleared: true },
      { step: 1, slot: 'c.s', cleared: false },
      { step: 3, slot: 'c.k', cleared: false },
    ]);
    expect(r.slice(0, 6).map((x) => x.ok)).toEqual([true, true, true, true, true, true]);
  });

  it('fails saying what that step did clear', () => {
    const r = results([
      { step: 1, slot: 'c.s', cleared: true },
      { step: 2, slot: 'c.s', cleared: false },
      { step: 1, slot: 'c.typo', cleared: false },
    ]);
    expect(r[0]).toMatchObject({
      ok: false,
      expected: true,
      actual: false,
      message: 'cleared at step 1: nothing',
    });
    expect(r[1]).toMatchObject({
      ok: false,
      expected: false,
      actual: true,
      message: 'cleared at step 2: c.s, c.list',
    });
    expect(r[2]).toMatchObject({
      ok: false,
      message: "container 'c' has no slot 'typo' (slots: n, list, s, obj)",
    });
  });
});

describe('evaluate: steps and the run', () => {
  it('"last" is the last recorded step', () => {
    const [r] = results([{ step: 'last', slot: 'c.n', equals: 3 }]);
    expect(r).toMatchObject({ ok: true, step: 3, title: 'c.n at the last step equals 3' });
  });

  it('a step the run never reached fails, naming how the run ended', () => {
    const [r] = evaluate(testOf([{ step: 9, slot: 'c.n', equals: 9 }]), recorded(), {
      status: 'error',
      steps: 3,
      error: 'boom',
    });
    expect(r).toMatchObject({
      ok: false,
      message: 'the run ended after 3 steps (error: boom); there is no step 9',
    });
  });

  it('ends with "run ends without error"', () => {
    const ok = results([{ step: 1, slot: 'c.n', equals: 1 }]);
    expect(ok.at(-1)).toMatchObject({ index: -1, title: 'run ends without error', ok: true });
    const bad = evaluate(testOf([{ step: 1, slot: 'c.n', equals: 1 }]), recorded(), {
      status: 'error',
      steps: 3,
      error: 'node x failed',
    });
    expect(bad.map((x) => x.ok)).toEqual([true, false]);
    expect(bad[1]).toMatchObject({
      actual: 'error',
      message: 'the run ended after 3 steps (error: node x failed)',
    });
  });

  it('a run without any step fails "last" expectations', () => {
    const [r] = evaluate(testOf([{ step: 'last', slot: 'c.n', equals: 1 }]), [], {
      status: 'done',
      steps: 0,
    });
    expect(r).toMatchObject({
      ok: false,
      message: 'the run ended after 0 steps (done); no step was recorded',
    });
  });

  it('uses the expectation name as the title', () => {
    const [r] = results([{ step: 1, slot: 'c.n', equals: 1, name: 'counter starts at one' }]);
    expect(r!.title).toBe('counter starts at one');
  });
});
