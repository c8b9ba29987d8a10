// `GET /api/health`, per dependency: each store the server needs (its SQLite file; in distributed
// mode PostgreSQL and Redis too) is probed, every probe bounded (PROBE_MS) so that a dependency that
// hangs — a paused Redis keeps the socket open and never answers — reads `down` within 2 s (the
// probe gives up after 1.5 s, leaving room for the answer) instead of holding the answer. The report keeps flat `"<name>": "up" | "down"` fields for scripts and adds
// each probe's latency, or why it failed and since when, under `checks`.

/** How long one probe may take before its dependency counts as down. */
export const PROBE_MS = 1500;

export interface DependencyCheck {
  status: 'up' | 'down';
  /** Round trip of the probe (ms) when up. */
  latency_ms: number | null;
  /** Why it is down (or the last failure seen, when up again). */
  error?: string;
  /** When that failure was seen (ISO time). */
  error_at?: string;
}

export type DependencyName = 'sqlite' | 'postgres' | 'redis';

export interface HealthReport {
  ok: boolean;
  mode: 'embedded' | 'distributed';
  sqlite?: 'up' | 'down';
  postgres?: 'up' | 'down';
  redis?: 'up' | 'down';
  checks: Partial<Record<DependencyName, DependencyCheck>>;
}

/**
 * Runs `fn` (which resolves when the dependency answered, and rejects or returns false when it did
 * not) within `ms`: up with its latency, or down saying why. Never throws, never waits longer.
 */
export async function probe(fn: () => Promise<boolean | void>, ms = PROBE_MS): Promise<DependencyCheck> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const answer = await Promise.race([
      fn(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
    if (answer === false) return { status: 'down', latency_ms: null, error: 'unexpected answer' };
    return { status: 'up', latency_ms: Math.round(performance.now() - started) };
  } catch (err) {
    return {
      status: 'down',
      latency_ms: null,
      error: err instanceof Error ? err.message : String(err),
      error_at: new Date().toISOString(),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The report of `checks`: ok when every one is up. */
export function healthReport(
  mode: HealthReport['mode'],
  checks: Partial<Record<DependencyName, DependencyCheck>>,
): HealthReport {
  const report: HealthReport = { ok: true, mode, checks };
  for (const [name, check] of Object.entries(checks) as [DependencyName, DependencyCheck][]) {
    report[name] = check.status;
    if (check.status === 'down') report.ok = false;
  }
  return report;
}
