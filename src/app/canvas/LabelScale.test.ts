import { describe, expect, it } from 'vitest';
import { LOW_DETAIL_ZOOM } from './detail.ts';
import { boxLabelPx, labelScale, MIN_LABEL_PX, textMin } from './LabelScale.tsx';

describe('label scale', () => {
  it('keeps an 11 px title at least 9 screen pixels down to the lowest full-detail zoom, in 0.1 steps', () => {
    expect(labelScale(1)).toBe(1);
    expect(labelScale(0.9)).toBe(1);
    for (const z of [0.8, 0.63, 0.55, 0.5, 0.4, 0.3, LOW_DETAIL_ZOOM]) {
      const s = labelScale(z);
      expect(11 * z * s).toBeGreaterThanOrEqual(MIN_LABEL_PX);
      expect(Math.round(s * 10)).toBeCloseTo(s * 10, 6);
    }
    // Below it nodes are boxes: the scale stops growing.
    expect(labelScale(0.1)).toBe(labelScale(LOW_DETAIL_ZOOM));
  });

  it('names the smallest text size still 9 screen px at a zoom', () => {
    expect(textMin(1)).toBe('9');
    expect(textMin(0.95)).toBe('10');
    expect(textMin(0.85)).toBe('11');
    expect(textMin(0.8)).toBe('title');
    for (const z of [2, 1, 0.95, 0.9, 0.85, 9 / 11])
      expect(Number(textMin(z)) * z).toBeGreaterThanOrEqual(MIN_LABEL_PX);
  });

  it('hides a box label rather than drawing it under 9 screen px', () => {
    for (let z = 0.01; z < 0.6; z += 0.01) {
      const px = boxLabelPx(z);
      if (px > 0) expect(px * z).toBeGreaterThanOrEqual(MIN_LABEL_PX);
    }
    expect(boxLabelPx(0.07)).toBe(0);
    expect(boxLabelPx(0.24)).toBeGreaterThan(0);
  });
});
