import { describe, expect, it } from 'vitest';
import {
  canonicalWireBase,
  formatWireType,
  isKnownWireType,
  parseWireType,
  wireColor,
  wireCompatibility,
  WIRE_COLORS,
} from './wireTypes.ts';

describe('parseWireType', () => {
  it('parses plain and LIST types, canonicalising ACTION', () => {
    expect(parseWireType('TEXT')).toEqual({ base: 'TEXT', list: false });
    expect(parseWireType(' list[ text ] ')).toEqual({ base: 'TEXT', list: true });
    expect(parseWireType('ACTION')).toEqual({ base: 'DISCRETE_ACTION', list: false });
    expect(parseWireType('LIST[ACTION]')).toEqual({ base: 'DISCRETE_ACTION', list: true });
    expect(parseWireType('')).toBeNull();
    expect(parseWireType(undefined)).toBeNull();
    expect(canonicalWireBase('IMAGE')).toBe('IMAGE');
    expect(formatWireType({ base: 'POSE', list: true })).toBe('LIST[POSE]');
  });

  it('knows the reference types, deprecated ones and ours', () => {
    for (const t of [
      'IMAGE',
      'DEPTH',
      'POSE',
      'DISCRETE_ACTION',
      'CONTROL',
      'TEXT',
      'BOOL',
      'METRICS',
      'ANY',
      'ACTION',
      'OBSERVATION',
      'STEP_RESULT',
      'OCCUPANCY_MAP',
      'LIST[IMAGE]',
    ]) {
      expect(isKnownWireType(t), t).toBe(true);
    }
    expect(isKnownWireType('VIDEO')).toBe(false);
  });
});

describe('wireCompatibility (docs/reference-system.md §1.11)', () => {
  it.each([
    [undefined, 'TEXT'],
    ['TEXT', ''],
    ['MYSTERY', 'TEXT'],
    ['TEXT', 'ANY'],
    ['ANY', 'BOOL'],
    ['TEXT', 'TEXT'],
    ['ACTION', 'DISCRETE_ACTION'],
    ['LIST[TEXT]', 'LIST[TEXT]'],
    ['LIST[TEXT]', 'LIST[ANY]'],
  ])('%s → %s is allowed', (s, t) => {
    expect(wireCompatibility(s, t)).toEqual({ ok: true });
  });

  it('T → LIST[T] is allowed and marked as wrapping', () => {
    expect(wireCompatibility('IMAGE', 'LIST[IMAGE]')).toEqual({ ok: true, wraps: true });
  });

  it('LIST[T] → T is rejected as lossy', () => {
    expect(wireCompatibility('LIST[TEXT]', 'TEXT')).toEqual({
      ok: false,
      kind: 'lossy',
      reason: 'LIST[TEXT] → TEXT loses items',
    });
  });

  it('other pairs are a mismatch', () => {
    expect(wireCompatibility('TEXT', 'BOOL')).toMatchObject({ ok: false, kind: 'mismatch' });
    expect(wireCompatibility('LIST[TEXT]', 'LIST[BOOL]')).toMatchObject({ ok: false, kind: 'mismatch' });
    expect(wireCompatibility('TEXT', 'LIST[BOOL]')).toMatchObject({ ok: false, kind: 'mismatch' });
  });
});

describe('wireColor', () => {
  it('colours by base type and falls back to ANY', () => {
    expect(wireColor('LIST[TEXT]')).toBe(WIRE_COLORS.TEXT);
    expect(wireColor('ACTION')).toBe(WIRE_COLORS.DISCRETE_ACTION);
    expect(wireColor('VIDEO')).toBe(WIRE_COLORS.ANY);
    expect(wireColor(null)).toBe(WIRE_COLORS.ANY);
  });
});
