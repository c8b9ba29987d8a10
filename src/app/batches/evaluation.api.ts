// REST of the Batches view's evaluation: compare two batches, the first step where a pair of runs
// differ, query a batch; and their CSV downloads (src/server/batch/evaluation.routes.ts).
import type { BatchComparison } from '../../domain/batch/compare.ts';
import type { BatchQueryResult, FirstDifferenceResult } from '../../domain/batch/evaluation.schema.ts';
import { request } from '../api/client.ts';
import { downloadCsv } from './batch.api.ts';

const qs = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  ).toString();

const compareUrl = (a: string, b: string, metric?: string, format?: string) =>
  `/api/batches/compare?${qs({ a, b, metric, format })}`;
const queryUrl = (id: string, q: string, format?: string) =>
  `/api/batches/${encodeURIComponent(id)}/query?${qs({ q, format })}`;

export const evaluationApi = {
  compare: (a: string, b: string, metric?: string) =>
    request<BatchComparison>('GET', compareUrl(a, b, metric)),
  firstDiff: (a: string, b: string) =>
    request<FirstDifferenceResult>('GET', `/api/batches/compare/first-diff?${qs({ a, b })}`),
  query: (id: string, q: string) => request<BatchQueryResult>('GET', queryUrl(id, q)),
  /** The graph a batch ran (its version: `--set` applied, before per-episode seeding). */
  batchGraph: (id: string) => request<unknown>('GET', `/api/batches/${encodeURIComponent(id)}/graph`),
  downloadCompare: (a: string, b: string, metric?: string) =>
    downloadCsv(compareUrl(a, b, metric, 'csv'), `compare-${a}-${b}.csv`, `CSV of ${a} vs ${b}`),
  downloadQuery: (id: string, q: string) =>
    downloadCsv(queryUrl(id, q, 'csv'), `query-${id}.csv`, `CSV of the query on ${id}`),
};
