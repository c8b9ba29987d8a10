// The server-wide ceiling on episode processes: slots granted first come, first served; a request
// that waits is granted when one is released; an owner's waiting requests can be dropped.
import { describe, expect, it } from 'vitest';
import { WorkerSlots } from './workerSlots.ts';

describe('WorkerSlots', () => {
  it('grants up to max at once, then queues requests in order and hands each released slot on', () => {
    const slots = new WorkerSlots(2);
    const granted: string[] = [];
    for (const who of ['a1', 'a2', 'a3', 'b1', 'b2']) slots.request(who[0]!, () => granted.push(who));
    expect(granted).toEqual(['a1', 'a2']);
    expect(slots.inUse).toBe(2);
    expect(slots.waitingFor('a')).toBe(1);
    expect(slots.waitingFor('b')).toBe(2);
    slots.release();
    expect(granted).toEqual(['a1', 'a2', 'a3']);
    expect(slots.inUse).toBe(2);
    // a's queue ran empty: it needs no more; b is next in line.
    expect(slots.cancel('a')).toBe(0);
    slots.release();
    slots.release();
    expect(granted).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
    slots.release();
    slots.release();
    expect(slots.inUse).toBe(0);
  });

  it('drops a cancelled owner’s waiting requests; a grant not needed is released to the next', () => {
    const slots = new WorkerSlots(1);
    const granted: string[] = [];
    slots.request('a', () => granted.push('a'));
    slots.request('b', () => granted.push('b'));
    slots.request('b', () => granted.push('b again'));
    slots.request('c', () => {
      granted.push('c (not needed)');
      slots.release();
    });
    slots.request('d', () => granted.push('d'));
    expect(slots.cancel('b')).toBe(2);
    slots.release();
    expect(granted).toEqual(['a', 'c (not needed)', 'd']);
    expect(slots.inUse).toBe(1);
  });

  it('a released slot goes to the longest-waiting request, not to a newcomer', () => {
    const slots = new WorkerSlots(1);
    const granted: string[] = [];
    slots.request('a', () => granted.push('a'));
    slots.request('b', () => granted.push('b'));
    slots.release(); // b gets it
    slots.request('c', () => granted.push('c'));
    expect(granted).toEqual(['a', 'b']);
    expect(() => new WorkerSlots(0)).toThrow('max workers');
  });
});
