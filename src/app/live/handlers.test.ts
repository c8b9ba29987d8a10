import { describe, expect, it } from 'vitest';
import { createRunStore, viewerLineOf } from '../run/run.store.ts';
import { applyBatch, HANDLERS } from './handlers.ts';
import { countWrite, ev, navStep } from './testEvents.testutil.ts';

describe('live handlers', () => {
  it('nav_status sets the status and step', () => {
    const store = createRunStore();
    HANDLERS.nav_status(ev('nav_status', 1, { status: 'running', step: 0 }), store);
    expect(store.getState().status).toBe('running');
    HANDLERS.nav_status(ev('nav_status', 2, { status: 'paused', step: 7 }), store);
    expect(store.getState()).toMatchObject({ status: 'paused', step: 7 });
  });

  it('a finished run replayed from seq 0 keeps its status: its old "running" and "paused" are history', () => {
    const store = createRunStore();
    // Followed as "done as of seq 40" (what following a stored run does).
    store.setState({ runId: 'r1', status: 'done', statusSeq: 40 });
    applyBatch(
      [
        ev('nav_status', 1, { status: 'running', step: 0 }),
        navStep(5, 1, 1),
        ev('nav_status', 9, { status: 'paused', step: 1 }),
        ev('nav_complete', 39, { step: 1, metrics: {} }),
      ],
      store,
    );
    expect(store.getState()).toMatchObject({ status: 'done', statusSeq: 40, step: 1 });
    // The replayed statuses are still in the Log; a newer event (a restore's pause) applies.
    expect(store.getState().log.map((l) => l.text)).toContain('run paused at step 1');
    HANDLERS.nav_status(ev('nav_status', 41, { status: 'paused', step: 1 }), store);
    expect(store.getState()).toMatchObject({ status: 'paused', statusSeq: 41 });
  });

  it('run_result (the last event) adds one log line with its outputs and leaves status and timeline alone', () => {
    const store = createRunStore();
    applyBatch(
      [
        navStep(10, 1, 1),
        ev('nav_complete', 11, { step: 1, metrics: {} }),
        ev('run_result', 12, {
          status: 'done',
          steps: 1,
          outputs: { answer: 42 },
          containers: { graph_state: { step_count: 1 } },
          keyed: {},
        }),
      ],
      store,
    );
    const s = store.getState();
    expect(s.status).toBe('done');
    expect(s.steps).toEqual([1]);
    expect(s.log.at(-1)).toMatchObject({
      seq: 12,
      level: 'info',
      text: 'result: done after 1 step · outputs {"answer":42}',
    });
    // A malformed one is a log line naming the field, not a crash.
    HANDLERS.run_result(ev('run_result', 13, { status: 'exploded', steps: 1 }), store);
    expect(store.getState().log.at(-1)?.text).toMatch(/^bad run_result event \(seq 13\) at \$\.data\.status/);
  });

  it('nav_step stores a snapshot per step and updates the live containers', () => {
    const store = createRunStore();
    HANDLERS.nav_step(navStep(10, 1, 1), store);
    HANDLERS.nav_step(navStep(20, 2, 2), store);
    const s = store.getState();
    expect(s.steps).toEqual([1, 2]);
    expect(s.step).toBe(2);
    expect(s.containers.graph_state?.states.step_count?.value).toBe(2);
    expect(s.snapshots[1]?.containers.graph_state?.states.step_count?.value).toBe(1);
  });

  it('an older (backfilled) nav_step fills the timeline without rolling the live view back', () => {
    const store = createRunStore();
    HANDLERS.nav_step(navStep(30, 3, 3), store);
    HANDLERS.nav_step(navStep(20, 2, 2), store);
    const s = store.getState();
    expect(s.steps).toEqual([2, 3]);
    expect(s.step).toBe(3);
    expect(s.containers.graph_state?.states.step_count?.value).toBe(3);
  });

  it('signal records which signal cleared which slot, and the next nav_step keeps it with its writes', () => {
    const store = createRunStore();
    HANDLERS.state_written(
      ev('state_written', 4, {
        node_id: 'env',
        container: 'graph_state',
        slot: 'last_obs',
        reducer: 'lastWrite',
        step: 1,
        before: null,
        after: 'seen',
      }),
      store,
    );
    HANDLERS.signal(
      ev('signal', 5, {
        signal: 'step_end',
        scope: 'loop_in',
        payload: { step: 1 },
        cleared: [{ container: 'graph_state', slot: 'last_obs' }],
      }),
      store,
    );
    expect(store.getState().clears['graph_state/last_obs']).toMatchObject({
      signal: 'step_end',
      step: 1,
      seq: 5,
    });
    HANDLERS.nav_step(navStep(6, 1, 1), store);
    const snap = store.getState().snapshots[1];
    expect(snap?.clears.map((c) => c.signal)).toEqual(['step_end']);
    expect(snap?.writes).toEqual([
      {
        node_id: 'env',
        container: 'graph_state',
        slot: 'last_obs',
        reducer: 'lastWrite',
        before: null,
        after: 'seen',
      },
    ]);
    expect(store.getState().pending).toEqual({});
  });

  it('when a nav_step was dropped, its writes wait for the backfilled one instead of joining the next step', () => {
    const store = createRunStore();
    const write = countWrite;
    // Step 2's nav_step (seq 4) was dropped by the server; step 3's arrives live.
    applyBatch([write(1, 1), navStep(2, 1, 1), write(3, 2), write(5, 3), navStep(6, 3, 3)], store);
    expect(store.getState().snapshots[3]?.writes.map((w) => w.after)).toEqual([3]);
    applyBatch([navStep(4, 2, 2)], store); // the backfill
    expect(store.getState().snapshots[2]?.writes.map((w) => w.after)).toEqual([2]);
    expect(store.getState().step).toBe(3);
    expect(store.getState().pending).toEqual({});
  });

  it('a step_start/step_end that cleared nothing changes nothing; another signal is kept with its step', () => {
    const store = createRunStore();
    const before = store.getState();
    HANDLERS.signal(
      ev('signal', 1, { signal: 'step_start', scope: '', payload: { step: 1 }, cleared: [] }),
      store,
    );
    expect(store.getState()).toBe(before);
    HANDLERS.signal(ev('signal', 2, { signal: 'run_start', scope: '', cleared: [] }), store);
    expect(store.getState().clears).toEqual({});
    expect(store.getState().pending[1]?.signals).toEqual([{ signal: 'run_start', scope: '', seq: 2 }]);
  });

  it('node_status keeps one status per node', () => {
    const store = createRunStore();
    HANDLERS.node_status(ev('node_status', 1, { node_id: 'env', status: 'running', step: 1 }), store);
    HANDLERS.node_status(
      ev('node_status', 2, { node_id: 'env', status: 'error', step: 1, error: 'boom' }),
      store,
    );
    expect(store.getState().nodeStatus.env).toEqual({ status: 'error', step: 1, error: 'boom' });
  });

  it('restored rewinds: live values from the event, later steps dropped, inspection ended', () => {
    const store = createRunStore();
    for (let i = 1; i <= 4; i++) HANDLERS.nav_step(navStep(i * 10, i, i), store);
    store.setState({ inspectedStep: 2 });
    const state = navStep(0, 2, 2).data as { containers: unknown; nodeStates: unknown };
    HANDLERS.restored(
      ev('restored', 50, { step: 2, restored_to: 2, containers: state.containers, nodeStates: {} }),
      store,
    );
    const s = store.getState();
    expect(s.steps).toEqual([1, 2]);
    expect(s.step).toBe(2);
    expect(s.inspectedStep).toBeNull();
    expect(s.containers.graph_state?.states.step_count?.value).toBe(2);
    // A nav_step after the restore (re-running step 3) lands on the timeline again.
    HANDLERS.nav_step(navStep(60, 3, 3), store);
    expect(store.getState().steps).toEqual([1, 2, 3]);
  });

  it('nav_complete marks the run done; exec_log and error_event become log lines', () => {
    const store = createRunStore();
    HANDLERS.exec_log(
      ev('exec_log', 1, { step: 1, node_id: 'env', node_type: 'gridEnv', node_label: 'Env', duration_ms: 2 }),
      store,
    );
    HANDLERS.error_event(
      ev('error_event', 2, {
        id: 'e1',
        ts: 'x',
        severity: 'error',
        source: 'node',
        code: 'X',
        title: 'Node failed',
        message: 'boom',
      }),
      store,
    );
    HANDLERS.nav_complete(ev('nav_complete', 3, { step: 9, metrics: {} }), store);
    const s = store.getState();
    expect(s.status).toBe('done');
    expect(s.log.map((l) => l.level)).toEqual(['info', 'error', 'info']);
    expect(s.log[1]?.text).toContain('boom');
    expect(s.pending[1]?.errors).toEqual(['Node failed: boom']);
  });

  it('a malformed payload becomes a log line naming the event and field, not a crash', () => {
    const store = createRunStore();
    HANDLERS.nav_step(ev('nav_step', 3, { step: 'three' }), store);
    const s = store.getState();
    expect(s.steps).toEqual([]);
    expect(s.log[0]?.text).toMatch(/bad nav_step event \(seq 3\) at \$\.data\.step/);
  });

  it('a later batch never mutates what an earlier batch committed (subscribers compare by identity)', () => {
    const store = createRunStore();
    applyBatch([navStep(1, 1, 1), ev('node_status', 2, { node_id: 'a', status: 'done', step: 1 })], store);
    const before = store.getState();
    const { snapshots, steps, nodeStatus, log } = before;
    applyBatch(
      [
        navStep(3, 2, 2),
        ev('node_status', 4, { node_id: 'b', status: 'done', step: 2 }),
        ev('nav_status', 5, { status: 'paused', step: 2 }),
      ],
      store,
    );
    expect(Object.keys(snapshots)).toEqual(['1']);
    expect(steps).toEqual([1]);
    expect(Object.keys(nodeStatus)).toEqual(['a']);
    expect(log).toHaveLength(0);
    const after = store.getState();
    expect(after.snapshots).not.toBe(snapshots);
    expect(after.steps).toEqual([1, 2]);
    expect(Object.keys(after.nodeStatus)).toEqual(['a', 'b']);
  });

  it('applyBatch notifies subscribers once for a whole batch', () => {
    const store = createRunStore();
    let notified = 0;
    store.subscribe(() => notified++);
    applyBatch(
      [
        ev('nav_status', 1, { status: 'running', step: 0 }),
        navStep(2, 1, 1),
        navStep(3, 2, 2),
        navStep(4, 3, 3),
      ],
      store,
    );
    expect(notified).toBe(1);
    expect(store.getState()).toMatchObject({ status: 'running', step: 3, steps: [1, 2, 3] });
  });
  it('viewer_data keeps the latest line per viewer node; an older step does not overwrite it', () => {
    const store = createRunStore();
    HANDLERS.viewer_data(
      ev('viewer_data', 1, { node_id: 'view', step: 2, fields: { text: 'hello\nworld' } }),
      store,
    );
    HANDLERS.viewer_data(
      ev('viewer_data', 2, { node_id: 'log', step: 2, fields: { action: ['up', 'left'] } }),
      store,
    );
    HANDLERS.viewer_data(
      ev('viewer_data', 3, { node_id: 'view', step: 1, fields: { text: 'stale' } }),
      store,
    );
    const s = store.getState();
    expect(s.viewer.view).toEqual({ step: 2, text: 'hello world' });
    expect(s.viewer.log?.text).toBe('left');
    HANDLERS.viewer_data(ev('viewer_data', 4, { node_id: 'view', step: 3, fields: { text: 'next' } }), store);
    expect(store.getState().viewer.view?.text).toBe('next');
  });

  it("viewer lines are kept per step: inspecting a step shows that step's line; restore rewinds them", () => {
    const store = createRunStore();
    const line = (seq: number, step: number, text: string) =>
      HANDLERS.viewer_data(ev('viewer_data', seq, { node_id: 'view', step, fields: { text } }), store);
    line(1, 1, 'one');
    line(2, 2, 'two');
    line(3, 4, 'four');
    const at = (step: number | null) =>
      viewerLineOf({ ...store.getState(), inspectedStep: step }, 'view')?.text;
    expect(at(null)).toBe('four');
    expect(at(1)).toBe('one');
    expect(at(2)).toBe('two');
    // A step where the viewer did not fire shows its latest earlier line; before the first, nothing.
    expect(at(3)).toBe('two');
    expect(at(0)).toBeUndefined();
    // A backfilled step lands in order.
    line(4, 3, 'three');
    expect(at(3)).toBe('three');
    expect(at(null)).toBe('four');
    HANDLERS.restored(ev('restored', 5, { step: 2, restored_to: 2, containers: {}, nodeStates: {} }), store);
    expect(store.getState().viewer.view?.text).toBe('two');
    expect(at(4)).toBe('two');
  });

  it('exec_log lines carry the node, step, duration and error for the Log panel', () => {
    const store = createRunStore();
    HANDLERS.exec_log(
      ev('exec_log', 1, {
        step: 4,
        node_id: 'llm',
        node_type: 'llmCall',
        node_label: '',
        duration_ms: 12,
        error: 'timeout',
      }),
      store,
    );
    expect(store.getState().log[0]?.exec).toEqual({
      step: 4,
      node_id: 'llm',
      label: 'llm',
      node_type: 'llmCall',
      duration_ms: 12,
      error: 'timeout',
    });
    expect(store.getState().log[0]?.level).toBe('error');
  });

  it('an event a node service pushed is a log row with its node or service, and the node keeps the last one', () => {
    const store = createRunStore();
    const pushed = (seq: number, scope: Record<string, unknown>, message: string, severity = 'warning') =>
      ev('error_event', seq, {
        id: `e${seq}`,
        ts: '2026-01-01T00:00:00Z',
        severity,
        source: scope.node_id ? 'node' : 'log',
        code: 'SERVICE_EVENT',
        title: scope.node_id ? `Node '${String(scope.node_id)}' (service 'eqa')` : "service 'eqa'",
        message,
        scope,
        details: { service: 'eqa', pushed: true },
        hint: '',
      });
    applyBatch(
      [
        pushed(1, { node_id: 'post', step: 3 }, 'wrote preds'),
        pushed(2, { step: 3, service: 'eqa' }, 'a log record', 'info'),
        pushed(3, { node_id: 'post', step: 4 }, 'wrote preds again', 'error'),
      ],
      store,
    );
    const s = store.getState();
    expect(s.log.map((l) => l.event)).toEqual([
      {
        step: 3,
        node_id: 'post',
        service: 'eqa',
        code: 'SERVICE_EVENT',
        title: "Node 'post' (service 'eqa')",
        message: 'wrote preds',
      },
      {
        step: 3,
        node_id: undefined,
        service: 'eqa',
        code: 'SERVICE_EVENT',
        title: "service 'eqa'",
        message: 'a log record',
      },
      {
        step: 4,
        node_id: 'post',
        service: 'eqa',
        code: 'SERVICE_EVENT',
        title: "Node 'post' (service 'eqa')",
        message: 'wrote preds again',
      },
    ]);
    expect(s.nodeReports).toEqual({
      post: { severity: 'error', message: 'wrote preds again', code: 'SERVICE_EVENT', step: 4, count: 2 },
    });
    expect(s.stepWarnings).toEqual({ 3: ["Node 'post' (service 'eqa'): wrote preds"] });
  });

  it('a service whose state was not put back marks the restored step on the timeline, naming the service', () => {
    const store = createRunStore();
    applyBatch(
      [
        ev('error_event', 7, {
          id: 'srv_r_7',
          ts: '2026-01-01T00:00:00Z',
          severity: 'warning',
          source: 'graph',
          code: 'service-snapshot-unsupported',
          title: 'Service state not restored',
          message: "service 'refsim' was not put back to step 10: it has no snapshot support",
          scope: { run_id: 'r', step: 10, service: 'refsim' },
          details: { service: 'refsim' },
          hint: '',
        }),
      ],
      store,
    );
    const s = store.getState();
    expect(s.stepWarnings).toEqual({
      10: [
        "Service state not restored: service 'refsim' was not put back to step 10: it has no snapshot support",
      ],
    });
    expect(s.log[0]).toMatchObject({ level: 'warn', event: { step: 10, service: 'refsim' } });
  });
});
