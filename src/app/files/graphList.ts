// The saved graphs (GET /api/graphs) as the explorer lists them. Boot loads the list from the request
// the entry module already sent and waits for it, so the explorer has its final height when the
// editor first shows: a list that arrived later grew the explorer and pushed the node library down
// under the pointer of someone about to drag from it. Later saves, renames and deletes refetch it.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { api, type GraphListEntry } from '../api/client.ts';

export interface GraphListView {
  list: GraphListEntry[];
  /** Why the last fetch failed (shown in the explorer), or null. */
  error: string | null;
  /** False until the first answer (or failure) is in. */
  loaded: boolean;
  /** The graphs folder's absolute path, as `statewire serve` prints it (null until asked). */
  root: string | null;
}

export const graphListStore = createStore<GraphListView>()(() => ({
  list: [],
  error: null,
  loaded: false,
  root: null,
}));

export const useGraphList = <T>(pick: (s: GraphListView) => T): T => useStore(graphListStore, pick);

/**
 * Fetches the list (or takes `prefetched`, an answer already on its way) and stores it; resolves
 * with the list, empty after a failure (which the explorer shows).
 */
export async function loadGraphList(prefetched?: Promise<unknown>): Promise<GraphListEntry[]> {
  // Fetches overlap (a change notice during boot's fetch): only the last one asked for is shown,
  // so an older answer arriving late never replaces a newer list.
  const ticket = ++asked;
  try {
    const answer = await (prefetched ?? api.listGraphs());
    const list = Array.isArray(answer) ? (answer as GraphListEntry[]) : [];
    if (ticket === asked) graphListStore.setState({ list, error: null, loaded: true });
    return list;
  } catch (e) {
    if (ticket === asked) graphListStore.setState({ error: (e as Error).message, loaded: true });
    return [];
  }
}

let asked = 0;

/** Asks the server where its graphs folder is (the explorer's header shows it). */
export async function loadGraphsRoot(): Promise<void> {
  try {
    const answer = await api.graphFolders();
    if (typeof answer.root === 'string') graphListStore.setState({ root: answer.root });
  } catch {
    // The header then shows no path; the list itself reports a server that cannot be reached.
  }
}
