// A graph's view settings (breakpoints) and the current run's breakpoints, over REST.
import type { Breakpoint } from '../../domain/debug/breakpoints.ts';
import type { ViewSettings } from '../../domain/debug/viewSettings.ts';
import { request } from './client.ts';

export const viewsApi = {
  get: (graphId: string) => request<ViewSettings>('GET', `/api/views/${encodeURIComponent(graphId)}`),
  put: (graphId: string, breakpoints: Breakpoint[]) =>
    request<ViewSettings>('PUT', `/api/views/${encodeURIComponent(graphId)}`, { breakpoints }),
  setRunBreakpoints: (breakpoints: Breakpoint[]) =>
    request<{ ok: true; count: number }>('PUT', '/api/navigate/run/breakpoints', { breakpoints }),
};
