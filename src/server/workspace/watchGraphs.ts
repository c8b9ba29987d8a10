// `graphs_changed` (REFERENCE.md 1.16): tells clients when files under workspace/graphs change on
// disk, by whatever means (an editor, git, our own API). Debounced so a burst of writes is one notice.
import { watch, type FSWatcher } from 'node:fs';

export interface GraphsWatch {
  /** Schedule a (debounced) notice, e.g. after an API write (covers platforms without a watcher). */
  poke(): void;
  close(): void;
}

export function watchGraphs(root: string, notify: () => void, debounceMs = 150): GraphsWatch {
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  const poke = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(notify, debounceMs);
  };
  try {
    watcher = watch(root, { recursive: true, persistent: false }, (_event, file) => {
      // Our atomic writes create dot-prefixed temp files first; the rename that follows is what counts.
      if (typeof file === 'string' && file.split(/[\\/]/).some((s) => s.startsWith('.'))) return;
      poke();
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    // No recursive watch on this platform: clients still get graphs_changed for API writes.
  }
  return {
    poke,
    close() {
      if (timer) clearTimeout(timer);
      watcher?.close();
    },
  };
}
