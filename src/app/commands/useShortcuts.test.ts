import { describe, expect, it } from 'vitest';
import { commandForKey } from './useShortcuts.ts';
import { COMMANDS } from './commands.ts';

const k = (
  key: string,
  mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {},
) => ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });

describe('shortcuts', () => {
  it('maps keys to commands on both Ctrl and Cmd', () => {
    expect(commandForKey(k('z', { ctrlKey: true }))).toBe('edit.undo');
    expect(commandForKey(k('Z', { metaKey: true, shiftKey: true }))).toBe('edit.redo');
    expect(commandForKey(k('k', { metaKey: true }))).toBe('view.palette');
    expect(commandForKey(k('?', { shiftKey: true }))).toBe('view.cheatsheet');
    expect(commandForKey(k('Delete'))).toBe('edit.delete');
    expect(commandForKey(k('c'))).toBe('edit.container');
    expect(commandForKey(k('x'))).toBeNull();
  });

  it('every mapped command exists in the command list', () => {
    const ids = new Set(COMMANDS.map((c) => c.id));
    for (const key of ['z', 'y', 's', 'k', 'c', 'v', 'd', 'o', 'e', 'g']) {
      const id = commandForKey(k(key, { ctrlKey: true }));
      if (id) expect(ids.has(id)).toBe(true);
    }
    for (const key of ['f', 'c', 's', 'l', 'g', '?', 'Delete'])
      expect(ids.has(commandForKey(k(key))!)).toBe(true);
  });
  it('Space is Play/Pause, "." steps and Ctrl/Cmd+. stops the run', () => {
    expect(commandForKey(k(' '))).toBe('run.toggle');
    expect(commandForKey(k(' ', { shiftKey: true }))).toBeNull();
    expect(commandForKey(k('.'))).toBe('run.step');
    expect(commandForKey(k('.', { ctrlKey: true }))).toBe('run.stop');
    expect(commandForKey(k('.', { metaKey: true }))).toBe('run.stop');
    const ids = new Set(COMMANDS.map((c) => c.id));
    for (const id of ['run.toggle', 'run.play', 'run.pause', 'run.resume', 'run.step', 'run.stop'])
      expect(ids.has(id)).toBe(true);
  });
});
