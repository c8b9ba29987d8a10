import { describe, expect, it } from 'vitest';
import type { Condition, Effect, FeatureDef } from '../../domain/routing/routing.schema.ts';
import {
  conditionFromForm,
  conditionToForm,
  defaultLeaf,
  effectFromForm,
  effectToForm,
  parseSlotValue,
  routeFromJson,
  routeToJson,
  slotValueText,
} from './conditionForm.ts';
import { changeKind } from './ConditionEditor.tsx';

const PHASE: FeatureDef = { name: 'phase', domain: { enum: ['explore', 'exploit', 'done'] } };

const CONDITIONS: Condition[] = [
  { feature: 'phase', in: ['explore', 'exploit'] },
  { feature: 'armed', eq: true },
  {
    all: [{ feature: 'phase', in: ['done'] }, { not: { slot: 'mem.score', path: '$.x', op: '>', value: 2 } }],
  },
  {
    any: [
      { slot: 'mem.label', path: '$', op: '==', value: 'go' },
      { slot: 'mem.label', path: '$', op: '==', value: '3' },
    ],
  },
];

describe('condition form ↔ condition', () => {
  it.each(CONDITIONS)('round-trips %j', (c) => {
    const back = conditionFromForm(conditionToForm(c));
    expect(back).toEqual({ ok: true, value: c });
  });

  it('a draft that is no condition yet says what is missing', () => {
    expect(conditionFromForm({ kind: 'feature', feature: 'phase', values: [] })).toEqual({
      ok: false,
      error: 'pick at least one value of phase',
    });
    expect(conditionFromForm({ kind: 'feature', feature: '', values: ['x'] }).ok).toBe(false);
    expect(conditionFromForm({ kind: 'all', children: [] })).toEqual({
      ok: false,
      error: "'all' needs at least one condition",
    });
    expect(conditionFromForm({ kind: 'slot', slot: 'nodot', path: '$', op: '==', valueText: '1' }).ok).toBe(
      false,
    );
    expect(conditionFromForm({ kind: 'slot', slot: 'a.b', path: 'x', op: '==', valueText: '1' }).ok).toBe(
      false,
    );
    // An inner problem surfaces through the combinators.
    const nested = conditionFromForm({ kind: 'not', child: { kind: 'any', children: [] } });
    expect(nested).toEqual({ ok: false, error: "'any' needs at least one condition" });
  });

  it('eq stays eq with one value, becomes in with more', () => {
    const f = conditionToForm({ feature: 'phase', eq: 'done' });
    expect(f).toEqual({ kind: 'feature', feature: 'phase', values: ['done'], eq: true });
    if (f.kind !== 'feature') throw new Error('feature');
    expect(conditionFromForm({ ...f, values: ['explore', 'done'] })).toEqual({
      ok: true,
      value: { feature: 'phase', in: ['explore', 'done'] },
    });
  });

  it('slot values: JSON when it parses, else the text as a string; strings that look like JSON stay quoted', () => {
    expect(parseSlotValue('3')).toBe(3);
    expect(parseSlotValue('{"a": 1}')).toEqual({ a: 1 });
    expect(parseSlotValue('reached')).toBe('reached');
    expect(slotValueText('reached')).toBe('reached');
    expect(slotValueText('3')).toBe('"3"');
    expect(parseSlotValue(slotValueText('3'))).toBe('3');
    expect(slotValueText(null)).toBe('null');
  });

  it('a new leaf is the first feature with its first value (valid at once), or a slot comparison', () => {
    const leaf = defaultLeaf([PHASE]);
    expect(conditionFromForm(leaf)).toEqual({ ok: true, value: { feature: 'phase', in: ['explore'] } });
    expect(defaultLeaf([]).kind).toBe('slot');
  });

  it('changing a row kind wraps into a combinator and unwraps back', () => {
    const leaf = conditionToForm({ feature: 'phase', in: ['done'] });
    const all = changeKind(leaf, 'all', [PHASE]);
    expect(all).toEqual({ kind: 'all', children: [leaf] });
    expect(changeKind(all, 'any', [PHASE])).toEqual({ kind: 'any', children: [leaf] });
    expect(changeKind(changeKind(leaf, 'not', [PHASE]), 'feature', [PHASE])).toBe(leaf);
  });
});

describe('effect form ↔ effect', () => {
  const EFFECTS: (Effect | undefined)[] = [
    undefined,
    'unconstrained',
    { assign: { phase: 'exploit' } },
    {
      allow: {
        phase: [
          ['explore', 'exploit'],
          ['exploit', 'done'],
        ],
      },
    },
    { assign: { armed: true }, allow: { phase: [['explore', 'done']] } },
  ];
  it.each(EFFECTS)('round-trips %j', (e) => {
    expect(effectFromForm(effectToForm(e))).toEqual({ ok: true, value: e });
  });

  it('incomplete rules are refused with a reason', () => {
    expect(effectFromForm({ mode: 'rules', rules: [] }).ok).toBe(false);
    expect(
      effectFromForm({ mode: 'rules', rules: [{ kind: 'assign', feature: 'phase', value: undefined }] }),
    ).toEqual({
      ok: false,
      error: 'pick the value assigned to phase',
    });
    expect(
      effectFromForm({
        mode: 'rules',
        rules: [
          { kind: 'assign', feature: 'phase', value: 'done' },
          { kind: 'assign', feature: 'phase', value: 'explore' },
        ],
      }),
    ).toEqual({ ok: false, error: 'phase is assigned twice' });
    expect(
      effectFromForm({
        mode: 'rules',
        rules: [{ kind: 'allow', feature: 'phase', from: 'done', to: undefined }],
      }).ok,
    ).toBe(false);
  });
});

describe('raw JSON of an edge route', () => {
  it('shows the canonical {condition, effect} and reads it back', () => {
    const route = { condition: CONDITIONS[2]!, effect: { assign: { phase: 'done' } } };
    const text = routeToJson(route);
    expect(JSON.parse(text)).toEqual(route);
    expect(routeFromJson(text)).toEqual({ ok: true, value: route });
    expect(routeToJson({})).toBe('{}');
    expect(routeFromJson('')).toEqual({ ok: true, value: {} });
  });

  it('invalid JSON and wrong shapes are errors (nothing to apply)', () => {
    const bad = routeFromJson('{"condition": {"feature": "phase", "in": [}');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/^not valid JSON/);
    const shape = routeFromJson('{"condition": {"feature": "phase", "in": []}}');
    expect(shape.ok).toBe(false);
    if (!shape.ok) expect(shape.error).toMatch(/^at condition/);
    expect(routeFromJson('{"when": 1}').ok).toBe(false);
  });
});
