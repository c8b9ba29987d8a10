// The debugger's dialogs (value viewer, compare view) render in one React root of their own, made on
// first use, so opening one from anywhere (a value cell, the timeline) needs no host in the app shell.
import type { ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

const roots = new Map<string, Root>();

/** Renders `node` once into a body-level root named `id` (later calls are no-ops). */
export function mountOverlay(id: string, node: ReactNode): void {
  if (roots.has(id) || typeof document === 'undefined') return;
  const el = document.createElement('div');
  el.dataset.overlay = id;
  document.body.appendChild(el);
  const root = createRoot(el);
  roots.set(id, root);
  root.render(node);
}
