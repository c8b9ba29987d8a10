import { describe, expect, it } from 'vitest';
import {
  checkEffect,
  compareSlot,
  evalCondition,
  evalCondition3,
  parseJsonPath,
  readSlotPath,
  RoutingEvalError,
  type ConditionEnv,
} from './routing.eval.ts';
import { conditionText, effectText, featuresText } from './routing.text.ts';
import type { Condition } from './routing.schema.ts';

const env = (features: ConditionEnv['features'], slots: Record<string, unknown> = {}): ConditionEnv => ({
  features,
  slot: (ref) => slots[ref],
});

describe('conditions', () => {
  const c: Condition = {
    all: [{ feature: 'phase', in: ['explore', 'exploit'] }, { not: { feature: 'armed', eq: true } }],
  };

  it('evaluates feature tests and combinators', () => {
    expect(evalCondition(c, env({ phase: 'explore', armed: false }))).toBe(true);
    expect(evalCondition(c, env({ phase: 'done', armed: false }))).toBe(false);
    expect(evalCondition(c, env({ phase: 'exploit', armed: true }))).toBe(false);
    expect(
      evalCondition(
        {
          any: [
            { feature: 'n', eq: 1 },
            { feature: 'n', eq: 2 },
          ],
        },
        env({ n: 2 }),
      ),
    ).toBe(true);
  });

  it('reading an unset feature is an error naming it; all/any short-circuit left to right', () => {
    expect(() => evalCondition(c, env({ phase: null, armed: false }))).toThrow(
      /feature 'phase', which is still unset/,
    );
    try {
      evalCondition({ feature: 'phase', eq: 'x' }, env({ phase: null }));
    } catch (e) {
      expect(e).toBeInstanceOf(RoutingEvalError);
      expect((e as RoutingEvalError).code).toBe('unset-feature');
    }
    // phase fails first, so armed (unset) is never read
    expect(evalCondition(c, env({ phase: 'done', armed: null }))).toBe(false);
    expect(() => evalCondition({ feature: 'nope', eq: 1 }, env({}))).toThrow(/undeclared feature 'nope'/);
  });

  it('compares slot values by JSON path', () => {
    const slots = { 'mem.stats': { x: 3, tags: ['a', 'b'], 'odd key': 'hello' } };
    const at = (path: string, op: '==' | '>=' | 'contains' | '<' | '!=', value: unknown) =>
      evalCondition({ slot: 'mem.stats', path, op, value }, env({}, slots));
    expect(at('$.x', '>=', 3)).toBe(true);
    expect(at('$.x', '<', 3)).toBe(false);
    expect(at('$.tags', 'contains', 'b')).toBe(true);
    expect(at('$.tags[1]', '==', 'b')).toBe(true);
    expect(at('$["odd key"]', 'contains', 'ell')).toBe(true);
    expect(at('$', 'contains', 'x')).toBe(true);
    expect(at('$.missing', '==', null)).toBe(true);
    expect(at('$.missing', '!=', 1)).toBe(true);
    expect(at('$.x', '<', 'z')).toBe(false); // number vs string: does not hold
  });

  it('parses JSON paths and refuses bad ones', () => {
    expect(parseJsonPath('$')).toEqual([]);
    expect(parseJsonPath('$.a[2]["b.c"]')).toEqual(['a', 2, 'b.c']);
    expect(parseJsonPath('$.a[x]')).toMatch(/neither an index nor a quoted key/);
    expect(parseJsonPath('a')).toMatch(/must start with \$/);
    expect(readSlotPath([1, 2], '$[5]')).toBeUndefined();
    expect(compareSlot('==', undefined, null)).toBe(true);
  });

  it('three-valued evaluation: slot comparisons are unknown, false wins in all, true in any', () => {
    const slot: Condition = { slot: 'm.s', path: '$', op: '==', value: 1 };
    expect(evalCondition3(slot, {})).toBe('unknown');
    expect(evalCondition3({ all: [slot, { feature: 'p', eq: 'a' }] }, { p: 'b' })).toBe(false);
    expect(evalCondition3({ all: [slot, { feature: 'p', eq: 'a' }] }, { p: 'a' })).toBe('unknown');
    expect(evalCondition3({ any: [slot, { feature: 'p', eq: 'a' }] }, { p: 'a' })).toBe(true);
    expect(evalCondition3({ not: slot }, {})).toBe('unknown');
  });

  it('renders conditions, effects and feature values as one line', () => {
    expect(conditionText(c)).toBe('(phase in [explore, exploit] and not armed == true)');
    expect(conditionText({ slot: 'mem.s', path: '$.x', op: '>=', value: 2 })).toBe('mem.s $.x >= 2');
    expect(effectText({ assign: { phase: 'exploit' }, allow: { n: [[0, 1]] } })).toBe(
      'assign phase=exploit; allow n 0→1',
    );
    expect(featuresText({ phase: 'explore', armed: null })).toBe('phase=explore, armed=unset');
  });
});

describe('effects', () => {
  const before = { phase: 'explore', n: null };

  it('no effect: nothing may change', () => {
    expect(checkEffect(undefined, before, {})).toEqual({ ok: true, after: before });
    expect(checkEffect(undefined, before, { phase: 'explore' }).ok).toBe(true); // unchanged proposal
    expect(checkEffect(undefined, before, { phase: 'done' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/explore → done, which the edge's effect does not allow/),
    });
  });

  it('assign sets the value; a different proposal is incompatible', () => {
    expect(checkEffect({ assign: { phase: 'exploit' } }, before, {})).toEqual({
      ok: true,
      after: { phase: 'exploit', n: null },
    });
    expect(checkEffect({ assign: { n: 1 } }, before, { n: 1 }).ok).toBe(true);
    expect(checkEffect({ assign: { phase: 'exploit' } }, before, { phase: 'done' })).toMatchObject({
      ok: false,
      reason: 'proposes phase=done but the edge assigns phase=exploit',
    });
  });

  it('allow checks transitions; it cannot give a first value', () => {
    const allow = {
      allow: { phase: [['explore', 'exploit']] as [string, string][], n: [[0, 1]] as [number, number][] },
    };
    expect(checkEffect(allow, before, { phase: 'exploit' })).toEqual({
      ok: true,
      after: { phase: 'exploit', n: null },
    });
    expect(checkEffect(allow, before, { phase: 'done' }).ok).toBe(false);
    expect(checkEffect(allow, before, { n: 1 })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/while n is unset: a first value needs an assign or unconstrained/),
    });
  });

  it('unconstrained accepts any proposal', () => {
    expect(checkEffect('unconstrained', before, { n: 7, phase: 'done' })).toEqual({
      ok: true,
      after: { phase: 'done', n: 7 },
    });
  });
});
