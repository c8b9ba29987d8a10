import { describe, expect, it } from 'vitest';
import { parseGraphOrThrow } from '../graph/graph.parse.ts';
import {
  describeQuery,
  evaluateEpisode,
  parseQuery,
  projectEvent,
  queryPlan,
  queryProblem,
  type BatchQuery,
  type ProjectedEvent,
} from './query.ts';

const q = (text: string): BatchQuery => {
  const r = parseQuery(text);
  if (!r.ok) throw new Error(r.error);
  return r.query;
};

/** The projected events a store would hand over for `query`, from whole event data in seq order. */
function project(query: BatchQuery, events: { type: string; data: unknown }[]): ProjectedEvent[][] {
  return queryPlan(query).map((p) =>
    events.flatMap((e, i) =>
      e.type === p.type ? [{ seq: i + 1, values: projectEvent(e.data, p.paths) }] : [],
    ),
  );
}

const slot = (value: unknown, keyed?: Record<string, unknown>) => ({
  type: 'lastWrite',
  value_type: 'ANY',
  lifetime: 'forever',
  value,
  ...(keyed ? { keyed } : {}),
});
const nav = (step: number, states: Record<string, unknown>, cleared: unknown[] = []) => ({
  type: 'nav_step',
  data: { step, containers: { m: { label: '', owner: 'home', states } }, nodeStates: {}, cleared },
});
const wrote = (step: number, slotName: string, node: string, key?: string) => ({
  type: 'state_written',
  data: { step, container: 'm', slot: slotName, node_id: node, ...(key ? { key } : {}), before: 0, after: 1 },
});
const signal = (cleared: unknown[]) => ({ type: 'signal', data: { signal: 'step_end', scope: '', cleared } });

describe('parseQuery', () => {
  it('reads the breakpoint grammar and refuses what is not a stored-state condition', () => {
    expect(describeQuery(q('m.count >= 3'))).toBe('m.count >= 3');
    expect(describeQuery(q('m.trail length> 5'))).toBe('m.trail length> 5');
    expect(describeQuery(q('write m.trail by policy'))).toBe('write m.trail by policy');
    expect(describeQuery(q('clear m.trail'))).toBe('clear m.trail');
    expect(parseQuery('count >= 3')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/container\.slot/),
    });
  });

  it('says which container, slot or node of the graph a query misses', () => {
    const g = parseGraphOrThrow({
      nodes: [{ id: 'policy', type: 'constant' }],
      containers: [{ id: 'm', states: { count: { type: 'counter' } } }],
    });
    expect(queryProblem(q('m.count > 1'), g)).toBeNull();
    expect(queryProblem(q('x.count > 1'), g)).toMatch(/no container 'x' \(containers: m\)/);
    expect(queryProblem(q('m.nope > 1'), g)).toMatch(/no slot 'nope' \(slots: count\)/);
    expect(queryProblem(q('write m.count by ghost'), g)).toMatch(/no node 'ghost'/);
  });
});

describe('evaluateEpisode', () => {
  it('a condition holds at every step whose snapshot meets it (keyed slots: any partition)', () => {
    const events = [
      nav(1, { count: slot(1), trail: slot([], { '1': [1] }) }),
      nav(2, { count: slot(2), trail: slot([], { '1': [1, 2], '2': [5, 6, 7] }) }),
      nav(3, { count: slot(3), trail: slot([], { '1': [1, 2, 3], '2': [5, 6, 7] }) }),
      nav(4, { count: slot({ deep: [0, 9] }) }),
    ];
    const count = q('m.count >= 2');
    expect(evaluateEpisode(count, project(count, events))).toEqual([
      { step: 2, keys: [], nodes: [], value: 2 },
      { step: 3, keys: [], nodes: [], value: 3 },
    ]);
    const trail = q('m.trail length> 2');
    expect(evaluateEpisode(trail, project(trail, events))).toEqual([
      { step: 2, keys: ['2'], nodes: [], value: [5, 6, 7] },
      { step: 3, keys: ['1', '2'], nodes: [], value: [1, 2, 3] },
    ]);
    const deep = q('m.count.deep[1] == 9');
    expect(evaluateEpisode(deep, project(deep, events)).map((h) => h.step)).toEqual([4]);
  });

  it('a write holds at the steps that wrote the slot, by the node when one is named', () => {
    const events = [
      wrote(1, 'trail', 'a', 'k1'),
      wrote(1, 'trail', 'b', 'k2'),
      wrote(2, 'other', 'a'),
      wrote(3, 'trail', 'a'),
    ];
    const any = q('write m.trail');
    expect(evaluateEpisode(any, project(any, events))).toEqual([
      { step: 1, keys: ['k1', 'k2'], nodes: ['a', 'b'] },
      { step: 3, keys: [], nodes: ['a'] },
    ]);
    const byB = q('write m.trail by b');
    expect(evaluateEpisode(byB, project(byB, events))).toEqual([{ step: 1, keys: ['k2'], nodes: ['b'] }]);
  });

  it('a clear holds at the step a signal (before its nav_step) or the nav_step itself cleared the slot', () => {
    const events = [
      nav(1, {}),
      signal([{ container: 'm', slot: 'trail', key: '1' }]), // belongs to step 2
      nav(2, {}),
      nav(3, {}, [{ container: 'm', slot: 'trail' }]),
      nav(4, {}, [{ container: 'm', slot: 'other' }]),
      signal([{ container: 'm', slot: 'trail' }]), // after the last nav_step: run_end, counts for step 4
    ];
    const c = q('clear m.trail');
    expect(evaluateEpisode(c, project(c, events))).toEqual([
      { step: 2, keys: ['1'], nodes: [] },
      { step: 3, keys: [], nodes: [] },
      { step: 4, keys: [], nodes: [] },
    ]);
  });
});
