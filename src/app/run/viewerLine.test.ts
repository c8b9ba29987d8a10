import { describe, expect, it } from 'vitest';
import { VIEWER_LINE_MAX, viewerLine } from './viewerLine.ts';

describe('viewerLine', () => {
  it('shows a single field as its value, several as name: value', () => {
    expect(viewerLine({ text: 'the agent moved up' })).toBe('the agent moved up');
    expect(viewerLine({ metrics: { reward: 0.123456, steps: 4 } })).toBe('{reward: 0.1235, steps: 4}');
    expect(viewerLine({ a: 1, b: true })).toBe('a: 1 · b: true');
    expect(viewerLine({})).toBe('(nothing)');
  });

  it('shows the newest entry of an accumulated history', () => {
    expect(viewerLine({ action: ['up', 'down', 'left'] })).toBe('left');
    expect(viewerLine({ action: [] })).toBe('[]');
  });

  it('keeps images out and stays one short line', () => {
    expect(viewerLine({ image: 'data:image/png;base64,AAAA' })).toBe('[image]');
    const long = viewerLine({ text: 'word '.repeat(100) });
    expect(long.length).toBe(VIEWER_LINE_MAX);
    expect(long.endsWith('…')).toBe(true);
    expect(viewerLine({ text: 'a\n\n  b' })).toBe('a b');
  });
});
