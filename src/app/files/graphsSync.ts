// Keeps the Graphs explorer and the error views of unreadable files in step with workspace/graphs:
// the server watches that folder (src/server/workspace/watchGraphs.ts) and sends `graphs_changed`
// over the live socket whenever a file is added, changed or removed there, by any program. A push
// rather than a poll: the server is already watching (one inotify watch per folder, debounced), the
// socket is already open, and an idle editor then costs nothing.
import type { NoticeSource } from '../services/servicesSync.ts';
import type { EditorStore } from '../store/editor.store.ts';
import { rereadUnreadable } from './documents.ts';
import { loadGraphList } from './graphList.ts';

export function startGraphsSync(store: EditorStore, notices: NoticeSource): void {
  const refresh = () => {
    void loadGraphList();
    // A file fixed in a text editor opens as a graph in the tab that showed its error.
    for (const t of store.getState().tabs) if (t.unreadable) void rereadUnreadable(t.id, store);
  };
  notices.onNotice('graphs_changed', refresh);
  // Files may have changed while the socket was down, or between boot's list request and the
  // socket's first connect (a notice then reached no one).
  notices.onNotice('connect', refresh);
}
