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
