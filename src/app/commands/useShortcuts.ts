// Global keyboard shortcuts. Single-key shortcuts are ignored while typing in a field, and
// modifier shortcuts that the browser owns (copy in a text field…) are left alone there too.
import { useEffect } from 'react';
import { editorStore } from '../store/editor.store.ts';
import { runCommand } from './commands.ts';

function typing(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

export function commandForKey(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): string | null {
  const mod = e.ctrlKey || e.metaKey;
  const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (mod) {
    if (k === 'z') return e.shiftKey ? 'edit.redo' : 'edit.undo';
    if (k === 'y') return 'edit.redo';
    if (k === 's') return e.shiftKey ? 'file.saveAs' : 'file.save';
    if (k === 'k') return 'view.palette';
    if (k === 'c') return 'edit.copy';
    if (k === 'v') return 'edit.paste';
    if (k === 'd') return 'edit.duplicate';
    if (k === 'o') return 'file.import';
    if (k === 'e') return 'file.export';
    if (k === 'g') return e.shiftKey ? 'edit.ungroup' : 'edit.group';
    return null;
  }
  if (e.altKey) {
    if (k === 'n') return 'file.new';
    if (k === 'w') return 'file.close';
    return null;
  }
  if (k === 'Delete' || k === 'Backspace') return 'edit.delete';
  if (e.key === '?') return 'view.cheatsheet';
  if (k === 'f') return 'view.fit';
  if (k === 'c') return 'edit.container';
  if (k === 's') return 'view.state';
  if (k === 'l') return 'view.layout';
  if (k === 'g') return 'view.snap';
  return null;
}

/** Commands that make sense even with the caret in a field (the field commits on blur first). */
const WHILE_TYPING = new Set(['file.save', 'file.saveAs', 'view.palette', 'file.export']);

export function useShortcuts() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const s = editorStore.getState();
      if (s.overlay || s.dialog) return;
      const id = commandForKey(e);
      if (!id) return;
      if (typing(e.target) && !WHILE_TYPING.has(id)) return;
      if (id === 'edit.delete') {
        const sel = s.selection;
        if (!sel.nodes.length && !sel.containers.length && !sel.edges.length && !sel.grants.length) return;
      }
      e.preventDefault();
      if (typing(e.target)) (e.target as HTMLElement).blur();
      runCommand(id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
