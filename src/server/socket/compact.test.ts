import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { compactQueue, withoutFullValues } from './compact.ts';

const ev = (
  seq: number,
  type: EventEnvelope['type'],
  runId = 'r1',
  data: unknown = { step: seq },
): EventEnvelope => ({ type, runId, seq, ts: 't', data });

describe('compactQueue (per-client backpressure)', () => {
  it('keeps the newest nav_step per run, a gap for the dropped ones, and every other event in order', () => {
    const q = [
      ev(1, 'nav_step'),
      ev(2, 'state_written'),
      ev(3, 'nav_step'),
      ev(4, 'exec_log'),
      ev(5, 'nav_step'),
      ev(6, 'nav_status'),
    ];
    const out = compactQueue(q);
    expect(out.map((e) => [e.type, e.seq])).toEqual([
      ['gap', 1],
      ['state_written', 2],
      ['exec_log', 4],
      ['nav_step', 5],
      ['nav_status', 6],
    ]);
    expect(out[0]?.data).toEqual({ fromSeq: 1, toSeq: 3 });
  });

  it('treats runs separately and leaves a queue without droppable nav_steps alone', () => {
    const q = [ev(1, 'nav_step', 'a'), ev(1, 'nav_step', 'b'), ev(2, 'nav_step', 'a'), ev(2, 'signal', 'b')];
    const out = compactQueue(q);
    expect(out.map((e) => `${e.runId}:${e.type}:${e.seq}`)).toEqual([
      'a:gap:1',
      'b:nav_step:1',
      'a:nav_step:2',
      'b:signal:2',
    ]);
    const plain = [ev(1, 'exec_log'), ev(2, 'nav_step')];
    expect(compactQueue(plain)).toEqual(plain);
  });
});

describe('withoutFullValues', () => {
  it('drops object/string values and keyed partitions, keeps numbers, booleans and previews', () => {
    const e = ev(1, 'nav_step', 'r', {
      step: 1,
      containers: {
        m: {
          label: 'M',
          owner: 'home',
          states: {
            list: {
              type: 'accumulator',
              value_type: 'ANY',
              lifetime: 'forever',
              value: [1, 2],
              size: 2,
              preview: '[1, 2]',
            },
            n: { type: 'counter', value_type: 'ANY', lifetime: 'run', value: 3 },
            text: {
              type: 'lastWrite',
              value_type: 'TEXT',
              lifetime: 'step',
              value: 'long text',
              preview: 'long text',
            },
            k: {
              type: 'lastWrite',
              value_type: 'ANY',
              lifetime: 'forever',
              value: null,
              keys: 1,
              keyed: { a: 1 },
              preview: '[a] 1',
            },
          },
        },
      },
    });
    const s = (withoutFullValues(e).data as { containers: { m: { states: Record<string, object> } } })
      .containers.m.states;
    expect(s.list).toEqual({
      type: 'accumulator',
      value_type: 'ANY',
      lifetime: 'forever',
      size: 2,
      preview: '[1, 2]',
    });
    expect(s.n).toEqual({ type: 'counter', value_type: 'ANY', lifetime: 'run', value: 3 });
    expect(s.text).not.toHaveProperty('value');
    expect(s.k).toEqual({
      type: 'lastWrite',
      value_type: 'ANY',
      lifetime: 'forever',
      keys: 1,
      preview: '[a] 1',
    });
    // the original is untouched (it is shared by every client)
    expect(
      (e.data as { containers: { m: { states: { list: { value: unknown } } } } }).containers.m.states.list
        .value,
    ).toEqual([1, 2]);
  });

  it('previews the state a breakpoint_hit carries the same way, and leaves a hit without one alone', () => {
    const list = { type: 'accumulator', value_type: 'ANY', lifetime: 'forever', value: [1, 2], size: 2 };
    const n = { type: 'counter', value_type: 'ANY', lifetime: 'run', value: 3 };
    const state = { step: 4, containers: { m: { label: 'M', owner: 'home', states: { list, n } } } };
    const e = ev(1, 'breakpoint_hit', 'r', { breakpoint_id: 'b', step: 4, state });
    const out = withoutFullValues(e).data as typeof e.data & { state: typeof state };
    expect(out.state.step).toBe(4);
    expect(out.state.containers.m.states.list).not.toHaveProperty('value');
    expect(out.state.containers.m.states.n).toEqual(n);
    expect(state.containers.m.states.list.value).toEqual([1, 2]); // shared original untouched
    const bare = ev(2, 'breakpoint_hit', 'r', { breakpoint_id: 'b', step: 4 });
    expect(withoutFullValues(bare)).toBe(bare);
  });
});
