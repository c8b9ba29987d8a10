// REST of the Batches view: start, list, one batch with its episodes and aggregate, cancel, and the
// CSV download (through fetch, so the API token goes along as a header like every other call).
import type { z } from 'zod';
import type { BatchStartBodySchema } from '../../domain/batch/batch.schema.ts';
import type { BatchDetail, BatchListItem } from '../../domain/batch/progress.ts';
import { messageOf, request } from '../api/client.ts';
import { authHeaders } from '../api/token.ts';

/** What the editor posts (the schema's input: workers, seed and set may be left out). */
export type BatchStartBody = z.input<typeof BatchStartBodySchema>;

const at = (id: string) => `/api/batches/${encodeURIComponent(id)}`;

export const batchApi = {
  start: (body: BatchStartBody) => request<{ batch_id: string }>('POST', '/api/batches', body),
  list: () => request<BatchListItem[]>('GET', '/api/batches'),
  get: (id: string) => request<BatchDetail>('GET', at(id)),
  cancel: (id: string) => request<unknown>('POST', `${at(id)}/cancel`, {}),
};

/** Fetches the batch's CSV and hands it to the browser as a file; resolves with its name. */
export function downloadBatchCsv(id: string, graphName: string): Promise<string> {
  const stem = (graphName || 'batch').replace(/[^\w.-]+/g, '_');
  return downloadCsv(`${at(id)}/csv`, `${stem}-${id}.csv`, `CSV of batch ${id}`);
}

/**
 * Fetches a CSV answer (with the API token as a header, like every call) and hands it to the browser
 * as a file named as the server says (else `fallbackName`); resolves with the name.
 */
export async function downloadCsv(url: string, fallbackName: string, what: string): Promise<string> {
  const res = await fetch(url, { headers: authHeaders() });
  if (!res.ok) {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // plain text: shown as is
    }
    throw new Error(`${what} (${res.status}): ${messageOf(body, text || res.statusText)}`);
  }
  const given = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1];
  const name = given ?? fallbackName;
  const href = URL.createObjectURL(await res.blob());
  const link = Object.assign(document.createElement('a'), { href, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 0);
  return name;
}
