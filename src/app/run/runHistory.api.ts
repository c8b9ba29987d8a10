// REST of the Runs menu beyond run.api.ts: the filtered list (with each run's kind) and delete.
import type { RunKind, RunSummary } from '../../domain/protocol/protocol.rest.ts';
import { authHeaders } from '../api/token.ts';

/** An episode run's batch, as GET /api/runs says it (null for a run of no batch). */
export interface BatchOfRun {
  id: string;
  episode: number;
  episodes: number;
  status: string;
}

export type RunListItem = RunSummary & {
  kind?: RunKind;
  batch?: BatchOfRun | null;
  /** Pass as `before` for the page after this row. */
  cursor?: string;
};

/** Runs the menu lists: the newest 500 (the server's page limit), batches' episodes included. */
const MENU_RUNS = 500;

async function send<T>(method: 'GET' | 'DELETE', url: string): Promise<T> {
  const res = await fetch(url, {
    method,
    // A DELETE says JSON like every state change (src/server/http/originGuard.ts), with `{}` as body.
    headers: { ...(method === 'DELETE' ? { 'content-type': 'application/json' } : {}), ...authHeaders() },
    body: method === 'DELETE' ? '{}' : undefined,
  });
  const body = (await res.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status}: ${body?.error?.message ?? res.statusText}`);
  return body as T;
}

export const runHistoryApi = {
  list: () => send<RunListItem[]>('GET', `/api/runs?limit=${MENU_RUNS}`),
  remove: (runId: string) =>
    send<{ ok: boolean; deleted_events: number }>('DELETE', `/api/runs/${encodeURIComponent(runId)}`),
};
