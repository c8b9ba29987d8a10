// Opening the value viewer from anywhere (a slot's live value, the compare view). The viewer's code
// (its virtualized tree) is loaded on first use, not with the editor: the editor's first render
// waits for its bundle to be parsed, and nothing there needs the viewer until someone opens a value.
import { mountOverlay } from './overlayRoot.tsx';
import { openSlot, openValue } from './viewer.store.ts';

let mounted: Promise<void> | null = null;

/** Mounts the viewer once (its store already holds what to show); a failed load is retried next time. */
function mountViewer(): void {
  mounted ??= import('./ValueViewer.tsx').then(
    ({ ValueViewer }) => mountOverlay('value-viewer', <ValueViewer />),
    () => {
      mounted = null;
    },
  );
}

/** Opens a container slot's full value at the shown step. */
export function showSlot(containerId: string, slot: string): void {
  mountViewer();
  void openSlot(containerId, slot);
}

/** Opens a complete value. */
export function showValue(title: string, value: unknown, note = ''): void {
  mountViewer();
  openValue(title, value, note);
}
