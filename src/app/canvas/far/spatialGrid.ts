// A uniform grid over flow coordinates: which far-view item lies under a point (hover, click, drag)
// and which items a rectangle touches (box select, what is on screen), without walking every item of a
// ten-thousand-node level on every pointer move. Cells hold item indices in one flat array (counted,
// then filled: CSR), so building it is two passes and no per-cell allocation.

export interface GridRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** At most this many cells per item: a level spread thinly over a huge area gets bigger cells. */
const MAX_CELLS_PER_ITEM = 4;

export class SpatialGrid {
  private readonly x0: number;
  private readonly y0: number;
  private readonly cell: number;
  private readonly cols: number;
  private readonly rows: number;
  /** starts[c]..starts[c + 1] index `members` for cell c. */
  private readonly starts: Int32Array;
  private readonly members: Int32Array;
  /** Per item, the stamp of the last rectangle query that returned it (one result per item). */
  private readonly seen: Uint32Array;
  private stamp = 0;

  constructor(private readonly rects: readonly GridRect[]) {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    let size = 0;
    for (const r of rects) {
      x0 = Math.min(x0, r.x);
      y0 = Math.min(y0, r.y);
      x1 = Math.max(x1, r.x + r.w);
      y1 = Math.max(y1, r.y + r.h);
      size += Math.max(r.w, r.h);
    }
    const n = rects.length;
    if (n === 0) [x0, y0, x1, y1] = [0, 0, 1, 1];
    const width = Math.max(1, x1 - x0);
    const height = Math.max(1, y1 - y0);
    // About two items across a cell, unless that makes more cells than the items justify.
    let cell = Math.max(16, n ? (2 * size) / n : 1);
    const minCell = Math.sqrt((width * height) / Math.max(1, MAX_CELLS_PER_ITEM * n));
    cell = Math.max(cell, minCell);
    this.x0 = x0;
    this.y0 = y0;
    this.cell = cell;
    this.cols = Math.max(1, Math.ceil(width / cell));
    this.rows = Math.max(1, Math.ceil(height / cell));
    const counts = new Int32Array(this.cols * this.rows + 1);
    this.forCells(rects, (c) => counts[c + 1]!++);
    for (let c = 1; c < counts.length; c++) counts[c]! += counts[c - 1]!;
    this.starts = counts;
    this.members = new Int32Array(counts[counts.length - 1]!);
    const fill = counts.slice(0, -1);
    this.forCells(rects, (c, i) => (this.members[fill[c]!++] = i));
    this.seen = new Uint32Array(n);
  }

  private forCells(rects: readonly GridRect[], visit: (cell: number, item: number) => void): void {
    rects.forEach((r, i) => {
      const [c0, r0, c1, r1] = this.span(r.x, r.y, r.x + r.w, r.y + r.h);
      for (let row = r0; row <= r1; row++)
        for (let col = c0; col <= c1; col++) visit(row * this.cols + col, i);
    });
  }

  /** The cells (first and last column and row, clamped to the grid) a flow rectangle covers. */
  private span(x0: number, y0: number, x1: number, y1: number): [number, number, number, number] {
    const col = (x: number) => Math.min(this.cols - 1, Math.max(0, Math.floor((x - this.x0) / this.cell)));
    const row = (y: number) => Math.min(this.rows - 1, Math.max(0, Math.floor((y - this.y0) / this.cell)));
    return [col(x0), row(y0), col(x1), row(y1)];
  }

  /** The topmost item (the highest index: drawn last) containing the flow point, or -1. */
  at(x: number, y: number, pad = 0): number {
    const [c, r] = this.span(x, y, x, y);
    let best = -1;
    for (let k = this.starts[r * this.cols + c]!; k < this.starts[r * this.cols + c + 1]!; k++) {
      const i = this.members[k]!;
      const b = this.rects[i]!;
      if (i > best && x >= b.x - pad && x <= b.x + b.w + pad && y >= b.y - pad && y <= b.y + b.h + pad)
        best = i;
    }
    return best;
  }

  /** Every item that overlaps the flow rectangle (x0, y0)–(x1, y1), in index order. */
  overlapping(x0: number, y0: number, x1: number, y1: number): number[] {
    const [lx, ly, hx, hy] = [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
    const [c0, r0, c1, r1] = this.span(lx, ly, hx, hy);
    const stamp = ++this.stamp;
    const out: number[] = [];
    for (let row = r0; row <= r1; row++)
      for (let col = c0; col <= c1; col++) {
        const cell = row * this.cols + col;
        for (let k = this.starts[cell]!; k < this.starts[cell + 1]!; k++) {
          const i = this.members[k]!;
          if (this.seen[i] === stamp) continue;
          this.seen[i] = stamp;
          const b = this.rects[i]!;
          if (b.x <= hx && b.x + b.w >= lx && b.y <= hy && b.y + b.h >= ly) out.push(i);
        }
      }
    return out.sort((a, b) => a - b);
  }
}
