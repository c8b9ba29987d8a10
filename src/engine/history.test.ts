// The checkpoint history: steps by number, restore drops what follows, retention drops the oldest.
import { describe, expect, it } from 'vitest';
import { CheckpointHistory } from './history.ts';
import type { Checkpoint } from './run.api.ts';

const cp = (step: number): Checkpoint => ({ step, state: { v: step } });

describe('CheckpointHistory', () => {
  it('keeps every step in order and finds each by number', () => {
    const h = new CheckpointHistory();
    for (let s = 1; s <= 50; s++) h.set(s, cp(s));
    expect(h.size).toBe(50);
    expect(h.steps()).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(h.get(17)?.state).toEqual({ v: 17 });
    expect(h.get(0)).toBeUndefined();
    expect(h.get(51)).toBeUndefined();
  });

  it('a restore drops the steps after it, and the run goes on from there', () => {
    const h = new CheckpointHistory();
    for (let s = 1; s <= 10; s++) h.set(s, cp(s));
    h.dropAfter(4);
    h.set(4, cp(4));
    expect(h.steps()).toEqual([1, 2, 3, 4]);
    h.set(5, { step: 5, state: 'branch' });
    expect(h.get(5)?.state).toBe('branch');
    expect(h.size).toBe(5);
    h.dropAfter(0);
    expect(h.size).toBe(0);
    expect(h.steps()).toEqual([]);
  });

  it('checkpoints from elsewhere may start later, leave gaps or come before every kept step', () => {
    const h = new CheckpointHistory();
    h.set(100, cp(100));
    h.set(101, cp(101));
    h.set(200, cp(200));
    expect(h.steps()).toEqual([100, 101, 200]);
    expect(h.get(150)).toBeUndefined();
    h.set(7, cp(7));
    expect(h.steps()).toEqual([7, 100, 101, 200]);
    expect(h.get(101)?.state).toEqual({ v: 101 });
    expect(h.size).toBe(4);
  });

  it('retention keeps the newest steps only', () => {
    const h = new CheckpointHistory(3);
    for (let s = 1; s <= 20; s++) h.set(s, cp(s));
    expect(h.steps()).toEqual([18, 19, 20]);
    expect(h.get(17)).toBeUndefined();
    h.set(20, cp(20));
    expect(h.size).toBe(3);
  });
});
