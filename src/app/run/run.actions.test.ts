// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { editorStore } from '../store/editor.store.ts';
import { parseGraphInput } from '../store/graphIo.ts';
import { play } from './run.actions.ts';
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
