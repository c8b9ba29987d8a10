// relay.latency_*: how far behind a viewer on another server instance is (issue 31). Two in-process
// `statewire serve` instances A and B in distributed mode, on a real PostgreSQL and a real Redis.
// A paced run (the editor's default-like step delay) of the demo graph runs on A; one socket.io
// viewer is subscribed on A and one on B, both in this process (one clock). For every event each
// viewer receives, latency = arrival − the event's `ts` (stamped by A's run writer before its
// commit). A's viewer gets each step once A's SQLite commit is published; B's gets it after A's
// forwarder has committed it to PostgreSQL, published it on Redis, and B's relay has sent it on
// (docs/scaling-out.md, "One store").
//  - relay.latency_p50 / relay.latency_p99: ours = the viewer on B, baseline = the viewer on A, the
//    same events side by side; the ratio says what the trip through PostgreSQL and Redis adds.
//    Goal: p50 under 100 ms, p99 under 250 ms (a remote viewer still reads as live).
// Runs: REPS runs, alternately subscribed B-first and A-first; each run's percentile a sample.
// `npx tsx bench/run-all.ts relay` runs only this one.
import { pathToFileURL } from 'node:url';
import type { EventEnvelope } from '../src/domain/protocol/protocol.ts';
import { batchEvents, connectClient, waitStatus } from '../src/server/test/liveClient.testutil.ts';
import { api, demoGraph } from '../src/server/test/serverProcess.testutil.ts';
import { startTeam } from '../src/server/test/teamServers.testutil.ts';
import { figure, percentile, type BenchResult } from './figures.ts';

const REPS = 3;
const STEPS = 60;
/** The run's pause between root steps (ms): a watched run, not one driven flat out. */
const STEP_DELAY_MS = 40;

/** A viewer that timestamps the arrival of every envelope of one run. */
async function viewer(url: string) {
  const client = await connectClient(url);
  const latencies: number[] = [];
  const seen = new Set<number>();
  // A replay page ends with an empty batch asking for an ack (the editor's client acks it; an
  // unacknowledged page holds the next one back for up to 10 s).
  client.socket.on('events', (payload: unknown, ack?: () => void) => {
    ack?.();
    const now = Date.now();
    for (const e of batchEvents(payload) as EventEnvelope[]) {
      if (seen.has(e.seq)) continue;
      seen.add(e.seq);
      latencies.push(now - Date.parse(e.ts));
    }
  });
  return { client, latencies };
}

export async function run(): Promise<BenchResult> {
  const team = await startTeam(['a', 'b']);
  try {
    const [a, b] = team.instances.map((i) => i.url) as [string, string];
    const onA: { p50: number[]; p99: number[] } = { p50: [], p99: [] };
    const onB: { p50: number[]; p99: number[] } = { p50: [], p99: [] };
    let events = 0;
    for (let rep = 0; rep < REPS; rep++) {
      const graph = { ...demoGraph(STEPS), name: `relay_bench_${rep}` };
      const started = await api(a, 'POST', '/api/navigate/run', {
        loop_definition: graph,
        step_delay_ms: STEP_DELAY_MS,
      });
      const runId = started.body.execution_id as string;
      // Subscribed right away, alternating who is first; the first steps (replayed, not live) are
      // left out below by taking only events stamped after both subscriptions.
      const order = rep % 2 === 0 ? [b, a] : [a, b];
      const viewers = new Map<string, Awaited<ReturnType<typeof viewer>>>();
      for (const url of order) {
        const v = await viewer(url);
        await v.client.subscribe({ runId, afterSeq: 0, batch: true });
        viewers.set(url, v);
      }
      await waitStatus(a, runId, ['done'], 120_000);
      // B's viewer is done once it has as many events as A's.
      const va = viewers.get(a)!;
      const vb = viewers.get(b)!;
      const deadline = Date.now() + 30_000;
      while (vb.latencies.length < va.latencies.length && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      // The first quarter of the run may have been replayed from the log on subscription: skip it.
      const live = (xs: number[]) => xs.slice(Math.floor(xs.length / 4));
      onA.p50.push(percentile(live(va.latencies), 50));
      onA.p99.push(percentile(live(va.latencies), 99));
      onB.p50.push(percentile(live(vb.latencies), 50));
      onB.p99.push(percentile(live(vb.latencies), 99));
      events += vb.latencies.length;
      va.client.close();
      vb.client.close();
    }
    const note = `demo graph, ${STEPS} steps at ${STEP_DELAY_MS} ms delay, ${REPS} runs on A; viewer on B (through PostgreSQL + Redis) vs viewer on A`;
    return {
      events_received_on_b: events,
      figures: [
        figure('relay.latency_p50', 'ms', { on: 'ours', op: '<', value: 100 }, onB.p50, onA.p50, note),
        figure('relay.latency_p99', 'ms', { on: 'ours', op: '<', value: 250 }, onB.p99, onA.p99, note),
      ],
    };
  } finally {
    await team.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await run();
  for (const f of r.figures ?? [])
    console.log(
      `${f.name}: B ${f.ours.toFixed(1)} ms, A ${f.baseline?.toFixed(1)} ms, ratio ${f.ratio?.toFixed(2)} (${f.goal})`,
    );
  process.exit(0);
}
