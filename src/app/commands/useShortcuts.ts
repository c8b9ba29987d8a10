// Global keyboard shortcuts. Single-key shortcuts are ignored while typing in a field, and
// modifier shortcuts that the browser owns (copy in a text field…) are left alone there too.
import { useEffect } from 'react';
import { editorStore } from '../store/editor.store.ts';
import { runCommand } from './commands.ts';

function typing(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return (
    !!el &&
    (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable)
  );
}

/** How focus last moved: Tab (keyboard users) or a pointer. */
let keyboardFocus = false;

/**
 * Space on a button or link reached by keyboard (Tab) activates it; it is not Play/Pause there.
 * A button that merely kept focus after a mouse click does not count, or Space would re-click
 * whatever was clicked last instead of playing/pausing.
 */
function spaceActivates(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el || !keyboardFocus) return false;
  return (
    el.tagName === 'BUTTON' ||
    el.tagName === 'A' ||
    el.tagName === 'SUMMARY' ||
    el.getAttribute?.('role') === 'button'
  );
}

export function commandForKey(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
): string | null {
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
    if (k === '.') return 'run.stop';
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
  if (k === ' ' && !e.shiftKey) return 'run.toggle';
  if (k === '.') return 'run.step';
  return null;
}

/** Commands that make sense even with the caret in a field (the field commits on blur first). */
const WHILE_TYPING = new Set(['file.save', 'file.saveAs', 'view.palette', 'file.export']);

export function useShortcuts() {
  useEffect(() => {
    const onPointer = () => {
      keyboardFocus = false;
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Tab') keyboardFocus = true;
      const s = editorStore.getState();
      if (s.overlay || s.dialog) return;
      const id = commandForKey(e);
      if (!id) return;
      if (typing(e.target) && !WHILE_TYPING.has(id)) return;
      if (id === 'run.toggle' && spaceActivates(e.target)) return;
      // Holding a run key must not fire it again and again.
      if (e.repeat && id.startsWith('run.')) {
        e.preventDefault();
        return;
      }
      if (id === 'edit.delete') {
        const sel = s.selection;
        if (!sel.nodes.length && !sel.containers.length && !sel.edges.length && !sel.grants.length) return;
      }
      e.preventDefault();
      if (typing(e.target)) (e.target as HTMLElement).blur();
      runCommand(id);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onPointer, true);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onPointer, true);
    };
  }, []);
}
