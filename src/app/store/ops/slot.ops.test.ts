import { describe, expect, it } from 'vitest';
import type { ContainerDef } from '../../../domain/graph/graph.schema.ts';
import {
  addSlot,
  defaultSlot,
  moveSlot,
  parseInitialValue,
  removeSlot,
  renameSlot,
  setSlotConfig,
  slotNameProblem,
  updateSlot,
} from './slot.ops.ts';

const c: ContainerDef = {
  id: 'mem',
  label: 'M',
  position: { x: 0, y: 0 },
  states: { a: defaultSlot(), b: defaultSlot('counter') },
};
const ok = (r: ContainerDef | string): ContainerDef => {
  if (typeof r === 'string') throw new Error(r);
  return r;
};

describe('slot ops', () => {
  it('validates names: unique, not reserved, no spaces', () => {
    expect(slotNameProblem('a', ['a'])).toMatch(/already exists/);
    expect(slotNameProblem('__x', [])).toMatch(/reserved/);
    expect(slotNameProblem('has space', [])).toMatch(/spaces/);
    expect(slotNameProblem('', [])).toMatch(/empty/);
    expect(slotNameProblem('notes', ['a'])).toBeNull();
    expect(addSlot(c, '__secret')).toMatch(/reserved/);
  });

  it('adds, renames (keeping order), reorders and removes', () => {
    const added = ok(addSlot(c, 'z'));
    expect(Object.keys(added.states)).toEqual(['a', 'b', 'z']);
    expect(Object.keys(ok(renameSlot(added, 'a', 'first')).states)).toEqual(['first', 'b', 'z']);
    expect(renameSlot(added, 'a', 'b')).toMatch(/already exists/);
    expect(Object.keys(ok(moveSlot(added, 'z', -1)).states)).toEqual(['a', 'z', 'b']);
    expect(moveSlot(added, 'a', -1)).toBe('already at the edge');
    expect(Object.keys(ok(removeSlot(added, 'b')).states)).toEqual(['a', 'z']);
  });

  it('refuses removed value types with the reason, accepts registry types', () => {
    expect(updateSlot(c, 'a', { value_type: 'IMAGE' })).toMatch(/raw wire payload/);
    expect(ok(updateSlot(c, 'a', { value_type: 'TEXT' })).states.a!.value_type).toBe('TEXT');
  });

  it('refuses an unknown or empty value type as an edit (a loaded unknown one may stay)', () => {
    expect(updateSlot(c, 'a', { value_type: 'FOO' })).toMatch(/^unknown value type 'FOO'; use one of TEXT/);
    expect(updateSlot(c, 'a', { value_type: '' })).toMatch(/must not be empty/);
    const loaded = { ...c, states: { ...c.states, a: { ...c.states.a!, value_type: 'INT' } } };
    expect(ok(updateSlot(loaded, 'a', { value_type: 'INT', lifetime: 'run' })).states.a!.lifetime).toBe(
      'run',
    );
  });

  it('edits config: initial_value any JSON, max_size positive integer', () => {
    expect(ok(setSlotConfig(c, 'a', 'initial_value', false)).states.a!.config.initial_value).toBe(false);
    expect(setSlotConfig(c, 'a', 'max_size', 0)).toMatch(/positive/);
    expect(ok(setSlotConfig(c, 'a', 'max_size', 5)).states.a!.config.max_size).toBe(5);
    expect(
      'max_size' in
        ok(setSlotConfig(ok(setSlotConfig(c, 'a', 'max_size', 5)), 'a', 'max_size', undefined)).states.a!
          .config,
    ).toBe(false);
  });

  it('parses the initial_value editor text', () => {
    expect(parseInitialValue('{"k": [1]}')).toEqual({ ok: true, value: { k: [1] } });
    expect(parseInitialValue('')).toEqual({ ok: true, value: undefined });
    expect(parseInitialValue('{oops').ok).toBe(false);
  });
});
