// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { editorStore } from '../store/editor.store.ts';
import { parseGraphInput } from '../store/graphIo.ts';
import { HANDLERS } from '../live/handlers.ts';
import { ev } from '../live/testEvents.testutil.ts';
import { play, stepOnce } from './run.actions.ts';
import { initialRunState, runStore } from './run.store.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  runStore.setState(initialRunState());
});

/** The server's answer to starting a graph it refuses. */
function refuseStart() {
  const fetchMock = vi.fn(
    async () =>
      new Response(JSON.stringify({ error: 'Invalid graph: Graph connectivity validation failed' }), {
        status: 400,
        headers: { 'content-type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('play of a graph the editor flags', () => {
  it("a refused start names the editor's error count and opens the Issues panel", async () => {
    const r = parseGraphInput({
      name: 'broken',
      nodes: [{ id: 'p', type: 'gridPolicy', label: 'P', position: { x: 0, y: 0 }, config: {} }],
      edges: [],
    });
    if (!r.ok) throw new Error('fixture does not parse');
    editorStore.getState().openTab({ graph: r.graph, title: 'broken' });
    editorStore.getState().setDrawerTab('log');
    const fetchMock = refuseStart();
    await play();
    expect(fetchMock).toHaveBeenCalled();
    const { error, status } = runStore.getState();
    expect(status).toBeNull();
    expect(error).toMatch(/^cannot run: \d+ errors? in the graph, see Issues \(.*400/);
    expect(editorStore.getState().drawerTab).toBe('issues');
  });

  it('a refused start of a clean graph keeps the server message and the drawer as it was', async () => {
    const r = parseGraphInput({ name: 'empty', nodes: [], edges: [], eval_graph: false });
    if (!r.ok) throw new Error('fixture does not parse');
    editorStore.getState().openTab({ graph: r.graph, title: 'empty' });
    editorStore.getState().setDrawerTab('log');
    refuseStart();
    await play();
    expect(runStore.getState().error).toMatch(/400/);
    expect(runStore.getState().error).not.toMatch(/^cannot run/);
    expect(editorStore.getState().drawerTab).toBe('log');
  });
});

describe('step', () => {
  it("after a step the run shows paused as of its last event; the engine's older 'running' does not win", async () => {
    runStore.setState({ runId: 'r1', tabId: null, status: 'paused' });
    const json = (body: unknown) =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.endsWith('/step')
          ? json({ ok: true, step: 1, status: 'paused' })
          : json({ id: 'r1', graph_name: 'g', status: 'paused', steps: 1, last_seq: 40 }),
      ),
    );
    await stepOnce();
    expect(runStore.getState()).toMatchObject({ status: 'paused', statusSeq: 40 });
    // The first step's 'running' (seq 2) arrives late: it goes to the Log, not the status.
    HANDLERS.nav_status(ev('nav_status', 2, { status: 'running', step: 0 }), runStore);
    expect(runStore.getState().status).toBe('paused');
    HANDLERS.nav_status(ev('nav_status', 41, { status: 'running', step: 1 }), runStore);
    expect(runStore.getState().status).toBe('running');
  });
});
