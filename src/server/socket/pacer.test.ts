import { describe, expect, it } from 'vitest';
import { Pacer, type TurnResult } from './pacer.ts';

/** A pacer on a fake clock: each turn advances it by `turnMs`, and its nextTick work by `flushMs`. */
function fakePacer(results: TurnResult[], turnMs: number, flushMs: number, share: number) {
  let clock = 0;
  const starts: number[] = [];
  const pacer = new Pacer(
    () => {
      starts.push(clock);
      clock += turnMs;
      // What socket writes do: queued in the turn, run on the next tick, before the pacer measures.
      process.nextTick(() => (clock += flushMs));
      return results.shift() ?? 'idle';
    },
    () => true,
    { sliceMs: 4, busyShare: share, idleShare: share, retryMs: 1 },
    () => clock,
  );
  return { pacer, starts, spent: () => pacer.spentMs };
}

describe('Pacer', () => {
  it('counts the writes a turn queued for the next tick in its duty cycle', async () => {
    const p = fakePacer(['more', 'idle'], 2, 8, 0.5);
    p.pacer.wake();
    await new Promise((r) => setTimeout(r, 50));
    // 2 ms of turn + 8 ms of flushing = 10 ms spent per turn, both turns measured.
    expect(p.spent()).toBe(20);
    expect(p.starts).toEqual([0, 10]);
  });

  it('a wake that arrives while a finished turn is being measured is not lost', async () => {
    let turns = 0;
    const pacer = new Pacer(
      () => {
        turns++;
        if (turns === 1) process.nextTick(() => pacer.wake()); // new work arrives during the settle
        return 'idle';
      },
      () => false,
      { sliceMs: 4, busyShare: 0.1, idleShare: 0.5, retryMs: 1 },
    );
    pacer.wake();
    await new Promise((r) => setTimeout(r, 30));
    expect(turns).toBe(2);
  });

  it('stop() during the settle cancels the next turn; a later wake() starts again', async () => {
    let turns = 0;
    const pacer = new Pacer(
      () => {
        turns++;
        if (turns === 1) process.nextTick(() => pacer.stop());
        return 'more';
      },
      () => false,
      { sliceMs: 4, busyShare: 0.1, idleShare: 0.5, retryMs: 1 },
    );
    pacer.wake();
    await new Promise((r) => setTimeout(r, 30));
    expect(turns).toBe(1);
    pacer.wake();
    await new Promise((r) => setTimeout(r, 5));
    pacer.stop();
    expect(turns).toBeGreaterThanOrEqual(2);
  });
});
