import { describe, expect, it, vi } from 'vitest';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { queueInternalsUpdate, wiredHandles } from './detail.ts';

function level() {
  const g = emptyGraph('t');
  const node = (id: string) => ({ id, type: 'constant', label: id, position: { x: 0, y: 0 }, config: {} });
  g.nodes = [node('a'), node('b'), node('c'), node('d')];
  g.edges = [
    { id: 'e1', source: 'a', target: 'b', sourceHandle: 'value', targetHandle: 'text' },
    { id: 'e2', source: 'a', target: 'b', sourceHandle: 'value', targetHandle: 'prompt' },
    { id: 'e3', source: 'b', target: 'c', sourceHandle: '', targetHandle: 'text' },
  ];
  g.containers = [{ id: 'm', label: 'M', position: { x: 0, y: 0 }, states: {} }];
  g.access_grants = [{ id: 'g1', node_id: 'a', container_id: 'm' }];
  return g;
}

describe('wiredHandles', () => {
  it('lists the handles edges and grants attach to, per node, sorted', () => {
    const w = wiredHandles(level());
    expect(w.get('a')).toBe('o:value,s');
    expect(w.get('c')).toBe('i:text');
    expect(w.has('d')).toBe(false);
  });

  it('an edge without a handle id asks for every handle of that node', () => {
    expect(wiredHandles(level()).get('b')).toBe('*');
  });

  it('is computed once per level object', () => {
    const l = level();
    expect(wiredHandles(l)).toBe(wiredHandles(l));
    expect(wiredHandles(level())).not.toBe(wiredHandles(l));
  });
});

describe('queueInternalsUpdate', () => {
  it('batches the nodes queued before a frame into a single call', () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const calls: string[][] = [];
    const flow = {};
    // Each node holds its own update function; any one of them serves the flow's batch.
    const update = (ids: string[]) => calls.push(ids);
    const other = (ids: string[]) => calls.push(ids);
    queueInternalsUpdate(flow, update, 'a');
    queueInternalsUpdate(flow, other, 'b');
    queueInternalsUpdate(flow, update, 'a');
    expect(calls).toEqual([]);
    frames.shift()?.(0);
    expect(calls).toEqual([['a', 'b']]);
    queueInternalsUpdate(flow, update, 'c');
    frames.shift()?.(0);
    expect(calls).toEqual([['a', 'b'], ['c']]);
    vi.unstubAllGlobals();
  });
});
