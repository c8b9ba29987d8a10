import { describe, expect, it } from 'vitest';
import { boundedJson, previewKeyed, previewValue } from './preview.ts';

describe('get_preview rules', () => {
  it('list → size and the first three items', () => {
    expect(previewValue([1, 2])).toEqual({ size: 2, preview: '[1, 2]' });
    expect(previewValue([1, 2, 3, 4])).toEqual({ size: 4, preview: '[1, 2, 3, ...]' });
  });

  it('number/bool → value; null → "null"', () => {
    expect(previewValue(2)).toEqual({ value: 2 });
    expect(previewValue(false)).toEqual({ value: false });
    expect(previewValue(null)).toEqual({ preview: 'null' });
  });

  it('long strings are truncated to 100 chars with ...', () => {
    const p = previewValue('x'.repeat(150)).preview!;
    expect(p).toBe(`${'x'.repeat(100)}...`);
  });

  it('objects show their JSON text', () => {
    expect(previewValue({ a: 1 })).toEqual({ preview: '{"a":1}' });
  });

  it('a huge value is previewed without serializing all of it, and cycles do not hang', () => {
    const big = { rows: Array.from({ length: 10_000 }, (_, i) => [i, i]) };
    const p = previewValue(big).preview!;
    expect(p.endsWith('...')).toBe(true);
    expect(p.startsWith('{"rows":[[0,0],[1,1]')).toBe(true);
    expect(boundedJson(big).length).toBeLessThan(200);
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    expect(boundedJson(loop)).toBe('{"a":1,"self":"[circular]"}');
  });

  it('keyed slot → key count, the sample size, and a [key] prefix', () => {
    expect(previewKeyed({ ep1: [1, 2] })).toEqual({ keys: 1, size: 2, preview: '[ep1] [1, 2]' });
    expect(previewKeyed({ a: 3, b: 4 })).toEqual({ keys: 2, preview: '[a] 3' });
  });
});
