// Whether the server is answering requests: background work that only makes the database smaller
// (compaction) waits while a request is in flight and for a moment after the last one, so a
// restore or a timeline read right after a long run is not queued behind packing chunks.
import type { FastifyInstance } from 'fastify';

/** How long after the last answer the server still counts as busy (a user scrubbing a timeline). */
export const QUIET_AFTER_MS = 150;

export interface RequestActivity {
  /** A request is in flight, or the last one ended less than QUIET_AFTER_MS ago. */
  busy(): boolean;
}

export function trackRequestActivity(
  app: FastifyInstance,
  now: () => number = () => performance.now(),
): RequestActivity {
  let inFlight = 0;
  let lastEnd = -Infinity;
  app.addHook('onRequest', async () => {
    inFlight++;
  });
  // onResponse runs for every request that got onRequest, errors and aborted replies included.
  app.addHook('onResponse', async () => {
    inFlight = Math.max(0, inFlight - 1);
    lastEnd = now();
  });
  return { busy: () => inFlight > 0 || now() - lastEnd < QUIET_AFTER_MS };
}
