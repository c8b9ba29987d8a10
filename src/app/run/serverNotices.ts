// Subscribe a component to server notices (run_started, run_branched, run_deleted, connect) on the
// one live connection: each notice type is registered on the socket once, components come and go.
import { liveClient } from '../live/connection.ts';

const listeners = new Map<string, Set<() => void>>();

/** Calls `fn` on each of the notice `types`; returns the unsubscribe. */
export function onServerNotices(types: readonly string[], fn: () => void): () => void {
  for (const t of types) {
    let set = listeners.get(t);
    if (!set) {
      const fresh = new Set<() => void>();
      listeners.set(t, (set = fresh));
      liveClient().onNotice(t, () => fresh.forEach((l) => l()));
    }
    set.add(fn);
  }
  return () => {
    for (const t of types) listeners.get(t)?.delete(fn);
  };
}
