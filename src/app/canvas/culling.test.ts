import { describe, expect, it } from 'vitest';
import { CULL_MIN_ELEMENTS, shouldCull } from './culling.ts';

describe('shouldCull', () => {
  it('culls large levels only', () => {
    expect(shouldCull(40, 60)).toBe(false);
    expect(shouldCull(CULL_MIN_ELEMENTS - 1, 0)).toBe(false);
    expect(shouldCull(CULL_MIN_ELEMENTS / 2, CULL_MIN_ELEMENTS / 2)).toBe(true);
    expect(shouldCull(1000, 975)).toBe(true);
  });
});
