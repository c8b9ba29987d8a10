// REST of the Batches view: start, list, one batch with its episodes and aggregate, cancel, and the
// CSV download (through fetch, so the API token goes along as a header like every other call).
import type { BatchAggregate, BatchRecord, BatchStatus, EpisodeRow } from '../../domain/batch/batch.types.ts';
import { messageOf, request } from '../api/client.ts';
import { authHeaders } from '../api/token.ts';

/** A batch as listed: its record without the graph. */
export type BatchSummary = Omit<BatchRecord, 'graph'>;

export interface BatchProgress {
  completed: number;
  failed: number;
  running: number;
  total: number;
  episodes_per_s: number;
  status: BatchStatus;
}

export interface BatchListItem {
  batch: BatchSummary;
  progress: BatchProgress;
}

export interface BatchDetail extends BatchListItem {
  episodes: EpisodeRow[];
  aggregate: BatchAggregate;
}

/** The socket.io notice `batch_progress`. */
export interface BatchProgressNotice extends BatchProgress {
  batch_id: string;
}

export interface BatchStartBody {
  loop_definition: unknown;
  episodes: number;
  workers?: number;
  seed?: number;
  set?: string[];
}

const at = (id: string) => `/api/batches/${encodeURIComponent(id)}`;

export const batchApi = {
  start: (body: BatchStartBody) => request<{ batch_id: string }>('POST', '/api/batches', body),
  list: () => request<BatchListItem[]>('GET', '/api/batches'),
  get: (id: string) => request<BatchDetail>('GET', at(id)),
  cancel: (id: string) => request<unknown>('POST', `${at(id)}/cancel`, {}),
};

/** Fetches the batch's CSV and hands it to the browser as a file; resolves with its name. */
export async function downloadBatchCsv(id: string, graphName: string): Promise<string> {
  const res = await fetch(`${at(id)}/csv`, { headers: authHeaders() });
  if (!res.ok) {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // plain text: shown as is
    }
    throw new Error(`CSV of batch ${id} (${res.status}): ${messageOf(body, text || res.statusText)}`);
  }
  const given = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1];
  const stem = (graphName || 'batch').replace(/[^\w.-]+/g, '_');
  const name = given ?? `${stem}-${id}.csv`;
  const href = URL.createObjectURL(await res.blob());
  const link = Object.assign(document.createElement('a'), { href, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 0);
  return name;
}
