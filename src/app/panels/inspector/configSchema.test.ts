import { describe, expect, it } from 'vitest';
import { fieldOf, fieldText, fits, parseFieldText, placeholderOf, schemaFields } from './configSchema.ts';

const SCHEMA = {
  type: 'object',
  required: ['size'],
  properties: {
    size: { type: 'integer', default: 8, minimum: 2, maximum: 64, description: 'grid size' },
    noise: { type: 'number', default: 0.1 },
    render: { type: 'boolean' },
    mode: { type: 'string', enum: ['rgb', 'gray'] },
    level: { enum: [1, 2, 3] },
    goals: { type: 'array', items: { type: 'integer' } },
    tags: { type: 'array', items: { type: 'string' } },
    name: { type: ['string', 'null'], title: 'Display name' },
    layout: { type: 'object' },
    points: { type: 'array', items: { type: 'object' } },
    anything: {},
  },
};

describe('schemaFields', () => {
  it('maps each property to a control kind, in declaration order', () => {
    const fields = schemaFields(SCHEMA);
    expect(fields.map((f) => [f.key, f.kind])).toEqual([
      ['size', 'integer'],
      ['noise', 'number'],
      ['render', 'boolean'],
      ['mode', 'enum'],
      ['level', 'enum'],
      ['goals', 'array'],
      ['tags', 'array'],
      ['name', 'string'],
      ['layout', 'json'],
      ['points', 'json'],
      ['anything', 'json'],
    ]);
    expect(fields[0]).toMatchObject({ required: true, default: 8, minimum: 2, description: 'grid size' });
    expect(fields[5]).toMatchObject({ itemKind: 'integer' });
    expect(fields[7]).toMatchObject({ label: 'Display name', required: false });
  });

  it('has no fields for a schema without properties (or not a schema at all)', () => {
    expect(schemaFields({})).toEqual([]);
    expect(schemaFields(null)).toEqual([]);
    expect(schemaFields({ properties: [1, 2] })).toEqual([]);
  });
});

describe('parseFieldText', () => {
  const f = Object.fromEntries(schemaFields(SCHEMA).map((x) => [x.key, x]));

  it('checks numbers, whole numbers and bounds, naming the field', () => {
    expect(parseFieldText(f.size!, '12')).toEqual({ ok: true, value: 12 });
    expect(parseFieldText(f.size!, '1.5')).toEqual({
      ok: false,
      reason: "'size' must be a whole number, got 1.5",
    });
    expect(parseFieldText(f.size!, '1')).toEqual({ ok: false, reason: "'size' must be at least 2, got 1" });
    expect(parseFieldText(f.size!, '65')).toEqual({ ok: false, reason: "'size' must be at most 64, got 65" });
    expect(parseFieldText(f.noise!, 'abc')).toEqual({
      ok: false,
      reason: `'noise' must be a number, got "abc"`,
    });
    expect(parseFieldText(f.noise!, ' 0.25 ')).toEqual({ ok: true, value: 0.25 });
  });

  it('an emptied optional number or JSON field removes the key; a required one is refused', () => {
    expect(parseFieldText(f.noise!, '')).toEqual({ ok: true, value: undefined });
    expect(parseFieldText(f.layout!, '  ')).toEqual({ ok: true, value: undefined });
    expect(parseFieldText(f.size!, '').ok).toBe(false);
  });

  it('reads arrays of primitives as a comma list or as a JSON array', () => {
    expect(parseFieldText(f.goals!, '3, 4,5')).toEqual({ ok: true, value: [3, 4, 5] });
    expect(parseFieldText(f.goals!, '[1, 2]')).toEqual({ ok: true, value: [1, 2] });
    expect(parseFieldText(f.goals!, '')).toEqual({ ok: true, value: [] });
    expect(parseFieldText(f.goals!, '1, x')).toEqual({
      ok: false,
      reason: `'goals' item 2 must be a number, got "x"`,
    });
    expect(parseFieldText(f.goals!, '1, 2.5')).toEqual({
      ok: false,
      reason: "'goals' item 2 must be a whole number, got 2.5",
    });
    expect(parseFieldText(f.tags!, '["a,b", "c"]')).toEqual({ ok: true, value: ['a,b', 'c'] });
    const bad = parseFieldText(f.tags!, '["a"');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.reason).toMatch(/^'tags': not a valid JSON array/);
  });

  it('parses JSON fields and reports the syntax error', () => {
    expect(parseFieldText(f.layout!, '{"walls": [[1, 2]]}')).toEqual({
      ok: true,
      value: { walls: [[1, 2]] },
    });
    const r = parseFieldText(f.layout!, '{bad');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/^'layout': not valid JSON: /);
  });

  it('accepts only listed enum values, keeping their JSON type', () => {
    expect(parseFieldText(f.mode!, 'gray')).toEqual({ ok: true, value: 'gray' });
    expect(parseFieldText(f.level!, '2')).toEqual({ ok: true, value: 2 });
    expect(parseFieldText(f.mode!, 'blue')).toEqual({
      ok: false,
      reason: `'mode' must be one of ["rgb","gray"]`,
    });
  });
});

describe('fits / fieldText / placeholderOf', () => {
  it('a stored value of another type does not fit (the form then edits it as JSON)', () => {
    const size = fieldOf('size', { type: 'integer' });
    expect(fits(size, 3)).toBe(true);
    expect(fits(size, undefined)).toBe(true);
    expect(fits(size, 3.5)).toBe(false);
    expect(fits(size, '3')).toBe(false);
    const tags = fieldOf('tags', { type: 'array', items: { type: 'string' } });
    expect(fits(tags, ['a'])).toBe(true);
    expect(fits(tags, [1])).toBe(false);
    expect(fits(fieldOf('m', { enum: ['a'] }), 'b')).toBe(false);
  });

  it('shows arrays as a comma list unless an item would not survive one', () => {
    const tags = fieldOf('tags', { type: 'array', items: { type: 'string' } });
    expect(fieldText(tags, ['a', 'b'])).toBe('a, b');
    expect(fieldText(tags, ['a,b', 'c'])).toBe('["a,b","c"]');
    expect(fieldText(fieldOf('x', {}), { a: 1 })).toBe('{"a":1}');
    expect(placeholderOf(fieldOf('n', { type: 'string', default: 'grid' }))).toBe('default: grid');
    expect(placeholderOf(fieldOf('n', { type: 'number' }))).toBe('');
  });
});
