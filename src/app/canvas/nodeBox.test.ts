import { describe, expect, it } from 'vitest';
import { anchorTop, boxFontPx, boxHeight, HEADER_PX, ROW_PX, rowCentreY } from './nodeBox.ts';

const port = (name: string) => ({ name, wire_type: 'TEXT', optional: true, description: '' });

describe('node box geometry', () => {
  it('is as tall as the full node header and its longer port column', () => {
    const ports = { inputs: [port('a'), port('b'), port('c')], outputs: [port('x')] };
    expect(boxHeight(ports)).toBe(2 + HEADER_PX + 8 + 3 * ROW_PX);
    // A node without ports still gets one row, so its label has room.
    expect(boxHeight({ inputs: [], outputs: [] })).toBe(2 + HEADER_PX + 8 + ROW_PX);
  });

  it('places row anchors at the full-detail row centres', () => {
    expect(rowCentreY(0)).toBe(1 + HEADER_PX + 4 + ROW_PX / 2);
    expect(rowCentreY(2) - rowCentreY(1)).toBe(ROW_PX);
    // The anchors' containing block is the node wrapper, whose top is the box's outer top.
    expect(anchorTop(1)).toBe(rowCentreY(1));
  });

  it('label font keeps ~9 screen px when zoomed out, in 4 px steps, capped', () => {
    expect(boxFontPx(0.25)).toBe(36);
    expect(boxFontPx(0.25) * 0.25).toBeGreaterThanOrEqual(9);
    expect(boxFontPx(0.24)).toBe(40);
    // Capped so a five-character label ("n1000") still fits the 170 px box.
    expect(boxFontPx(0.05)).toBe(44);
    expect(boxFontPx(1)).toBe(12);
  });
});
