// How every popup menu of the editor (File, Runs, the timeline's branches) closes, the way desktop
// editors do: Escape (focus goes back to the button that opened it), a press anywhere outside the
// menu and its button (the button itself toggles), and a dialog or overlay opening (a shortcut such
// as Ctrl+Shift+S while the menu is up). Moving the pointer away does not close it.
// Layers: while a modal dialog the menu is not part of is up (a confirm the menu asked for), Escape
// and presses belong to that dialog, so the menu under it stays as it is.
// ArrowDown / ArrowUp move the focus through the menu's enabled buttons.
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { editorStore } from '../store/editor.store.ts';

/** A modal dialog is up and the menu is not inside it: events belong to the dialog. */
function underDialog(menu: HTMLElement | null): boolean {
  const dialogs = document.querySelectorAll('[role="dialog"]');
  for (const d of dialogs) if (!menu || !d.contains(menu)) return true;
  return false;
}

/** A field (the Runs menu's filters) keeps its own arrow keys. */
function typing(el: Element | null): boolean {
  return el?.tagName === 'INPUT' || el?.tagName === 'SELECT' || el?.tagName === 'TEXTAREA';
}

function focusables(menu: HTMLElement): HTMLElement[] {
  return [...menu.querySelectorAll<HTMLElement>('button:not([disabled]), [role="menuitem"]')];
}

export function useDismiss(
  open: boolean,
  close: () => void,
  menu: RefObject<HTMLElement | null>,
  trigger: RefObject<HTMLElement | null>,
): void {
  // A layout effect: the listeners are in place before the open menu is painted. A menu opened by a
  // fetch's answer (the Runs menu) is committed outside any input event, and a passive effect would
  // run after the paint — an Escape pressed on the visible menu in between was lost.
  useLayoutEffect(() => {
    if (!open) return;
    const inside = (t: EventTarget | null) =>
      t instanceof Node && (menu.current?.contains(t) === true || trigger.current?.contains(t) === true);
    const onPointer = (e: PointerEvent) => {
      if (inside(e.target) || underDialog(menu.current)) return;
      close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (underDialog(menu.current)) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        // Escape is the menu's alone: not also "back to live" or a dialog's close.
        e.stopPropagation();
        close();
        trigger.current?.focus();
        return;
      }
      const el = menu.current;
      if (!el || (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') || typing(document.activeElement)) return;
      const items = focusables(el);
      if (items.length === 0) return;
      e.preventDefault();
      const at = items.indexOf(document.activeElement as HTMLElement);
      const next = e.key === 'ArrowDown' ? (at + 1) % items.length : (at <= 0 ? items.length : at) - 1;
      items[next]?.focus();
    };
    // A dialog or overlay opening (by a shortcut, say) closes the menu rather than leaving it under.
    const offStore = editorStore.subscribe((s, prev) => {
      if ((s.dialog && s.dialog !== prev.dialog) || (s.overlay && s.overlay !== prev.overlay)) close();
    });
    document.addEventListener('pointerdown', onPointer, true);
    window.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('pointerdown', onPointer, true);
      window.removeEventListener('keydown', onKey, true);
      offStore();
    };
  }, [open, close, menu, trigger]);
}

/** A popup menu's state: open or not, its element and its button, closed the way useDismiss says. */
export function useMenu() {
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);
  const toggle = useCallback(() => setOpen((o) => !o), []);
  useDismiss(open, close, menu, trigger);
  return { open, close, toggle, menu, trigger };
}
