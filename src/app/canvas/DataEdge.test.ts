import { describe, expect, it } from 'vitest';
import { chipScale } from './DataEdge.tsx';
import { MIN_LABEL_PX } from './LabelScale.tsx';

describe('edge chip scale', () => {
  it('keeps the chip’s 10 px text at 9 screen px or more, at scale 1 once it is, in 0.1 steps', () => {
    expect(chipScale(1)).toBe(1);
    expect(chipScale(0.9)).toBe(1);
    for (let z = 0.05; z < 1.5; z += 0.01) {
      const s = chipScale(z);
      expect(10 * s * z).toBeGreaterThanOrEqual(MIN_LABEL_PX - 1e-9);
      expect(Math.round(s * 10)).toBeCloseTo(s * 10, 6);
      // No bigger than needed: a tenth less would be under 9 px (unless already at 1).
      if (s > 1) expect(10 * (s - 0.1) * z).toBeLessThan(MIN_LABEL_PX);
    }
  });
});
