// Envelope builders for the live/ and run/ tests.
import type { EventEnvelope, EventType } from '../../domain/protocol/protocol.ts';

export const RUN = 'run_1';

export function ev(type: EventType, seq: number, data: unknown, runId = RUN): EventEnvelope {
  return { type, runId, seq, ts: '2026-01-01T00:00:00.000Z', data };
}

export function navStep(
  seq: number,
  step: number,
  count: number,
  extra: Record<string, unknown> = {},
): EventEnvelope {
  return ev('nav_step', seq, {
    step,
    containers: {
      graph_state: {
        label: 'Blackboard',
        owner: 'home',
        states: {
          step_count: { type: 'counter', value_type: 'ANY', lifetime: 'run', value: count },
          visited: { type: 'union', value_type: 'ANY', lifetime: 'episode', size: count, preview: '[...]' },
          last_obs: { type: 'lastWrite', value_type: 'TEXT', lifetime: 'step', preview: '"seen"' },
        },
      },
    },
    nodeStates: {},
    cleared: [{ container: 'graph_state', slot: 'last_obs' }],
    outputs: {},
    done: false,
    ...extra,
  });
}

/** The policy bumping graph_state.step_count to `step` in that step. */
export const countWrite = (seq: number, step: number) =>
  ev('state_written', seq, {
    node_id: 'policy',
    container: 'graph_state',
    slot: 'step_count',
    reducer: 'counter',
    step,
    before: step - 1,
    after: step,
  });

/** The demo's `episode_reset` (fired while the env fires, inside a step). */
export const episodeReset = (
  seq: number,
  episode: number,
  cleared: { container: string; slot: string }[] = [],
) => ev('signal', seq, { signal: 'episode_reset', scope: 'loop_in', payload: { episode }, cleared });
