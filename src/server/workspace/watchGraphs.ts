// `graphs_changed` (docs/reference-system.md §1.16): tells clients when files under workspace/graphs change on
// disk, by whatever means (an editor, git, our own API). Debounced so a burst of writes is one notice.
// The editor's Graphs panel refetches on it (src/app/files/graphsSync.ts), so a file dropped into the
// folder shows up without ↻. A recursive fs.watch (inotify on Linux: one watch per folder) when the
// platform gives one; when it cannot (no recursive watch, or the inotify watch limit reached, which
// surfaces as an 'error' later) a cheap poll of the tree's names, sizes and mtimes takes over. Only
// the graphs folder is watched or walked, never a path outside it.
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

export interface GraphsWatch {
  /** Schedule a (debounced) notice, e.g. after an API write (covers platforms without a watcher). */
  poke(): void;
  close(): void;
  /** How changes are noticed: 'watch' (fs.watch) or 'poll' (the fallback). */
  readonly mode: 'watch' | 'poll';
}

export interface WatchOptions {
  debounceMs?: number;
  pollMs?: number;
  /** Tests: skip fs.watch and poll from the start. */
  forcePoll?: boolean;
}

/** Hidden entries (our atomic writes' temp files, `.git`) are not graphs and do not count. */
const hidden = (name: string) => name.startsWith('.');

/** One line per graph file and folder (path, size, mtime): equal signatures mean nothing changed. */
export function treeSignature(root: string): string {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // removed while walking: the next poll sees the new state
    }
    for (const e of entries) {
      if (hidden(e.name)) continue;
      const abs = join(dir, e.name);
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      // Symbolic links are listed, never followed: the walk stays inside the graphs folder.
      if (e.isDirectory()) {
        out.push(`${relPath}/`);
        walk(abs, relPath);
      } else if (e.isFile()) {
        try {
          const st = statSync(abs);
          out.push(`${relPath}\t${st.size}\t${st.mtimeMs}`);
        } catch {
          // removed between readdir and stat
        }
      } else out.push(relPath);
    }
  };
  walk(root, '');
  return out.sort().join('\n');
}

export function watchGraphs(root: string, notify: () => void, opts: WatchOptions = {}): GraphsWatch {
  const debounceMs = opts.debounceMs ?? 150;
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  let poller: NodeJS.Timeout | undefined;
  let closed = false;
  const poke = () => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(notify, debounceMs);
  };
  const state = { mode: 'watch' as 'watch' | 'poll' };
  const startPolling = () => {
    if (closed || poller) return;
    state.mode = 'poll';
    watcher?.close();
    watcher = undefined;
    let last = treeSignature(root);
    poller = setInterval(() => {
      const now = treeSignature(root);
      if (now !== last) {
        last = now;
        poke();
      }
    }, opts.pollMs ?? 2000);
    poller.unref();
  };
  if (opts.forcePoll) startPolling();
  else {
    try {
      watcher = watch(root, { recursive: true, persistent: false }, (_event, file) => {
        // Our atomic writes create dot-prefixed temp files first; the rename that follows is what counts.
        if (typeof file === 'string' && file.split(/[\\/]/).some(hidden)) return;
        poke();
      });
      watcher.on('error', startPolling);
    } catch {
      startPolling();
    }
  }
  return {
    poke,
    get mode() {
      return state.mode;
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (poller) clearInterval(poller);
      watcher?.close();
    },
  };
}
