import { describe, expect, it } from 'vitest';
import { resetSignals } from '../domain/state/lifetimes.ts';
import type { StateContainer } from './container.ts';
import { buildContainer, buildContainers } from './containers.build.ts';
import { BuildError } from './errors.ts';
import { snapshotContainer } from './snapshot.ts';
import { container, slot } from './testkit.ts';

const mem = () =>
  buildContainer(
    container('mem', {
      acc: slot('accumulator', { config: { max_size: 3 } }),
      per_step: slot('lastWrite', { lifetime: 'step' }),
      ep: slot('accumulator', { lifetime: 'episode' }),
      cnt: slot('counter'),
      seeded: slot('accumulator', { config: { initial_value: ['seed'] } }),
      custom: slot('lastWrite', { lifetime: 'custom', reset_on: ['my_signal'] }),
    }),
  );

describe('StateContainer', () => {
  it('applies reducers per slot', () => {
    const c = mem();
    for (const x of [0, 1, 2, 3, 4]) c.write('acc', x);
    c.write('cnt', 2);
    c.write('cnt', 3);
    expect(c.read('acc')).toEqual([2, 3, 4]);
    expect(c.read('cnt')).toBe(5);
  });

  it('clear restores the initial value as an isolated copy, every time', () => {
    const c = mem();
    c.write('seeded', 'x');
    c.clear();
    const first = c.read('seeded');
    c.write('seeded', 'y');
    c.clear();
    const second = c.read('seeded');
    expect(first).toEqual(['seed']);
    expect(second).toEqual(['seed']);
    expect(second).not.toBe(first);
  });

  it('lifetimes expand to their signals', () => {
    expect(resetSignals({ lifetime: 'forever', reset_on: [] })).toEqual([]);
    expect(resetSignals({ lifetime: 'step', reset_on: [] })).toEqual(['step_end']);
    expect(resetSignals({ lifetime: 'episode', reset_on: [] })).toEqual(['episode_reset']);
    expect(resetSignals({ lifetime: 'run', reset_on: [] })).toEqual(['run_end']);
    expect(resetSignals({ lifetime: 'custom', reset_on: ['a', 'b'] })).toEqual(['a', 'b']);
    expect(resetSignals({ lifetime: 'weird', reset_on: ['a'] })).toEqual([]);
    expect(resetSignals({ lifetime: 'episode', reset_on: ['a'] })).toEqual(['episode_reset']);
  });

  it('on_signal clears only subscribed slots and reports what it cleared', () => {
    const c = mem();
    c.write('per_step', 'p');
    c.write('ep', 'e');
    c.write('cnt', 1);
    c.write('custom', 'z');
    expect(c.onSignal('step_end')).toEqual([{ container: 'mem', slot: 'per_step' }]);
    expect(c.read('per_step')).toBeNull();
    expect(c.read('ep')).toEqual(['e']);
    expect(c.onSignal('episode_reset')).toEqual([{ container: 'mem', slot: 'ep' }]);
    expect(c.read('ep')).toEqual([]);
    c.onSignal('my_signal');
    expect(c.read('custom')).toBeNull();
    expect(c.read('cnt')).toBe(1);
  });

  it('step signals clear only the container of their scope', () => {
    const inner = buildContainer(container('inner', { s: slot('lastWrite', { lifetime: 'step' }) }), {
      scopeOf: () => 'loop_b',
    });
    inner.write('s', 1);
    expect(inner.onSignal('step_end', 'loop_a')).toEqual([]);
    expect(inner.read('s')).toBe(1);
    expect(inner.onSignal('step_end', 'loop_b')).toEqual([{ container: 'inner', slot: 's' }]);
    // Unscoped signals (episode_reset, custom) are not filtered by scope.
    const c = buildContainer(container('c', { e: slot('lastWrite', { lifetime: 'episode' }) }), {
      scopeOf: () => 'loop_b',
    });
    c.write('e', 1);
    expect(c.onSignal('episode_reset', 'loop_a')).toHaveLength(1);
  });

  it('undeclared slots fail naming container, slot and the declared slots', () => {
    const c = buildContainer(container('mem', { a: slot('lastWrite'), b: slot('counter') }));
    expect(() => c.write('nope', 1)).toThrow(
      "container 'mem': write of undeclared slot 'nope' (declared slots: a, b)",
    );
    expect(() => c.read('nope')).toThrow(/read of undeclared slot 'nope' \(declared slots: a, b\)/);
  });

  it('keyed partitions are isolated and lazily cloned; the template is unaffected', () => {
    const c = mem();
    c.write('ep', 'a', 'ep1');
    c.write('ep', 'b', 'ep2');
    c.write('ep', 'c', 'ep1');
    expect(c.read('ep', 'ep1')).toEqual(['a', 'c']);
    expect(c.read('ep', 'ep2')).toEqual(['b']);
    expect(c.read('ep')).toEqual([]);
  });

  it('keyed read of an unknown key is a fresh initial value that cannot leak', () => {
    const c = mem();
    const v = c.read('seeded', 'nobody') as string[];
    expect(v).toEqual(['seed']);
    expect(() => v.push('leak')).toThrow(TypeError);
    expect(c.read('seeded', 'nobody')).toEqual(['seed']);
    expect(c.state.keyed.seeded).toBeUndefined();
  });

  it('initial values are never aliased between keys', () => {
    const c = buildContainer(
      container('m', { obj: slot('lastWrite', { config: { initial_value: { list: [1] } } }) }),
    );
    c.write('obj', { list: [2] }, 'a');
    expect(c.read('obj', 'b')).toEqual({ list: [1] });
    expect(c.read('obj', 'b')).not.toBe(c.read('obj', 'c'));
    expect(c.read('obj')).not.toBe(c.read('obj', 'b'));
  });

  it('evict drops one key and leaves its sibling', () => {
    const c = mem();
    c.write('ep', 1, 'k1');
    c.write('cnt', 5, 'k1');
    c.write('ep', 2, 'k2');
    expect(c.evict('k1')).toEqual([
      { container: 'mem', slot: 'ep', key: 'k1' },
      { container: 'mem', slot: 'cnt', key: 'k1' },
    ]);
    expect(c.read('ep', 'k1')).toEqual([]);
    expect(c.read('ep', 'k2')).toEqual([2]);
  });

  it('signals fan out to keyed partitions', () => {
    const c = mem();
    c.write('ep', 'x', 'ep1');
    const cleared = c.onSignal('episode_reset');
    expect(cleared).toContainEqual({ container: 'mem', slot: 'ep', key: 'ep1' });
    expect(c.read('ep', 'ep1')).toEqual([]);
  });

  it('checkpoint round-trip into a fresh container reproduces plain and keyed values', () => {
    const c = mem();
    c.write('acc', 1);
    c.write('cnt', 7);
    c.write('ep', 'k', 'ep1');
    const cp = JSON.parse(JSON.stringify(c.checkpoint())) as ReturnType<StateContainer['checkpoint']>;
    const fresh = mem();
    fresh.restore(cp);
    expect(fresh.read('acc')).toEqual([1]);
    expect(fresh.read('cnt')).toBe(7);
    expect(fresh.read('ep', 'ep1')).toEqual(['k']);
    expect(fresh.read('ep')).toEqual([]);
  });

  it('a checkpoint shares unchanged slot values by reference', () => {
    const c = mem();
    c.write('acc', { big: 'value' });
    const before = c.checkpoint();
    c.write('cnt', 1);
    const after = c.checkpoint();
    expect(after.values.acc).toBe(before.values.acc);
    expect(after.values.cnt).not.toBe(before.values.cnt);
  });

  it('a removed value type fails the build naming container and slot', () => {
    const def = container('mem', { frames: slot('lastWrite', { value_type: 'IMAGE' }) });
    expect(() => buildContainer(def)).toThrow(BuildError);
    expect(() => buildContainer(def)).toThrow(
      /container 'mem' slot 'frames': value_type 'IMAGE'.*raw wire payloads/,
    );
    expect(() => buildContainer(def, { allowOpaque: true })).not.toThrow();
  });

  it('unknown reducers warn and act as lastWrite; unknown value types warn', () => {
    const warnings: string[] = [];
    const c = buildContainer(
      container('m', { e: slot('ephemeral', { value_type: 'WIDGET' }) }),
      {},
      warnings,
    );
    c.write('e', 1);
    c.write('e', 2);
    expect(c.read('e')).toBe(2);
    expect(warnings.join('\n')).toMatch(/Unknown state type 'ephemeral' for 'e'.*falling back to lastWrite/);
    expect(warnings.join('\n')).toMatch(/unknown value_type 'WIDGET'/);
  });

  it('config flows through: max_size and initial_value', () => {
    const c = buildContainer(
      container('m', {
        a: slot('accumulator', { config: { max_size: 2 } }),
        n: slot('counter', { config: { initial_value: 10 } }),
      }),
    );
    for (const x of [1, 2, 3]) c.write('a', x);
    c.write('n', 1);
    expect(c.read('a')).toEqual([2, 3]);
    expect(c.read('n')).toBe(11);
  });

  it('builds every container of a graph keyed by id', () => {
    const { containers } = buildContainers([
      container('a', {}),
      container('graph_state', { x: slot('lastWrite') }),
    ]);
    expect([...containers.keys()]).toEqual(['a', 'graph_state']);
  });

  it('a failing reducer update names container and slot', () => {
    const c = buildContainer(
      container('m', { stats: slot('byKey', { config: { fields: { a: 'counter' } } }) }),
    );
    expect(() => c.write('stats', { b: 1 })).toThrow(
      "container 'm' slot 'stats': byKey: write to undeclared field 'b' (declared fields: a)",
    );
  });

  it('snapshots use the preview shape plus lifetime and the full value', () => {
    const c = mem();
    c.write('acc', 1);
    c.write('acc', 2);
    c.write('ep', [1, 2, 3], 'ep1');
    const s = snapshotContainer(c);
    expect(s.owner).toBe('home');
    expect(s.states.acc).toEqual({
      type: 'accumulator',
      value_type: 'ANY',
      lifetime: 'forever',
      value: [1, 2],
      size: 2,
      preview: '[1, 2]',
    });
    expect(s.states.per_step).toMatchObject({ lifetime: 'step', value: null, preview: 'null' });
    expect(s.states.cnt).toMatchObject({ value: 0 });
    expect(s.states.ep).toMatchObject({
      keys: 1,
      size: 1,
      preview: '[ep1] [[1,2,3]]',
      keyed: { ep1: [[1, 2, 3]] },
    });
  });
});

describe('opaque values', () => {
  it('a value JSON cannot carry (a function) does not break checkpoints; JSON drops it', () => {
    const c = buildContainer(container('m', { f: slot('lastWrite'), n: slot('counter') }));
    c.write('f', () => 1);
    c.write('n', 2);
    const cp = c.checkpoint();
    const json = JSON.parse(JSON.stringify(cp)) as { values: Record<string, unknown> };
    expect(json.values).toEqual({ n: 2 });
    const fresh = buildContainer(container('m', { f: slot('lastWrite'), n: slot('counter') }));
    fresh.restore(json as never);
    expect(fresh.read('f')).toBeNull();
    expect(fresh.read('n')).toBe(2);
  });
});
