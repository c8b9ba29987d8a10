import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { foldWriters, writersUpTo } from './writers.ts';

const ev = (seq: number, type: EventEnvelope['type'], data: unknown) =>
  ({ type, data, seq, runId: 'r', ts: 't' }) as EventEnvelope;
const write = (seq: number, step: number, node: string, slot: string, key?: string) =>
  ev(seq, 'state_written', {
    node_id: node,
    container: 'm',
    slot,
    ...(key !== undefined ? { key } : {}),
    reducer: 'lastWrite',
    step,
    before: null,
    after: seq,
  });

describe('writers', () => {
  const events = [
    write(1, 1, 'a', 's'),
    write(2, 2, 'b', 's'),
    write(3, 2, 'k1', 't', '1'),
    ev(4, 'signal', { signal: 'step_end', scope: '', cleared: [{ container: 'm', slot: 'obs' }] }),
    write(5, 3, 'c', 's'),
    ev(6, 'signal', {
      signal: 'episode_done',
      scope: '',
      cleared: [{ container: 'm', slot: 't', key: '1' }],
    }),
  ];

  it('names the last writer of each slot and key at or before a step', () => {
    const h = foldWriters(events, 'r');
    const at = (step: number) =>
      Object.fromEntries(
        writersUpTo(h, step).map((w) => [`${w.slot}${w.key ?? ''}`, w.node_id ?? `signal ${w.signal}`]),
      );
    expect(at(1)).toEqual({ s: 'a' });
    expect(at(2)).toEqual({ s: 'b', t1: 'k1' });
    // step_end of step 2 counts from step 3 (the nav_step of step 2 still shows what it wrote).
    expect(at(3)).toEqual({ s: 'c', t1: 'signal episode_done', obs: 'signal step_end' });
  });

  it('forgets what a restore rewound', () => {
    const h = foldWriters(
      [...events, ev(7, 'restored', { step: 1, restored_to: 1 }), write(8, 2, 'again', 's')],
      'r',
    );
    expect(writersUpTo(h, 5).map((w) => [w.slot, w.node_id, w.step])).toEqual([['s', 'again', 2]]);
  });

  it('continues a fork from its parent history', () => {
    const parent = foldWriters(events.slice(0, 3), 'parent');
    const h = foldWriters(
      [ev(10, 'restored', { step: 2, restored_to: 2 }), write(11, 3, 'f', 't', '1')],
      'fork',
      parent,
    );
    const ws = writersUpTo(h, 3);
    expect(ws.find((w) => w.slot === 's')).toMatchObject({ node_id: 'b', run_id: 'parent' });
    expect(ws.find((w) => w.key === '1')).toMatchObject({ node_id: 'f', run_id: 'fork' });
  });
});
