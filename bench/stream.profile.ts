// Where the live server's time goes at step_delay_ms 0: starts a REAL `statewire serve` (under
// `--cpu-prof` when PROF=<dir> is set; the profile is written when it exits), drives a 200-step
// warm-up and N (default 3) 2,000-step demo runs with one client subscribed as the app is (packed
// batches), and prints the events/s each run reached and the server's CPU time for it (user +
// system, from /proc: on a shared machine a steadier figure than the rate). The profile is read with any CPU-profile
// viewer (Chrome DevTools, speedscope); docs/performance.md (Live stream) says what was found.
// Usage: PROF=/tmp/prof npx tsx bench/stream.profile.ts [N]   (SUBSCRIBE='{"batch":true,"fullValues":true}' overrides the subscribe message)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import { unpackEvents } from '../src/domain/protocol/packedEvents.ts';
import type { EventEnvelope } from '../src/domain/protocol/protocol.ts';
import { api, demoGraph, REPO, tempWorkspace, waitFor } from '../src/server/test/serverProcess.testutil.ts';

async function startServer(dir: string) {
  const prof = process.env.PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROF}`] : [];
  const args = [...prof, join(REPO, 'bin/statewire.js'), 'serve', '--port', '0', '--workspace', dir];
  const proc = spawn(process.execPath, [...args, '--dist', join(dir, 'dist')], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise<string>((res) =>
    proc.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m?.[1]) res(m[1]);
    }),
  );
  const stop = () =>
    new Promise<void>((r) => {
      proc.once('exit', () => r());
      proc.kill('SIGTERM');
    });
  /** CPU ms (user + system) the server has used so far (Linux /proc; clock ticks of 10 ms). */
  const cpuMs = () => {
    const f = readFileSync(`/proc/${proc.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  };
  return { url, stop, cpuMs };
}

const ws = tempWorkspace();
const server = await startServer(ws.dir);
const runs = Number(process.argv[2] ?? 3);
const subscribe = JSON.parse(process.env.SUBSCRIBE ?? '{"batch":true}') as object;
try {
  for (let k = 0; k <= runs; k++) {
    const socket = io(server.url, { transports: ['websocket'], reconnection: false, forceNew: true });
    await new Promise((r) => socket.once('connect', () => r(undefined)));
    const id = `profile_${k}_${Date.now()}`;
    let n = 0;
    let first = 0;
    let last = 0;
    let done = false;
    const take = (events: readonly EventEnvelope[]) => {
      for (const e of events) {
        if (e.runId !== id) continue;
        const t = performance.now();
        if (n++ === 0) first = t;
        last = t;
        if (e.type === 'run_result') done = true;
      }
    };
    socket.on('events', (batch: unknown, ack?: () => void) => {
      const r = unpackEvents(batch);
      if (!r.ok) throw new Error(r.error);
      take(r.events);
      ack?.();
    });
    await socket.timeout(5000).emitWithAck('subscribe', subscribe);
    const cpu0 = server.cpuMs();
    await api(server.url, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(k === 0 ? 200 : 2000),
      execution_id: id,
      step_delay_ms: 0,
    });
    await waitFor(() => done, 300_000, 'run_result');
    const cpu = server.cpuMs() - cpu0;
    const rate = Math.round(n / ((last - first) / 1000));
    console.log(`${k === 0 ? 'warm-up' : `run ${k}`}: ${n} events, ${rate} events/s, server CPU ${cpu} ms`);
    socket.close();
    await new Promise((r) => setTimeout(r, 3000)); // compaction runs in idle time, outside the next run
  }
} finally {
  await server.stop();
  ws.cleanup();
}
