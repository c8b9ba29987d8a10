// Node services in batch episodes: which processes a worker talks to (unit), and end to end with the
// real `statewire batch` binary and the Python gridworld service — shared by default (only the parent
// starts it; the children call it by URL), one process per worker with `per_worker: true`.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { ServicesReport } from '../../domain/services/manifest.ts';
import type { ServiceEntry } from '../services/servicesConfig.ts';
import { PY_GRAPH_FILE, writeGridworldServices } from '../test/pythonService.testutil.ts';
import { REPO, tempWorkspace } from '../test/serverProcess.testutil.ts';
import { entriesForEpisodeWorkers } from './episodeServices.ts';

const command = (name: string, perWorker: boolean): ServiceEntry => ({
  kind: 'command',
  name,
  command: ['python3', 'server.py'],
  cwdAbs: '/tmp',
  env: {},
  encoding: 'msgpack',
  timeout_s: 60,
  max_response_mb: 64,
  startup_timeout_s: 60,
  per_worker: perWorker,
});

const report = (services: { name: string; state: string; url: string | null }[]): ServicesReport =>
  ({ services, config_errors: [] }) as unknown as ServicesReport;

describe('entriesForEpisodeWorkers', () => {
  it('shares a running command service by URL, keeps per_worker and url entries, drops one that is down', () => {
    const url: ServiceEntry = {
      kind: 'url',
      name: 'remote',
      url: 'http://10.0.0.2:9000',
      encoding: 'json',
      timeout_s: 5,
      max_response_mb: 8,
    };
    const out = entriesForEpisodeWorkers(
      [command('shared', false), command('own', true), url, command('down', false)],
      report([
        { name: 'shared', state: 'up', url: 'http://127.0.0.1:4321' },
        { name: 'own', state: 'up', url: 'http://127.0.0.1:4322' },
        { name: 'down', state: 'down', url: null },
      ]),
    );
    expect(out).toEqual([
      {
        kind: 'url',
        name: 'shared',
        url: 'http://127.0.0.1:4321',
        encoding: 'msgpack',
        timeout_s: 60,
        max_response_mb: 64,
      },
      command('own', true),
      url,
    ]);
  });
});

describe('statewire batch with a node service', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  let graphFile: string;
  beforeAll(() => {
    ws = tempWorkspace();
    // The Python demo, shrunk: a 4×4 grid, short episodes.
    const g = JSON.parse(readFileSync(PY_GRAPH_FILE, 'utf8')) as GraphDef;
    g.step_budget = 12;
    for (const n of g.nodes) if (n.id === 'reset') n.config = { size: 4, max_steps: 12 };
    graphFile = join(ws.dir, 'graphs', 'py_batch.json');
    writeFileSync(graphFile, JSON.stringify(g));
  });
  afterAll(() => ws.cleanup());

  const batch = (): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((done) =>
      execFile(
        process.execPath,
        [join(REPO, 'bin/statewire.js'), 'batch', graphFile, '--episodes', '4', '--workers', '2', '--json'],
        { cwd: ws.dir, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 },
        (err, stdout, stderr) =>
          done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
      ),
    );
  /** Ports of the gridworld processes that announced themselves, by who started them. */
  const announced = (stderr: string) => {
    const byChild = new Map<string, string>();
    let parent = 0;
    for (const line of stderr.split('\n')) {
      const m = /gridworld [\d.]* ?listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (!m) continue;
      const child = /^\[(embedded-\d+)\]/.exec(line)?.[1];
      if (child) byChild.set(child, m[1]!);
      else parent++;
    }
    return { parent, byChild };
  };
  const episodes = (stdout: string) => (JSON.parse(stdout.trim()) as { episodes: EpisodeRow[] }).episodes;

  it('shared (default): the parent starts one process and every episode calls it', async () => {
    writeGridworldServices(ws.dir);
    const r = await batch();
    expect(r.code, r.stderr).toBe(0);
    expect(episodes(r.stdout).map((e) => [e.episode, e.status])).toEqual([
      [1, 'done'],
      [2, 'done'],
      [3, 'done'],
      [4, 'done'],
    ]);
    const a = announced(r.stderr);
    expect(a.parent).toBe(1);
    expect(a.byChild.size).toBe(0);
  }, 300_000);

  it('per_worker: each of the 2 workers starts its own process (distinct ports) and the episodes run on them', async () => {
    writeGridworldServices(ws.dir, { per_worker: true });
    const r = await batch();
    expect(r.code, r.stderr).toBe(0);
    const rows = episodes(r.stdout);
    expect(rows.every((e) => e.status === 'done' && e.steps > 0)).toBe(true);
    const a = announced(r.stderr);
    expect([...a.byChild.keys()].sort()).toEqual(['embedded-1', 'embedded-2']);
    expect(new Set(a.byChild.values()).size).toBe(2);
    // Each worker ran episodes (both children had work: 4 episodes over 2 workers).
    expect(new Set(rows.map((e) => e.worker)).size).toBe(2);
  }, 300_000);
});
