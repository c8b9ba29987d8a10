// What `statewire batch` prints without --json: one line per finished episode, then the aggregate
// as a small table. Pure text formatting (tested without running anything).
import type { BatchAggregate, EpisodeRow } from '../../domain/batch/batch.types.ts';

export const num = (v: number) => (Number.isInteger(v) ? String(v) : v.toPrecision(6).replace(/\.?0+$/, ''));

export function episodeLine(row: EpisodeRow, total: number): string {
  const metrics = Object.entries(row.metrics)
    .map(([k, v]) => `${k}=${num(v)}`)
    .join(' ');
  const who = [row.worker, row.duration_ms !== undefined ? `${row.duration_ms} ms` : undefined]
    .filter(Boolean)
    .join(', ');
  const retried = (row.attempts ?? 1) > 1 ? ` after ${row.attempts} attempts` : '';
  return [
    `episode ${row.episode}/${total} ${row.status}${retried}`,
    `steps ${row.steps}`,
    `success ${row.success ? 'yes' : 'no'}`,
    ...(metrics ? [metrics] : []),
    `seed ${row.seed}`,
    `run ${row.run_id}${who ? ` (${who})` : ''}`,
    ...(row.error ? [`error: ${row.error}`] : []),
  ].join(' | ');
}

/** Columns padded to their widest cell. */
export function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
}

export function aggregateLines(batchId: string, a: BatchAggregate, episodesPerS: number): string[] {
  const head = `batch ${batchId}: ${a.episodes} episodes, ${a.completed} done, ${a.failed} failed, success rate ${(a.success_rate * 100).toFixed(1)}%, mean steps ${num(a.mean_steps)}, ${episodesPerS} episodes/s`;
  const names = Object.keys(a.metrics);
  if (names.length === 0) return [head, 'no numeric metrics (outputs.metrics or numeric graphOut values)'];
  const rows = names.map((n) => {
    const m = a.metrics[n]!;
    return [n, num(m.mean), num(m.std), num(m.min), num(m.max), String(m.n)];
  });
  return [head, ...table([['metric', 'mean', 'std', 'min', 'max', 'n'], ...rows])];
}
