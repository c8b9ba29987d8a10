// The run writer's discipline: consecutive seqs, commit before publish, a step's events with its
// checkpoint, staged steps together, and a refused commit that gives its seqs back.
import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { RunWriter, type WriterBatch } from './runWriter.ts';

const cp = (step: number) => ({ step, state: { step } }) as never;

describe('RunWriter', () => {
  it('publishes only what committed, staged steps first, each with its checkpoint', () => {
    const seen: EventEnvelope[][] = [];
    const w = new RunWriter(
      'r1',
      () => 0,
      4,
      (e) => seen.push([...e]),
    );
    const written: WriterBatch[] = [];
    w.stamp('signal', { a: 1 });
    w.stage(cp(1));
    w.stamp('signal', { a: 2 });
    expect(seen).toEqual([]);
    w.commit((b) => written.push(b), cp(2));
    expect(written[0]!.earlier.map((p) => [p.events.map((e) => e.seq), p.checkpoint?.step])).toEqual([
      [[5], 1],
    ]);
    expect(written[0]!.events.map((e) => e.seq)).toEqual([6]);
    expect(written[0]!.checkpoint?.step).toBe(2);
    expect(seen.map((b) => b.map((e) => e.seq))).toEqual([[5, 6]]);
    expect(seen[0]![0]).toMatchObject({ type: 'signal', runId: 'r1', ts: '1970-01-01T00:00:00.000Z' });
  });

  it('a refused commit publishes nothing and the next event reuses its seqs', () => {
    const seen: number[] = [];
    const w = new RunWriter(
      'r2',
      () => 0,
      0,
      (e) => seen.push(...e.map((x) => x.seq)),
    );
    w.stamp('signal', {});
    w.stamp('signal', {});
    expect(() =>
      w.commit(() => {
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    expect(w.seq).toBe(0);
    w.stamp('signal', {});
    w.commit(() => undefined);
    expect(seen).toEqual([1]);
  });

  it('asynchronous commits reach the log in order and publish after each write', async () => {
    const order: string[] = [];
    const w = new RunWriter(
      'r3',
      () => 0,
      0,
      (e) => order.push(`publish ${e.map((x) => x.seq)}`),
    );
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    w.stamp('signal', {});
    await w.commitAsync(
      async (b) => {
        order.push(`write ${b.events.map((e) => e.seq)}`);
        await slow;
      },
      undefined,
      false,
    );
    w.stamp('signal', {});
    const second = w.commitAsync(async (b) => void order.push(`write ${b.events.map((e) => e.seq)}`));
    expect(order).toEqual(['write 1']);
    release();
    await second;
    expect(order).toEqual(['write 1', 'publish 1', 'write 2', 'publish 2']);
  });
});
