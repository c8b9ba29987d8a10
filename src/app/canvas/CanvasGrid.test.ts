import { describe, expect, it } from 'vitest';
import { BASE_GAP, gridLevel, MIN_GAP_PX } from './CanvasGrid.tsx';

describe('canvas grid level', () => {
  it('keeps the 20-unit grid while its dots are at least MIN_GAP_PX apart on screen', () => {
    expect(gridLevel(1)).toBe(0);
    expect(gridLevel(MIN_GAP_PX / BASE_GAP)).toBe(0);
  });

  it('steps to a five-times coarser grid as the view zooms out, never closer than MIN_GAP_PX', () => {
    for (const zoom of [0.49, 0.3, 0.2, 0.1, 0.075, 0.05]) {
      const level = gridLevel(zoom);
      const gapPx = BASE_GAP * 5 ** level * zoom;
      expect(gapPx).toBeGreaterThanOrEqual(MIN_GAP_PX);
      // the finer grid would have been too dense
      expect(gapPx / 5 < MIN_GAP_PX).toBe(true);
    }
    expect(gridLevel(0.3)).toBe(1);
    // a fitted 1,000-node graph: dots 37.5 px apart instead of 1.5
    expect(gridLevel(0.075)).toBe(2);
  });
});
