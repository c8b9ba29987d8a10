// The run store's side of routing: `route` events (kept by step and as the latest per port),
// feature values from nav_step / restored, and the marks the canvas derives from them.
import { describe, expect, it } from 'vitest';
import { applyBatch, HANDLERS } from '../live/handlers.ts';
import { ev, navStep } from '../live/testEvents.testutil.ts';
import { createRunStore, routePortKey, viewFeatures } from '../run/run.store.ts';
import { markNote, markOf, shownFailure, shownRoute } from './routeMarks.ts';
import { routeLine } from './RunRouting.tsx';

const route = (seq: number, step: number, edge: string, phase: string, port = 'action') =>
  ev('route', seq, {
    step,
    node_id: 'router',
    port,
    edge_id: edge,
    taken: true,
    reason: `phase == ${phase} with phase=${phase}`,
    candidates: [
      {
        edge_id: 'e_explore',
        target: 'explorer',
        condition_holds: phase === 'explore',
        effect_ok: true,
        condition: 'phase == explore',
      },
      {
        edge_id: 'e_exploit',
        target: 'exploiter',
        condition_holds: phase === 'exploit',
        effect_ok: true,
        condition: 'phase == exploit',
      },
    ],
    before: { phase },
    after: { phase },
  });

describe('route events in the run store', () => {
  it('keeps each route with its step and the newest per port; a log line names node, target and reason', () => {
    const store = createRunStore();
    HANDLERS.route(route(1, 1, 'e_explore', 'explore'), store);
    HANDLERS.nav_step(navStep(2, 1, 1, { features: { phase: 'explore' } }), store);
    HANDLERS.route(route(3, 2, 'e_exploit', 'exploit'), store);
    const s = store.getState();
    expect(s.routes[1]!.map((r) => r.edge_id)).toEqual(['e_explore']);
    expect(s.routes[2]!.map((r) => [r.edge_id, r.seq])).toEqual([['e_exploit', 3]]);
    expect(s.lastRoute[routePortKey('router', 'action')]?.edge_id).toBe('e_exploit');
    expect(s.log.at(-1)?.text).toBe(
      'step 2 · router routed to exploiter (edge e_exploit): phase == exploit with phase=exploit',
    );
  });

  it('an older (backfilled) route fills its step but does not replace the shown one', () => {
    const store = createRunStore();
    HANDLERS.route(route(5, 3, 'e_exploit', 'exploit'), store);
    HANDLERS.route(route(2, 1, 'e_explore', 'explore'), store);
    expect(store.getState().routes[1]).toHaveLength(1);
    expect(store.getState().lastRoute[routePortKey('router', 'action')]?.seq).toBe(5);
  });

  it('a batch of routes of one step appends in place to one list', () => {
    const store = createRunStore();
    applyBatch([route(1, 1, 'e_explore', 'explore'), route(2, 1, 'e_exploit', 'exploit', 'other')], store);
    const s = store.getState();
    expect(s.routes[1]!.map((r) => r.port)).toEqual(['action', 'other']);
    expect(Object.keys(s.lastRoute)).toHaveLength(2);
  });

  it('feature values: live from nav_step, per step for inspection, rewound by restore with the routes', () => {
    const store = createRunStore();
    HANDLERS.route(route(1, 1, 'e_explore', 'explore'), store);
    HANDLERS.nav_step(navStep(2, 1, 1, { features: { phase: 'explore', armed: null } }), store);
    HANDLERS.route(route(3, 2, 'e_exploit', 'exploit'), store);
    HANDLERS.nav_step(navStep(4, 2, 2, { features: { phase: 'exploit', armed: true } }), store);
    expect(viewFeatures(store.getState())).toEqual({ phase: 'exploit', armed: true });
    store.setState({ inspectedStep: 1 });
    expect(viewFeatures(store.getState())).toEqual({ phase: 'explore', armed: null });
    store.setState({ inspectedStep: null });
    HANDLERS.restored(
      ev('restored', 5, {
        step: 1,
        restored_to: 1,
        containers: {},
        nodeStates: {},
        features: { phase: 'explore', armed: null },
      }),
      store,
    );
    const s = store.getState();
    expect(s.features).toEqual({ phase: 'explore', armed: null });
    expect(Object.keys(s.routes)).toEqual(['1']);
    expect(s.lastRoute[routePortKey('router', 'action')]?.edge_id).toBe('e_explore');
  });

  it('a graph without features keeps snapshots without a features key', () => {
    const store = createRunStore();
    HANDLERS.nav_step(navStep(1, 1, 1), store);
    expect('features' in store.getState().snapshots[1]!).toBe(false);
    expect(store.getState().features).toEqual({});
  });
});

