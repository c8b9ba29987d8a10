import { describe, expect, it } from 'vitest';
import { chipText, clip, conditionText, domainText, effectText, valueText } from './conditionText.ts';

describe('condition chip text', () => {
  it('feature sets, single values and eq read as math', () => {
    expect(conditionText({ feature: 'phase', in: ['explore', 'return'] })).toBe('phase ∈ {explore, return}');
    expect(conditionText({ feature: 'phase', in: ['done'] })).toBe('phase = done');
    expect(conditionText({ feature: 'armed', eq: true })).toBe('armed = true');
    expect(conditionText({ feature: 'n', in: [1, 2] })).toBe('n ∈ {1, 2}');
  });

  it('combinators join their parts; nested ones get parentheses; not negates compactly', () => {
    expect(
      conditionText({
        all: [
          { feature: 'phase', eq: 'explore' },
          {
            any: [
              { feature: 'n', in: [0] },
              { feature: 'armed', eq: false },
            ],
          },
        ],
      }),
    ).toBe('phase = explore ∧ (n = 0 ∨ armed = false)');
    expect(conditionText({ not: { feature: 'phase', in: ['done'] } })).toBe('phase ∉ {done}');
    expect(conditionText({ not: { feature: 'phase', eq: 'done' } })).toBe('phase ≠ done');
    expect(
      conditionText({
        not: {
          all: [
            { feature: 'a', eq: 1 },
            { feature: 'b', eq: 2 },
          ],
        },
      }),
    ).toBe('¬(a = 1 ∧ b = 2)');
  });

  it('slot comparisons show slot, path and operator', () => {
    expect(conditionText({ slot: 'mem.score', path: '$', op: '>=', value: 3 })).toBe('mem.score ≥ 3');
    expect(conditionText({ slot: 'mem.obs', path: '$.goal', op: '==', value: 'reached' })).toBe(
      'mem.obs.goal = reached',
    );
    expect(conditionText({ slot: 'mem.log', path: '$[0]', op: 'contains', value: 'hi there' })).toBe(
      'mem.log[0] contains "hi there"',
    );
  });

  it('values: bare words unquoted, others as JSON', () => {
    expect(valueText('explore')).toBe('explore');
    expect(valueText('two words')).toBe('"two words"');
    expect(valueText(null)).toBe('null');
    expect(valueText({ a: 1 })).toBe('{"a":1}');
  });

  it('domains', () => {
    expect(domainText('bool')).toBe('bool');
    expect(domainText({ enum: ['explore', 'exploit'] })).toBe('{explore, exploit}');
    expect(domainText({ int: [0, 9] })).toBe('0…9');
  });

  it('effects', () => {
    expect(effectText(undefined)).toBe('');
    expect(effectText('unconstrained')).toBe('any change');
    expect(effectText({ assign: { phase: 'exploit' } })).toBe('phase := exploit');
    expect(
      effectText({
        allow: {
          phase: [
            ['explore', 'exploit'],
            ['exploit', 'done'],
          ],
        },
      }),
    ).toBe('phase: explore→exploit | exploit→done');
  });

  it('chip: nothing for a plain edge, condition (and effect) clipped, full text for the tooltip', () => {
    expect(chipText({})).toBeNull();
    expect(chipText({ effect: { assign: { phase: 'explore' } } })).toEqual({
      short: '⇒ phase := explore',
      full: 'always  ⇒  phase := explore',
    });
    const long = chipText(
      { condition: { feature: 'phase', in: ['explore', 'exploit', 'done', 'return', 'wait'] } },
      20,
    )!;
    expect(long.short).toHaveLength(20);
    expect(long.short.endsWith('…')).toBe(true);
    expect(long.full).toBe('phase ∈ {explore, exploit, done, return, wait}');
    expect(clip('abc', 3)).toBe('abc');
  });
});
