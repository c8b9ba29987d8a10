import { describe, expect, it } from 'vitest';
import { SpatialGrid, type GridRect } from './spatialGrid.ts';

/** Every index a linear scan finds overlapping the rectangle (what the grid must answer). */
const scan = (rects: GridRect[], x0: number, y0: number, x1: number, y1: number) =>
  rects.flatMap((r, i) => (r.x <= x1 && r.x + r.w >= x0 && r.y <= y1 && r.y + r.h >= y0 ? [i] : []));

function layered(n: number, rows: number): GridRect[] {
  return Array.from({ length: n }, (_, i) => ({
    x: Math.floor(i / rows) * 280,
    y: (i % rows) * 160,
    w: 170,
    h: i % 3 === 0 ? 158 : 78,
  }));
}

describe('spatial grid', () => {
  it('answers rectangle queries exactly as a linear scan, each item once', () => {
    const rects = [...layered(3000, 25), { x: -500, y: -400, w: 9000, h: 300 }];
    const grid = new SpatialGrid(rects);
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 40000 - 3000;
    for (let q = 0; q < 200; q++) {
      const [ax, bx, ay, by] = [rnd(), rnd(), rnd() / 8, rnd() / 8];
      expect(grid.overlapping(ax, ay, bx, by)).toEqual(
        scan(rects, Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)),
      );
    }
  });

  it('finds the topmost item under a point, with slack around small boxes, and nothing in a gap', () => {
    const rects = [
      { x: 0, y: 0, w: 100, h: 100 },
      { x: 50, y: 50, w: 100, h: 100 },
      { x: 400, y: 0, w: 10, h: 10 },
    ];
    const grid = new SpatialGrid(rects);
    expect(grid.at(10, 10)).toBe(0);
    expect(grid.at(75, 75)).toBe(1); // both contain it: the later one is drawn on top
    expect(grid.at(300, 300)).toBe(-1);
    expect(grid.at(413, 5)).toBe(-1);
    expect(grid.at(413, 5, 4)).toBe(2);
    expect(grid.at(-1e6, 1e6)).toBe(-1); // outside the grid: clamped to an edge cell, still no hit
  });

  it('handles no items and a level spread thinly over a huge area', () => {
    expect(new SpatialGrid([]).overlapping(-1e9, -1e9, 1e9, 1e9)).toEqual([]);
    const far = [
      { x: 0, y: 0, w: 10, h: 10 },
      { x: 1e7, y: 1e7, w: 10, h: 10 },
    ];
    const grid = new SpatialGrid(far);
    expect(grid.at(1e7 + 5, 1e7 + 5)).toBe(1);
    expect(grid.overlapping(-1, -1, 2e7, 2e7)).toEqual([0, 1]);
  });
});
