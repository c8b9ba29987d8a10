// REST client for the statewire server (/api/graphs, /api/components). Every failure becomes an
// ApiError carrying the HTTP status and the server's message, so callers can show it verbatim.
import { authHeaders } from './token.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

export async function request<T>(
  method: string,
  url: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      // Every state-changing call says JSON, even without a body: the server refuses others (415),
      // which is what keeps another site's form or no-cors POST out.
      headers: {
        ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
        ...authHeaders(),
        ...extraHeaders,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, `server unreachable: ${(e as Error).message}`);
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (!res.ok) {
    const msg = messageOf(parsed, text || res.statusText);
    throw new ApiError(res.status, `${method} ${url} → ${res.status}: ${msg}`, parsed);
  }
  return parsed as T;
}

/** The server's own words: `{error:{code,message}}` (this server), else `{message}`/`{error}`/`{detail}`. */
export function messageOf(parsed: unknown, fallback: string): string {
  if (typeof parsed !== 'object' || parsed === null) return fallback;
  const p = parsed as { message?: unknown; error?: unknown; detail?: unknown };
  const nested =
    typeof p.error === 'object' && p.error !== null ? (p.error as { message?: unknown }).message : undefined;
  const m = nested ?? p.message ?? p.error ?? p.detail;
  if (m === undefined || m === null) return fallback;
  return typeof m === 'string' ? m : JSON.stringify(m);
}

/** The `{error:{code}}` of a failed call (`disk-full`, `stale`…), when the server sent one. */
export function errorCodeOf(e: unknown): string | undefined {
  const body = e instanceof ApiError ? e.body : undefined;
  const err = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

const enc = (id: string) => id.split('/').map(encodeURIComponent).join('/');

export interface GraphListEntry {
  _id: string;
  folder?: string;
  name?: string;
  kind?: string;
  description?: string;
  /** Why the file does not read as a graph (it opens as an error view). */
  _error?: string;
}

export const api = {
  /** The explorer's list: ids, folders, names, kinds and descriptions, no graphs. */
  listGraphs: () => request<GraphListEntry[]>('GET', '/api/graphs?view=summary'),
  /** Folders under workspace/graphs and that folder's absolute path (`root`). */
  graphFolders: () => request<{ folders: string[]; root?: string }>('GET', '/api/graphs/folders'),
  getGraph: (id: string) => request<unknown>('GET', `/api/graphs/${enc(id)}`),
  /**
   * With `etag`, the server refuses (409) if the file changed since that version was read. A file
   * that does not read as a graph is replaced only with `replaceUnreadable` (else 409 `unreadable-file`).
   */
  putGraph: (id: string, graph: unknown, etag?: string, opts: { replaceUnreadable?: boolean } = {}) =>
    request<{ id: string; path?: string }>(
      'PUT',
      `/api/graphs/${enc(id)}`,
      opts.replaceUnreadable ? { ...(graph as object), replace_unreadable: true } : graph,
      etag ? { 'if-match': `"${etag}"` } : {},
    ),
  createGraph: (
    graph: unknown,
    opts: { folder?: string; overwrite?: boolean; replaceUnreadable?: boolean } = {},
  ) =>
    request<{ id: string; path?: string }>('POST', '/api/graphs', {
      ...(graph as object),
      ...(opts.folder ? { folder: opts.folder } : {}),
      ...(opts.overwrite ? { overwrite: true } : {}),
      ...(opts.replaceUnreadable ? { replace_unreadable: true } : {}),
    }),
  deleteGraph: (id: string) => request<unknown>('DELETE', `/api/graphs/${enc(id)}`),
  layout: (graph: unknown, dimensions: Record<string, { width: number; height: number }>) =>
    request<unknown>('POST', '/api/graphs/layout', { ...(graph as object), dimensions }),
  nodeSchemas: () => request<unknown>('GET', '/api/components/node-schemas'),
  /** Node services: `ServicesReport` (parsed by the caller, src/app/services/servicesSync.ts). */
  services: () => request<unknown>('GET', '/api/services'),
  reloadServices: () => request<unknown>('POST', '/api/services/reload', {}),
  serviceLog: (name: string) =>
    request<{ name: string; lines: string[] }>('GET', `/api/services/${encodeURIComponent(name)}/log`),
};
