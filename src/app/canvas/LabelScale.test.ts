import { describe, expect, it } from 'vitest';
import { labelScale, MIN_LABEL_PX } from './LabelScale.tsx';

describe('label scale', () => {
  it('keeps an 11 px title at least 9 screen pixels when zoomed out, capped, in 0.1 steps', () => {
    expect(labelScale(1)).toBe(1);
    expect(labelScale(0.9)).toBe(1);
    for (const z of [0.8, 0.63, 0.55, 0.5]) {
      const s = labelScale(z);
      expect(11 * z * s).toBeGreaterThanOrEqual(MIN_LABEL_PX);
      expect(Math.round(s * 10)).toBeCloseTo(s * 10, 6);
    }
    expect(labelScale(0.1)).toBe(1.8);
  });
});
