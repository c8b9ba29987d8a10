import { describe, expect, it } from 'vitest';
import { FAR_ENTER_ZOOM, FAR_LEAVE_ZOOM, FAR_MIN_NODES, nextFar } from './farMode.ts';

describe('far view switch', () => {
  it('is only for big levels', () => {
    expect(nextFar(false, 0.05, FAR_MIN_NODES - 1)).toBe(false);
    expect(nextFar(true, 0.05, FAR_MIN_NODES - 1)).toBe(false);
    expect(nextFar(false, 0.05, FAR_MIN_NODES)).toBe(true);
  });

  it('has hysteresis: a zoom between the two thresholds keeps whichever view it came from', () => {
    const n = FAR_MIN_NODES * 2;
    const between = (FAR_ENTER_ZOOM + FAR_LEAVE_ZOOM) / 2;
    expect(FAR_LEAVE_ZOOM).toBeGreaterThan(FAR_ENTER_ZOOM);
    expect(nextFar(false, between, n)).toBe(false);
    expect(nextFar(true, between, n)).toBe(true);
    expect(nextFar(false, FAR_ENTER_ZOOM * 0.99, n)).toBe(true);
    expect(nextFar(true, FAR_LEAVE_ZOOM * 1.01, n)).toBe(false);
    // A wheel wobbling across one threshold does not switch back and forth.
    let far = false;
    const seen: boolean[] = [];
    for (const z of [0.24, 0.26, 0.245, 0.27, 0.25, 0.29, 0.24]) seen.push((far = nextFar(far, z, n)));
    expect(seen).toEqual([true, true, true, true, true, true, true]);
  });
});
