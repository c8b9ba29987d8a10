// Live UI apply cost: how fast the app's live/ handlers fold demo-shaped events into the run store,
// applied the way the browser does it (one batch per animation frame). A run step of the demo graph
// is ~45 events (node_status, exec_log, state_written, signal, one nav_step); we feed 2,000 steps in
// frame-sized batches and report events/s and the per-frame apply time (p50/p95).
// Standalone: `npx tsx bench/live.bench.ts`.
import { pathToFileURL } from 'node:url';
import type { EventEnvelope } from '../src/domain/protocol/protocol.ts';
import { applyBatch } from '../src/app/live/handlers.ts';
import { createRunStore } from '../src/app/run/run.store.ts';

const STEPS = 2000;

function stepEvents(step: number, seq0: number): EventEnvelope[] {
  const out: EventEnvelope[] = [];
  let seq = seq0;
  const e = (type: EventEnvelope['type'], data: unknown) =>
    out.push({ type, runId: 'bench', seq: ++seq, ts: '2026-01-01T00:00:00Z', data });
  for (let n = 0; n < 14; n++) {
    e('node_status', { node_id: `n${n}`, status: 'running', step });
    e('exec_log', { step, node_id: `n${n}`, node_type: 'stateWrite', node_label: `N${n}`, duration_ms: 1 });
    e('node_status', { node_id: `n${n}`, status: 'done', step, duration_ms: 1 });
  }
  e('state_written', {
    node_id: 'policy',
    container: 'graph_state',
    slot: 'step_count',
    reducer: 'counter',
    step,
    before: step - 1,
    after: step,
  });
  e('signal', {
    signal: 'step_end',
    scope: 'loop_in',
    payload: { step },
    cleared: [{ container: 'graph_state', slot: 'last_obs' }],
  });
  e('nav_step', {
    step,
    containers: {
      graph_state: {
        label: 'Blackboard',
        owner: 'home',
        states: {
          goal: { type: 'lastWrite', value_type: 'TEXT', lifetime: 'forever', preview: '"reach (8,8)"' },
          last_obs: { type: 'lastWrite', value_type: 'TEXT', lifetime: 'step', preview: 'null' },
          visited: {
            type: 'union',
            value_type: 'ANY',
            lifetime: 'episode',
            size: step % 40,
            preview: '["4,3", "4,4"]',
          },
          step_count: { type: 'counter', value_type: 'ANY', lifetime: 'run', value: step },
        },
      },
      memory: {
        label: 'Nav Memory',
        owner: 'home',
        states: {
          trail: { type: 'accumulator', value_type: 'POSE', lifetime: 'episode', size: 20, preview: '[…]' },
        },
      },
    },
    nodeStates: { env: { t: step, pose: { x: 4, y: 3, heading: 1 } }, policy: { decisions: step } },
    cleared: [{ container: 'graph_state', slot: 'last_obs' }],
    outputs: {},
    done: false,
  });
  return out;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;

export async function run(): Promise<Record<string, number | string>> {
  const events: EventEnvelope[] = [];
  for (let s = 1; s <= STEPS; s++) events.push(...stepEvents(s, events.length));
  const store = createRunStore();
  // A frame at 60 fps during a step_delay_ms 0 run: ~5 steps' worth of events per frame.
  const perFrame = 5 * (events.length / STEPS);
  const frames: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < events.length; i += perFrame) {
    const f0 = performance.now();
    applyBatch(events.slice(i, i + perFrame), store);
    frames.push(performance.now() - f0);
  }
  const total = performance.now() - t0;
  return {
    events: events.length,
    steps_in_timeline: store.getState().steps.length,
    events_per_s: Math.round(events.length / (total / 1000)),
    frame_events: perFrame,
    frame_apply_ms_p50: Number(pct(frames, 50).toFixed(3)),
    frame_apply_ms_p95: Number(pct(frames, 95).toFixed(3)),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await run(), null, 2));
}
