// The figures of docs/reliability.md "Hostile input": each attack of issue 27 (items 7–9, 11) against
// a fresh real `statewire serve`, with `/api/health` asked back to back from a worker thread.
// `--repo DIR` measures another checkout (e.g. a `git archive` of an older commit with this
// node_modules linked in) for the before/after table. Standalone, not part of `npm run bench`:
//   npx tsx bench/hostileInput.measure.ts [--repo DIR] [--only bomb,import,sets,batches,stop]
// `bomb` uses 22 levels (one answer of ~250 MB): at 30 the server before the fix never answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  bombBlobs,
  makeBundle,
  navStep,
  nodeStatus,
  postBundle,
  TS,
} from '../src/server/test/bundles.testutil.ts';
import { api, demoGraph, REPO, tempWorkspace, waitFor } from '../src/server/test/serverProcess.testutil.ts';
import { childPids, probeHealth, type HealthStats } from '../src/server/test/serverWatch.testutil.ts';
import { SLOW_GRAPH, startSlowService } from '../src/server/test/slowService.testutil.ts';

const { values } = parseArgs({ options: { repo: { type: 'string' }, only: { type: 'string' } } });
const repo = resolve(values.repo ?? REPO);
const only = values.only?.split(',');

interface Serve {
  url: string;
  proc: ChildProcess;
  stop: () => Promise<void>;
}

function serve(extra: string[] = []): Promise<Serve> {
  const ws = tempWorkspace();
  const proc = spawn(
    process.execPath,
    [
      join(repo, 'bin/statewire.js'),
      'serve',
      '--port',
      '0',
      '--workspace',
      ws.dir,
      '--dist',
      join(ws.dir, 'dist'),
      ...extra,
    ],
    { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  return new Promise((done, fail) => {
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m)
        done({
          url: m[1]!,
          proc,
          stop: async () => {
            proc.kill('SIGKILL');
            await new Promise((r) => proc.once('exit', r));
            ws.cleanup();
          },
        });
    });
    proc.once('exit', (code) => fail(new Error(`server exited ${code}: ${out}`)));
  });
}

const rssMb = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const v = await fn();
  return [v, Math.round(performance.now() - t0)];
}

const rows: { attack: string; result: string; health: HealthStats }[] = [];

async function attack(name: string, extra: string[], fn: (s: Serve) => Promise<string>): Promise<void> {
  if (only && !only.includes(name)) return;
  const s = await serve(extra);
  try {
    const probe = await probeHealth(s.url);
    const result = await fn(s).catch((e: unknown) => `failed: ${(e as Error).message}`);
    rows.push({ attack: name, result, health: await probe.stop() });
  } finally {
    await s.stop();
  }
}

await attack('bomb', [], async (s) => {
  const bundle = makeBundle({
    events: [[1, 'nav_step', TS, navStep(1, { bomb: { $sw: 1 } })]],
    blobs: bombBlobs(22),
  });
  const [imp, importMs] = await timed(() => postBundle(s.url, bundle));
  const imported = imp.body as { run_id?: string; error?: { code: string } };
  if (!imported.run_id)
    return `${bundle.length} B bundle: import ${imp.status} ${imported.error?.code} in ${importMs} ms`;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(s.proc.pid!))), 50);
  const [ev, readMs] = await timed(async () => {
    const r = await fetch(`${s.url}/api/runs/${imported.run_id}/events`, {
      signal: AbortSignal.timeout(120_000),
    });
    return { status: r.status, bytes: (await r.arrayBuffer()).byteLength };
  });
  clearInterval(sampler);
  return `${bundle.length} B bundle: import ${imp.status} in ${importMs} ms; events ${ev.status}, ${ev.bytes} B in ${readMs} ms; server RSS peak ${Math.round(peak)} MB`;
});

await attack('import', [], async (s) => {
  const bundle = makeBundle({ events: { count: 1_000_000, event: nodeStatus } });
  const [r, ms] = await timed(() => postBundle(s.url, bundle));
  return `1,000,000 events (${bundle.length} B): ${r.status} in ${ms} ms`;
});

await attack('sets', [], async (s) => {
  const set = Array.from({ length: 100_000 }, (_, i) => `step_budget=${(i % 50) + 1}`);
  const [r, ms] = await timed(() =>
    api(s.url, 'POST', '/api/batches', { loop_definition: demoGraph(5), episodes: 1, set }),
  );
  return `100,000 --set entries: ${r.status} in ${ms} ms`;
});

await attack('batches', [], async (s) => {
  const body = { loop_definition: demoGraph(40), episodes: 8, workers: 64 };
  const ids = [
    (await api(s.url, 'POST', '/api/batches', body)).body.batch_id as string,
    (await api(s.url, 'POST', '/api/batches', { ...body, seed: 7 })).body.batch_id as string,
  ];
  let most = 0;
  let rss = 0;
  const sampler = setInterval(() => {
    const kids = childPids(s.proc.pid!, 'episodeChild');
    most = Math.max(most, kids.length);
    rss = Math.max(
      rss,
      kids.reduce((sum, pid) => sum + rssMb(pid), 0),
    );
  }, 100);
  const [, ms] = await timed(() =>
    waitFor(
      async () => {
        for (const id of ids)
          if ((await api(s.url, 'GET', `/api/batches/${id}`)).body.batch.status !== 'done') return false;
        return true;
      },
      600_000,
      'the batches',
    ),
  );
  clearInterval(sampler);
  return `2 batches × 8 episodes, 64 workers asked: at most ${most} episode processes (${Math.round(rss)} MB), done in ${ms} ms`;
});

// A node service answering after 40 s; the run is stopped while its call is in flight.
const service = await startSlowService(40_000);
await attack('stop', ['--service', `slowset=${service.url}`], async (s) => {
  await waitFor(
    async () => (await api(s.url, 'GET', '/api/services')).body.services[0]?.state === 'up',
    30_000,
  );
  await api(s.url, 'POST', '/api/navigate/run', { loop_definition: SLOW_GRAPH, step_delay_ms: 0 });
  await waitFor(() => service.calls.length > 0, 10_000, 'the call');
  const [, ms] = await timed(() => api(s.url, 'POST', '/api/navigate/run/stop'));
  const status = (await api(s.url, 'GET', '/api/navigate/run/status')).body.status as string;
  return `stop during a 40 s service call: answered in ${ms} ms, run ${status}`;
});
service.close();

console.log(`repo ${repo}`);
for (const r of rows)
  console.log(
    `${r.attack.padEnd(8)} health max ${String(r.health.maxMs).padStart(6)} ms, p95 ${String(r.health.p95Ms).padStart(5)} ms, ${r.health.failures} failed | ${r.result}`,
  );
