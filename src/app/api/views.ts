// A graph's view settings (breakpoints) and the current run's breakpoints, over REST.
import type { Breakpoint } from '../../domain/debug/breakpoints.ts';
import type { ViewSettings } from '../../domain/debug/viewSettings.ts';
import { authHeaders } from './token.ts';

async function send<T>(method: 'GET' | 'PUT', url: string, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { ...(method === 'PUT' ? { 'content-type': 'application/json' } : {}), ...authHeaders() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await res.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
  if (!res.ok) throw new Error(parsed?.error?.message ?? `${method} ${url} → ${res.status}`);
  return parsed as T;
}

export const viewsApi = {
  get: (graphId: string) => send<ViewSettings>('GET', `/api/views/${encodeURIComponent(graphId)}`),
  put: (graphId: string, breakpoints: Breakpoint[]) =>
    send<ViewSettings>('PUT', `/api/views/${encodeURIComponent(graphId)}`, { breakpoints }),
  setRunBreakpoints: (breakpoints: Breakpoint[]) =>
    send<{ ok: true; count: number }>('PUT', '/api/navigate/run/breakpoints', { breakpoints }),
};
