// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import {
  CANVAS_KEEP_PX,
  clampDrawerHeight,
  DRAWER_DEFAULT_PX,
  DRAWER_MIN_PX,
  loadDrawerHeight,
  saveDrawerHeight,
} from './drawerSize.ts';

afterEach(() => window.localStorage.clear());

describe('drawer height', () => {
  it('is clamped between its minimum and what leaves the canvas its room', () => {
    expect(clampDrawerHeight(300, 900)).toBe(300);
    expect(clampDrawerHeight(10, 900)).toBe(DRAWER_MIN_PX);
    expect(clampDrawerHeight(5000, 900)).toBe(900 - CANVAS_KEEP_PX);
    // A window too small for both: the drawer keeps its minimum.
    expect(clampDrawerHeight(400, 250)).toBe(DRAWER_MIN_PX);
    expect(clampDrawerHeight(Number.NaN, 900)).toBe(DRAWER_DEFAULT_PX);
    expect(clampDrawerHeight(300.6, 900)).toBe(301);
  });

  it('is remembered, and falls back to the default when nothing (or garbage) is kept', () => {
    expect(loadDrawerHeight()).toBe(DRAWER_DEFAULT_PX);
    saveDrawerHeight(412.4);
    expect(loadDrawerHeight()).toBe(412);
    window.localStorage.setItem('statewire.drawerHeight', 'tall');
    expect(loadDrawerHeight()).toBe(DRAWER_DEFAULT_PX);
  });
});