describe('route marks on the canvas', () => {
  it('taken flashes (by seq), the other conditional edges of the port dim, plain edges stay', () => {
    const store = createRunStore();
    HANDLERS.route(route(7, 1, 'e_explore', 'explore'), store);
    const r = shownRoute(store.getState(), 'router', 'action');
    expect(markOf(r, 'e_explore', true)).toMatchObject({ kind: 'taken', seq: 7 });
    expect(markOf(r, 'e_exploit', true).kind).toBe('untaken');
    expect(markOf(r, 'e_plain', false).kind).toBe('none');
    expect(shownRoute(store.getState(), 'router', 'elsewhere')).toBeUndefined();
    // The default handle is one port whether the edge names it "" or "default".
    HANDLERS.route(route(8, 1, 'e_explore', 'explore', 'default'), store);
    expect(shownRoute(store.getState(), 'router', '')?.seq).toBe(8);
  });

  it('inspecting a step shows that step’s last route of the port, none when it did not route', () => {
    const store = createRunStore();
    HANDLERS.route(route(1, 1, 'e_explore', 'explore'), store);
    HANDLERS.route(route(2, 2, 'e_exploit', 'exploit'), store);
    store.setState({ inspectedStep: 1 });
    expect(shownRoute(store.getState(), 'router', 'action')?.edge_id).toBe('e_explore');
    store.setState({ inspectedStep: 3 });
    expect(shownRoute(store.getState(), 'router', 'action')).toBeUndefined();
  });

  it('the timeline line names the target and explains every candidate', () => {
    const store = createRunStore();
    HANDLERS.route(route(1, 1, 'e_explore', 'explore'), store);
    const line = routeLine(store.getState().routes[1]![0]!);
    expect(line.target).toBe('explorer');
    expect(line.title).toContain('because phase == explore with phase=explore');
    expect(line.title).toContain('e_exploit → exploiter: phase == exploit — condition false');
  });
});

describe('a failed route decision', () => {
  const ambiguous = (seq: number) =>
    ev('error_event', seq, {
      id: 'r-err-1',
      ts: '2026-01-01T00:00:00.000Z',
      severity: 'error',
      source: 'node',
      code: 'ROUTE_AMBIGUOUS',
      title: "Node 'router' failed",
      message:
        "node 'router' (type gridEnv) failed: ambiguous route — edges 'e_explore', 'e_exploit' are all compatible with features phase=explore",
      scope: { node_id: 'router', step: 2 },
      details: {
        node_id: 'router',
        port: 'action',
        edges: ['e_explore', 'e_exploit'],
        features: { phase: 'explore' },
      },
    });

  it('is kept with node, port, edges and message; its edges are marked failed, live only', () => {
    const store = createRunStore();
    HANDLERS.route(route(1, 1, 'e_explore', 'explore'), store);
    HANDLERS.error_event(ambiguous(2), store);
    const s = store.getState();
    expect(s.routeFailure).toMatchObject({
      step: 2,
      node_id: 'router',
      port: 'action',
      edges: ['e_explore', 'e_exploit'],
    });
    const f = shownFailure(s, 'router', 'action');
    const r = shownRoute(s, 'router', 'action');
    expect(markOf(r, 'e_exploit', true, f)).toMatchObject({ kind: 'failed', seq: 2 });
    expect(markNote(markOf(r, 'e_exploit', true, f))).toContain("route failed: node 'router'");
    // The earlier route of that port no longer shows beside the failure.
    expect(markOf(r, 'e_plain', false, f).kind).toBe('none');
    store.setState({ inspectedStep: 1 });
    expect(shownFailure(store.getState(), 'router', 'action')).toBeUndefined();
  });

  it('restore clears it; other errors do not set it', () => {
    const store = createRunStore();
    HANDLERS.error_event(ambiguous(1), store);
    HANDLERS.restored(ev('restored', 2, { step: 1, restored_to: 1, containers: {}, nodeStates: {} }), store);
    expect(store.getState().routeFailure).toBeNull();
    HANDLERS.error_event(
      ev('error_event', 3, { ...(ambiguous(3).data as object), code: 'NODE_ERROR' }),
      store,
    );
    expect(store.getState().routeFailure).toBeNull();
  });
});
