// nav_step snapshots are reused while a slot does not change: the same frozen object, so the run
// log's identity memo skips re-encoding it. Reuse must never show a stale value.
import { describe, expect, it } from 'vitest';
import { buildContainer } from './containers.build.ts';
import { snapshotContainer } from './snapshot.ts';
import { container, slot } from './testkit.ts';

const box = () =>
  buildContainer(
    container('box', {
      acc: slot('accumulator'),
      cnt: slot('counter'),
      ep: slot('accumulator', { lifetime: 'episode' }),
    }),
  );

describe('snapshotContainer reuse', () => {
  it('gives the same frozen snapshot while nothing changed, and a new one for the slot that did', () => {
    const c = box();
    c.write('acc', 'a');
    const first = snapshotContainer(c);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.states.acc)).toBe(true);
    expect(snapshotContainer(c)).toBe(first);

    c.write('cnt', 2);
    const second = snapshotContainer(c);
    expect(second).not.toBe(first);
    expect(second.states.acc).toBe(first.states.acc); // unchanged slot: same object
    expect(second.states.cnt).not.toBe(first.states.cnt);
    expect(second.states.cnt).toMatchObject({ value: 2 });
    expect(first.states.cnt).toMatchObject({ value: 0 }); // the earlier snapshot is untouched
  });

  it('follows keyed partitions and older states passed in explicitly', () => {
    const c = box();
    const before = c.state;
    c.write('ep', 1, 'k1');
    const withKey = snapshotContainer(c);
    expect(withKey.states.ep).toMatchObject({ keys: 1, keyed: { k1: [1] } });
    c.write('ep', 2, 'k1');
    expect(snapshotContainer(c).states.ep).toMatchObject({ keys: 1, keyed: { k1: [1, 2] } });
    // A snapshot of an earlier state (the executor snapshots `before` step_end) shows that state.
    const old = snapshotContainer(c, before);
    expect(old.states.ep).not.toHaveProperty('keyed');
    expect(snapshotContainer(c).states.ep).toMatchObject({ keyed: { k1: [1, 2] } });
  });

  it('shows the same content a fresh container with the same writes shows', () => {
    const a = box();
    const b = box();
    for (const x of [1, 2, 3]) {
      a.write('acc', x);
      snapshotContainer(a); // memo warmed at every step on one side only
    }
    for (const x of [1, 2, 3]) b.write('acc', x);
    expect(snapshotContainer(a)).toEqual(snapshotContainer(b));
  });
});
