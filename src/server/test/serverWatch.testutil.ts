// Watching a real server while a test attacks it: `/api/health` asked back to back from a worker
// thread (so the test's own work — building a bundle, decoding a replay — never delays the probe and
// blames the server), the episode processes it has forked, and the rows of its database.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';

export interface HealthStats {
  /** Answers received. */
  answers: number;
  /** Requests that failed (connection refused, reset, not 200). */
  failures: number;
  /** The slowest answer, or the age of one still pending when the probe stopped (ms). */
  maxMs: number;
  p95Ms: number;
}

const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
let pendingSince = 0;
parentPort.on('message', () => parentPort.postMessage({ pendingMs: pendingSince ? Date.now() - pendingSince : 0 }));
(async () => {
  for (;;) {
    pendingSince = Date.now();
    let ok = false;
    try {
      const res = await fetch(workerData.url + '/api/health', { signal: AbortSignal.timeout(120000) });
      ok = res.status === 200;
      await res.text();
    } catch {}
    const ms = Date.now() - pendingSince;
    pendingSince = 0;
    parentPort.postMessage({ ms, ok });
    await new Promise((r) => setTimeout(r, 20));
  }
})();
`;

/**
 * Starts asking `url`'s `/api/health` back to back and resolves once the first answer is in (so the
 * probe is watching before the attack starts); `stop()` ends it and says how it went.
 */
export async function probeHealth(url: string): Promise<{ stop: () => Promise<HealthStats> }> {
  const worker = new Worker(PROBE, { eval: true, workerData: { url } });
  const times: number[] = [];
  let failures = 0;
  let pendingMs = 0;
  let answered: (() => void) | undefined;
  let first!: () => void;
  const watching = new Promise<void>((resolve) => (first = resolve));
  worker.on('message', (m: { ms?: number; ok?: boolean; pendingMs?: number }) => {
    if (m.pendingMs !== undefined) {
      pendingMs = m.pendingMs;
      answered?.();
    } else if (m.ok) {
      times.push(m.ms!);
      first();
    } else failures++;
  });
  await watching;
  return {
    stop: async () => {
      await new Promise<void>((resolve) => {
        answered = resolve;
        worker.postMessage('pending?');
      });
      await worker.terminate();
      const sorted = [...times].sort((a, b) => a - b);
      return {
        answers: times.length,
        failures,
        maxMs: Math.max(pendingMs, sorted[sorted.length - 1] ?? 0),
        p95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
      };
    },
  };
}

/**
 * Pids of the live children of `pid` whose command line contains `command` (from /proc: Linux only,
 * as the fault tests are).
 */
export function childPids(pid: number, command = ''): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so split after the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== pid || fields[0] === 'Z') continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(command)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Row counts of a workspace's run database (read-only, beside the server that has it open). */
export function dbCounts(workspace: string): Record<string, number> {
  const db = new Database(join(workspace, '.statewire', 'runs.db'), { readonly: true });
  try {
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((t) => t.name);
    return Object.fromEntries(
      tables.map((t) => [t, db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM "${t}"`).get()!.n]),
    );
  } finally {
    db.close();
  }
}
