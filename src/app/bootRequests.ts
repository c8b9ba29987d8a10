// The first requests of a page load, sent by the entry module (main.tsx) before the app's bundle is
// fetched, parsed and run: on a big deep-linked graph the server's answer and the bundle's start-up
// are the two longest waits of the first render, and this way they overlap instead of adding up.
// The local journal's read (IndexedDB) starts here too: opening the database takes a while, and boot
// awaits the journal before it opens the deep link. This module imports only the REST client and the
// journal (no React, no store), so it stays in the small entry chunk.
import { api } from './api/client.ts';
import { readJournal } from './files/journal.ts';

export type BootRequestKind = 'graph' | 'graphs' | 'catalog' | 'services' | 'journal';

const pending = new Map<string, Promise<unknown>>();

const keyOf = (kind: BootRequestKind, arg = '') => `${kind}:${arg}`;

function send(kind: BootRequestKind, arg: string, request: () => Promise<unknown>): void {
  const answer = request();
  answer.catch(() => {}); // a failure is reported by whoever takes the answer
  pending.set(keyOf(kind, arg), answer);
}

/**
 * Sends the deep link's graph (`?graph=<id>`), the node catalog, the node-services report and the
 * saved-graph list, and starts reading the local journal.
 */
export function startBootRequests(search: string = window.location.search): void {
  const graphId = new URLSearchParams(search).get('graph');
  if (graphId) send('graph', graphId, () => api.getGraph(graphId));
  send('catalog', '', () => api.nodeSchemas());
  send('services', '', () => api.services());
  send('graphs', '', () => api.listGraphs());
  send('journal', '', readJournal);
}

/**
 * The answer of a boot request, once: a second caller (a later reload of the catalog, another
 * boot in a test) gets undefined and asks the server itself, so no one reads a stale answer.
 */
export function takeBootRequest(kind: BootRequestKind, arg = ''): Promise<unknown> | undefined {
  const key = keyOf(kind, arg);
  const answer = pending.get(key);
  pending.delete(key);
  return answer;
}
