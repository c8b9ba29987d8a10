// An episode's metrics and success, read from its `run_result`. The convention is the reference
// system's eval graphs: a top-level graphOut with portName `metrics` carries an object of numbers and
// one with portName `success` says whether the episode succeeded. Graphs without them still give
// numbers: every other numeric top-level output is a metric too.
import type { RunResultData } from '../protocol/protocol.ts';

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Numeric fields of `outputs.metrics` plus the other numeric top-level outputs (a name in both:
 * the `metrics` object's value wins, it is the graph's explicit statement), over `shown` (what
 * Metrics viewers showed last). NaN and ±Infinity are
 * left out: they would poison every mean and cannot be written as JSON.
 */
export function episodeMetrics(
  outputs: Record<string, unknown>,
  shown: Record<string, number> = {},
): Record<string, number> {
  const out: Record<string, number> = { ...shown };
  for (const [name, v] of Object.entries(outputs)) if (name !== 'metrics' && isFiniteNumber(v)) out[name] = v;
  const m = outputs.metrics;
  if (typeof m === 'object' && m !== null && !Array.isArray(m))
    for (const [name, v] of Object.entries(m)) if (isFiniteNumber(v)) out[name] = v;
  return out;
}

/**
 * Success: `outputs.success` when the graph gives one (truthy = success), else a numeric `success`
 * metric > 0, else whether the run finished as `done`. An episode that ended in `error` never counts
 * as a success: its outputs are whatever the run had when it failed.
 */
export function episodeSuccess(
  result: Pick<RunResultData, 'status' | 'outputs'>,
  metrics: Record<string, number>,
): boolean {
  if (result.status === 'error') return false;
  const s = result.outputs.success;
  if (s !== undefined && s !== null) return Boolean(s);
  if (metrics.success !== undefined) return metrics.success > 0;
  return result.status === 'done';
}

/**
 * The numbers a Metrics viewer showed (`viewer_data` fields `{metrics: {...}}`), by name; the
 * newest wins. Graphs like the demo report their per-episode figures (reward, success, distance)
 * this way rather than through a `metrics` graphOut.
 */
export function shownMetrics(fields: unknown, into: Record<string, number> = {}): Record<string, number> {
  const m = (fields as { metrics?: unknown } | null)?.metrics;
  if (typeof m === 'object' && m !== null && !Array.isArray(m))
    for (const [name, v] of Object.entries(m)) if (isFiniteNumber(v)) into[name] = v;
  return into;
}

/** Metrics and success of one `run_result` (plus what Metrics viewers showed last, outputs winning). */
export function scoreEpisode(
  result: Pick<RunResultData, 'status' | 'outputs'>,
  shown: Record<string, number> = {},
): {
  metrics: Record<string, number>;
  success: boolean;
} {
  const metrics = episodeMetrics(result.outputs, shown);
  return { metrics, success: episodeSuccess(result, metrics) };
}
