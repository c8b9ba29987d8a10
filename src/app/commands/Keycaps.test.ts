import { describe, expect, it } from 'vitest';
import { parseShortcut } from './Keycaps.tsx';

describe('parseShortcut', () => {
  it('splits a chord into caps joined by "+"', () => {
    expect(parseShortcut('Ctrl+Shift+S')).toEqual([
      [{ key: 'Ctrl' }, { text: '+' }, { key: 'Shift' }, { text: '+' }, { key: 'S' }],
    ]);
  });

  it('alternatives, mouse actions and descriptions are text beside the caps', () => {
    expect(parseShortcut('Shift+click / Shift+drag')).toEqual([
      [{ key: 'Shift' }, { text: '+' }, { text: 'click' }],
      [{ key: 'Shift' }, { text: '+' }, { text: 'drag' }],
    ]);
    expect(parseShortcut('double-click')).toEqual([[{ text: 'double-click' }]]);
    expect(parseShortcut('Backspace on empty selection')).toEqual([
      [{ key: 'Backspace' }, { text: ' on empty selection' }],
    ]);
    expect(parseShortcut('← / → / Esc')).toEqual([[{ key: '←' }], [{ key: '→' }], [{ key: 'Esc' }]]);
  });

  it('single keys, punctuation included, are caps', () => {
    expect(parseShortcut('?')).toEqual([[{ key: '?' }]]);
    expect(parseShortcut('Ctrl+.')).toEqual([[{ key: 'Ctrl' }, { text: '+' }, { key: '.' }]]);
  });
});
