// REST calls of the run UI (/api/navigate/run… control, /api/runs… history). Errors carry the
// server's `{error:{code,message}}` text so the toolbar can show it verbatim.
import type { RunStartBody, RunSummary } from '../../domain/protocol/protocol.rest.ts';
import type { ForkPreview } from '../../domain/protocol/replay.schema.ts';
import type { EventsPage } from '../live/liveClient.ts';
import type { InspectedState } from './run.store.ts';
import { authHeaders } from '../api/token.ts';

async function call<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      // POSTs always say JSON (the server refuses others with 415, see src/server/http/originGuard.ts).
      headers: { ...(method === 'POST' ? { 'content-type': 'application/json' } : {}), ...authHeaders() },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    });
  } catch (e) {
    throw new Error(`server unreachable: ${(e as Error).message}`, { cause: e });
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (!res.ok) {
    const err = (parsed as { error?: { message?: unknown } } | undefined)?.error;
    const msg =
      typeof err?.message === 'string'
        ? err.message
        : typeof parsed === 'string' && parsed
          ? parsed
          : res.statusText;
    throw new Error(`${method} ${url} → ${res.status}: ${msg}`);
  }
  return parsed as T;
}

export interface ServerRunStatus {
  status: string;
  step: number;
  execution_id: string | null;
  step_delay_ms?: number;
}

export const runApi = {
  start: (body: RunStartBody) =>
    call<{ ok: boolean; execution_id: string; queued?: boolean }>('POST', '/api/navigate/run', body),
  pause: () => call<{ ok: boolean }>('POST', '/api/navigate/run/pause'),
  resume: () => call<{ ok: boolean }>('POST', '/api/navigate/run/resume'),
  step: () => call<{ ok: boolean; step: number; status: string }>('POST', '/api/navigate/run/step'),
  stop: () => call<{ ok: boolean }>('POST', '/api/navigate/run/stop'),
  delay: (ms: number) => call<{ ok: boolean }>('POST', '/api/navigate/run/delay', { step_delay_ms: ms }),
  status: () => call<ServerRunStatus>('GET', '/api/navigate/run/status'),
  restoreCurrent: (step: number) =>
    call<{ ok: boolean; restored_to: number }>('POST', `/api/navigate/run/restore/${step}`),
  restoreRun: (runId: string, step: number) =>
    call<{ ok: boolean; restored_to: number }>('POST', `/api/runs/${encodeURIComponent(runId)}/restore`, {
      step,
    }),
  fork: (runId: string, step: number, stepDelayMs: number, graph?: unknown) =>
    call<{ ok: boolean; run_id: string }>('POST', `/api/runs/${encodeURIComponent(runId)}/fork`, {
      step,
      step_delay_ms: stepDelayMs,
      paused: true,
      ...(graph !== undefined ? { graph } : {}),
    }),
  /** What a fork would reuse from the run's recording (docs/replay.md "Re-run without paying twice"). */
  forkPreview: (runId: string, step: number, graph?: unknown) =>
    call<ForkPreview>('POST', `/api/runs/${encodeURIComponent(runId)}/fork/preview`, {
      step,
      ...(graph !== undefined ? { graph } : {}),
    }),
  /** The newest runs of a graph (GET /api/runs filters by graph and pages; newest first). */
  listOfGraph: (graphName: string, limit: number) =>
    call<RunSummary[]>('GET', `/api/runs?graph=${encodeURIComponent(graphName)}&limit=${limit}`),
  run: (runId: string) => call<RunSummary>('GET', `/api/runs/${encodeURIComponent(runId)}`),
  graph: (runId: string) => call<unknown>('GET', `/api/runs/${encodeURIComponent(runId)}/graph`),
  state: (runId: string, step: number) =>
    call<InspectedState>('GET', `/api/runs/${encodeURIComponent(runId)}/state?step=${step}`),
  events: (runId: string, after: number, limit: number, type?: string) =>
    call<EventsPage>(
      'GET',
      `/api/runs/${encodeURIComponent(runId)}/events?after=${after}&limit=${limit}${type ? `&type=${encodeURIComponent(type)}` : ''}`,
    ),
};
