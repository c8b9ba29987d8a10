import { describe, expect, it } from 'vitest';
import { grantStyle } from './GrantEdge.tsx';

describe('grant edge stroke', () => {
  it('is dashed violet "6 4" at full detail, half transparent by its stroke (no element opacity)', () => {
    const s = grantStyle(false, false);
    expect(s).toMatchObject({
      stroke: '#8b5cf6',
      strokeDasharray: '6 4',
      strokeWidth: 1.5,
      strokeOpacity: 0.5,
    });
    expect(s).not.toHaveProperty('opacity');
    expect(grantStyle(false, true)).toMatchObject({
      strokeDasharray: '6 4',
      strokeWidth: 2,
      strokeOpacity: 1,
    });
  });

  it('zoomed out is solid with the average ink of the dashes (6 of every 10 px)', () => {
    const s = grantStyle(true, false);
    expect(s).not.toHaveProperty('strokeDasharray');
    expect(s).not.toHaveProperty('opacity');
    expect(s.stroke).toBe('#8b5cf6');
    expect(s.strokeOpacity).toBeCloseTo(0.5 * 0.6, 6);
    expect(grantStyle(true, true).strokeOpacity).toBeCloseTo(0.6, 6);
  });
});
