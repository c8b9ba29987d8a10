// services.call_overhead: what Statewire's node-service client adds to one `/call` round trip.
// An echo service written with the Python SDK (src/server/test/fixtures/echo_service.py) runs as a
// real process; ours = one `ServiceClient.call` (msgpack, a 1 KB input, decode of the answer into
// outputs), baseline = a bare keep-alive `http.request` POST of the very same bytes from Node to the
// same service, reading the whole answer. All three sides (this call, the recorded call below and the
// bare POST) take turns in one rotation (measureRotating), each repetition a batch of calls whose
// median is the sample, so both figures divide by the same bare samples; goal ≤ 1.5. `services.call_overhead_recorded` is the same call
// made the way a run makes it (issue: recording on): through the engine's one effect path
// (engine/effects.ts: lookup, intent committed before the call, answer recorded after it) into a real
// SQLite run store (db/effectStore.ts), against the same bare POST; goal ≤ 1.5.
// Standalone: `npx tsx bench/services.bench.ts`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeEffect, type EffectHost } from '../src/engine/effects.ts';
import { closeDatabase, openDatabase } from '../src/server/db/database.ts';
import { SqliteEffectStore } from '../src/server/db/effectStore.ts';
import { RunStore } from '../src/server/db/runStore.ts';
import { ServiceClient } from '../src/server/services/serviceClient.ts';
import { freePort } from '../src/server/services/serviceProcess.ts';
import { CONTENT_TYPE, encodeMsgpack } from '../src/server/services/wireCodec.ts';
import { ensurePython } from '../src/server/test/pythonService.testutil.ts';
import { REPO } from '../src/server/test/serverProcess.testutil.ts';
import { figure, measureRotating, median, type BenchResult } from './figures.ts';

const REPS = 15;
const CALLS_PER_REP = 60;
const WARMUP = 200;

/** The echo service on a free port; resolves once /health answers. */
async function startEcho(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(ensurePython(), ['echo_service.py', '--port', String(port)], {
    cwd: join(REPO, 'src/server/test/fixtures'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('echo service did not start within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, stop: () => child.kill('SIGTERM') };
}

/** One bare POST on a keep-alive agent: the same body, the whole answer read. */
function barePost(agent: Agent, url: URL, body: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: '/call/echo__echo',
        method: 'POST',
        headers: {
          'content-type': CONTENT_TYPE.msgpack,
          accept: CONTENT_TYPE.msgpack,
          'content-length': body.byteLength,
        },
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`)),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function perCall(n: number, call: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function run(): Promise<BenchResult> {
  const echo = await startEcho();
  const dir = mkdtempSync(join(tmpdir(), 'statewire-bench-calls-'));
  const db = openDatabase(join(dir, 'runs.db'));
  try {
    const data = 'statewire '.repeat(103).slice(0, 1024); // 1 KB of text
    const req = {
      inputs: { data },
      config: {},
      _exec: { execution_id: 'bench_run', grants: [], node_id: 'echo', step: 1 },
    };
    const client = new ServiceClient('echo', echo.url, 'msgpack', 10_000);
    const none = new Set<string>();
    const ours = async () => {
      const r = await client.call('echo__echo', req, none, none);
      if (r.outputs.data !== data) throw new Error('echo answered something else');
    };
    // A run's call: one step per call (a fresh idempotency key each time, as a run makes them).
    const host: EffectHost = {
      lineage: 'bench_run',
      options: { effects: new SqliteEffectStore(db, 'bench_run', new RunStore(db).blobs) },
      emit: () => undefined,
      now: () => performance.now(),
    };
    let step = 0;
    const recorded = async () => {
      const effect = makeEffect(host, ++step, 'echo');
      const r = await effect(
        { service: 'echo', fn: 'echo__echo', inputs: req.inputs, config: req.config },
        (callId) =>
          client.call('echo__echo', { ...req, _exec: { ...req._exec, call_id: callId } }, none, none),
        'service',
      );
      if (r.outputs.data !== data) throw new Error('echo answered something else');
    };
    const body = encodeMsgpack(req);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(echo.url);
    const bare = () => barePost(agent, url, body);
    for (let i = 0; i < WARMUP; i++) {
      await ours();
      await recorded();
      await bare();
    }
    // One rotation of all three sides: both figures are ratios to the very same bare samples (two
    // separate alternations measured the same bare POST 0.84 ms in one and 1.00 ms in the other).
    const [oursMs, recordedMs, bareMs] = await measureRotating(REPS, [
      () => perCall(CALLS_PER_REP, ours),
      () => perCall(CALLS_PER_REP, recorded),
      () => perCall(CALLS_PER_REP, bare),
    ]);
    const ab = { ours: oursMs!, baseline: bareMs! };
    const abRecorded = { ours: recordedMs!, baseline: bareMs! };
    agent.destroy();
    const figRecorded = figure(
      'services.call_overhead_recorded',
      'ms',
      { on: 'ratio', op: '<=', value: 1.5 },
      abRecorded.ours,
      abRecorded.baseline,
      'the same call as a run makes it: engine effect path (lookup, intent before the call, answer after) recorded in a real SQLite run store, vs the same bare POST; one rotation of the three sides',
    );
    const fig = figure(
      'services.call_overhead',
      'ms',
      { on: 'ratio', op: '<=', value: 1.5 },
      ab.ours,
      ab.baseline,
      'median /call round trip through ServiceClient (msgpack, 1 KB input, SDK echo service) vs a bare keep-alive http.request POST of the same bytes; one rotation of the three sides',
    );
    return {
      call_ms_p50: fig.ours,
      bare_ms_p50: fig.baseline,
      ratio: fig.ratio,
      body_bytes: body.byteLength,
      recorded_ms_p50: figRecorded.ours,
      recorded_ratio: figRecorded.ratio,
      figures: [fig, figRecorded],
    };
  } finally {
    echo.stop();
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await run();
  console.log(JSON.stringify(r, null, 2));
}
