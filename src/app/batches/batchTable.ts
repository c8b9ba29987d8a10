// Pure helpers of the Batches view: the episode table's columns and sort, and the progress bar's
// numbers (finished / failed / running shares, episodes per second, time left).
import type { BatchStatus, EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { BatchProgress } from '../../domain/batch/progress.ts';

export type FixedColumn = 'episode' | 'seed' | 'status' | 'steps' | 'success';
/** A fixed column, or `metric:<name>` for one of the episodes' metrics. */
export type SortKey = FixedColumn | `metric:${string}`;

export interface SortSpec {
  key: SortKey;
  dir: 'asc' | 'desc';
}

export const DEFAULT_SORT: SortSpec = { key: 'episode', dir: 'asc' };
export const FIXED_COLUMNS: readonly FixedColumn[] = ['episode', 'seed', 'status', 'steps', 'success'];

export const metricKey = (name: string): SortKey => `metric:${name}`;

/** Every metric name any episode reports, alphabetically (one table column each). */
export function metricNames(rows: readonly EpisodeRow[]): string[] {
  const names = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r.metrics)) names.add(k);
  return [...names].sort((a, b) => a.localeCompare(b));
}

/** The value a column shows for a row (undefined: the episode has none). */
export function cellValue(row: EpisodeRow, key: SortKey): number | string | boolean | undefined {
  if (key.startsWith('metric:')) {
    const v = row.metrics[key.slice('metric:'.length)];
    return typeof v === 'number' && !Number.isNaN(v) ? v : undefined;
  }
  return row[key as FixedColumn];
}

function compare(a: number | string | boolean, b: number | string | boolean): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b));
}

/**
 * The rows sorted by a column. Episodes without a value in that column come last in either
 * direction; equal values keep episode order.
 */
export function sortEpisodes(rows: readonly EpisodeRow[], spec: SortSpec): EpisodeRow[] {
  const sign = spec.dir === 'asc' ? 1 : -1;
  return [...rows].sort((x, y) => {
    const a = cellValue(x, spec.key);
    const b = cellValue(y, spec.key);
    if (a === undefined || b === undefined) {
      if (a !== b) return a === undefined ? 1 : -1;
    } else {
      const c = compare(a, b);
      if (c !== 0) return sign * c;
    }
    return x.episode - y.episode;
  });
}

/** x = episode numbers in order, y = the column's number (null where an episode has none). */
export function chartSeries(
  episodes: readonly EpisodeRow[],
  key: SortKey,
): { xs: number[]; ys: (number | null)[] } {
  const rows = [...episodes].sort((a, b) => a.episode - b.episode);
  return {
    xs: rows.map((r) => r.episode),
    ys: rows.map((r) => {
      const v = cellValue(r, key);
      return typeof v === 'number' && Number.isFinite(v) ? v : null;
    }),
  };
}

/** A header click: the same column flips direction, another column sorts ascending. */
export function nextSort(cur: SortSpec, key: SortKey): SortSpec {
  return cur.key === key ? { key, dir: cur.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: 'asc' };
}

const TERMINAL: ReadonlySet<BatchStatus> = new Set(['done', 'error', 'cancelled']);
export const isTerminal = (s: BatchStatus): boolean => TERMINAL.has(s);

/** Episodes that have ended, whether they succeeded or failed. */
export const finishedOf = (p: BatchProgress): number => Math.min(p.total, p.completed + p.failed);

/**
 * Which of two reports of one batch's progress is newer: a poll answer can arrive after a notice
 * sent later. Counts only grow and an ended batch stays ended, so the further one wins; on a tie
 * the one that arrived last (`b`).
 */
export function newerProgress(a: BatchProgress | undefined, b: BatchProgress): BatchProgress {
  if (!a) return b;
  if (isTerminal(a.status) !== isTerminal(b.status)) return isTerminal(a.status) ? a : b;
  return finishedOf(a) > finishedOf(b) ? a : b;
}

export interface ProgressView {
  finished: number;
  total: number;
  /** Shares of the bar, percent: succeeded-or-done episodes, failed ones, ones running now. */
  donePct: number;
  failedPct: number;
  runningPct: number;
  /** `5/8` */
  label: string;
  /** `3.2 ep/s` (`–` before the first episode ends). */
  rate: string;
  /** `~12 s left`, or null when ended / unknown. */
  eta: string | null;
}

const pct = (n: number, total: number) => (total > 0 ? Math.max(0, Math.min(100, (100 * n) / total)) : 0);

export function formatSeconds(s: number): string {
  const sec = Math.ceil(s);
  if (sec < 60) return `${sec} s`;
  if (sec < 3600) return `${Math.floor(sec / 60)} min ${String(sec % 60).padStart(2, '0')} s`;
  return `${Math.floor(sec / 3600)} h ${String(Math.floor((sec % 3600) / 60)).padStart(2, '0')} min`;
}

export function progressView(p: BatchProgress): ProgressView {
  const finished = finishedOf(p);
  const failed = Math.min(p.failed, finished);
  const running = Math.max(0, Math.min(p.running, p.total - finished));
  const left = p.total - finished;
  const rate = Number.isFinite(p.episodes_per_s) && p.episodes_per_s > 0 ? p.episodes_per_s : 0;
  return {
    finished,
    total: p.total,
    donePct: pct(finished - failed, p.total),
    failedPct: pct(failed, p.total),
    runningPct: pct(running, p.total),
    label: `${finished}/${p.total}`,
    rate: rate > 0 ? `${rate >= 10 ? rate.toFixed(0) : rate.toFixed(1)} ep/s` : '– ep/s',
    eta: !isTerminal(p.status) && left > 0 && rate > 0 ? `~${formatSeconds(left / rate)} left` : null,
  };
}

/** `0.73128` → `0.7313`, `1234.5678` → `1234.6`, `1e-7` → `1.00e-7`: short, for table cells. */
export function formatMetric(v: number | undefined): string {
  if (v === undefined || Number.isNaN(v)) return '–';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞';
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e6)) return v.toExponential(2);
  return String(Number(a >= 100 ? v.toFixed(1) : v.toPrecision(4)));
}
