// Pushed events as the reference's services send them: nulls accepted as absent, the run found by
// execution id (or the only live run), the node by id or by the function it called.
import { describe, expect, it } from 'vitest';
import type { ErrorEnvelope } from '../../domain/protocol/protocol.ts';
import type { NodeContext } from '../../engine/handler.types.ts';
import { deliverPushedEvents, PushedEventsBodySchema, type RunEventTarget } from './pushedEvents.ts';
import { ActiveCalls } from './serviceNode.ts';

const ctx = (runId: string, nodeId: string, step: number) =>
  ({ runId, step, node: { id: nodeId, type: 't', label: '', config: {} } }) as unknown as NodeContext;

function target(runId: string, got: ErrorEnvelope[]): RunEventTarget {
  return { runId, step: () => 9, emit: (e) => got.push(e) };
}

describe('pushed events', () => {
  it('accepts the reference shape: code, node_id, step, nodeset, execution_id null; severities in any case', () => {
    const body = PushedEventsBodySchema.parse({
      events: [
        {
          severity: 'WARNING',
          message: 'x',
          code: null,
          node_id: null,
          step: null,
          nodeset: null,
          execution_id: null,
          details: {},
        },
        { severity: 'critical', message: 'y', details: null },
      ],
    });
    expect(body.events.map((e) => [e.severity, e.code, e.step, e.execution_id])).toEqual([
      ['warning', undefined, undefined, undefined],
      ['error', undefined, undefined, undefined],
    ]);
    expect(PushedEventsBodySchema.safeParse({ events: [{ severity: 'loud', message: 'z' }] }).success).toBe(
      false,
    );
  });

  it('attaches to the run of the execution id, to the only live run without one, to the node calling a named function', () => {
    const calls = new ActiveCalls();
    calls.begin({ ctx: ctx('r1', 'boom', 4), service: 'eqa', fn: 'eqa__fail' });
    calls.end('r1');
    const got: ErrorEnvelope[] = [];
    const runs = new Map([['r1', target('r1', got)]]);
    const find = (id: string | null) => (id === null ? [...runs.values()][0] : runs.get(id));
    const events = PushedEventsBodySchema.parse({
      events: [
        {
          severity: 'error',
          message: 'failed',
          node_id: 'eqa__fail',
          execution_id: 'r1',
          code: 'SUBPROC_NODE_FAIL',
        },
        { severity: 'warning', message: 'a log record', execution_id: null },
        { severity: 'info', message: 'for a gone run', execution_id: 'r0' },
      ],
    }).events;
    expect(deliverPushedEvents(events, find, calls, () => 0)).toEqual({ accepted: 2, dropped: 1 });
    expect(got[0]).toMatchObject({
      source: 'node',
      code: 'SUBPROC_NODE_FAIL',
      title: "Node 'boom' (service 'eqa')",
      scope: { node_id: 'boom', step: 4 },
      details: { service: 'eqa', reported_node_id: 'eqa__fail', pushed: true },
    });
    expect(got[1]).toMatchObject({
      source: 'log',
      code: 'SERVICE_EVENT',
      title: "service 'eqa'",
      scope: { step: 4, service: 'eqa' },
    });
  });
});
