import { describe, expect, it } from 'vitest';
import { boxHeight, BOX_WIDTH_PX, rowCentreY } from '../nodeBox.ts';
import { portsOf } from '../../store/derived.ts';
import { editorStore } from '../../store/editor.store.ts';
import { CONTAINER_BOX_WIDTH_PX } from '../containerBox.ts';
import { openFarTestGraph } from './farTestGraph.ts';

describe('far scene', () => {
  it('has one item per flow node, sized as its DOM box', () => {
    const { scene } = openFarTestGraph();
    expect(scene.items.map((i) => [i.flowId, i.kind])).toEqual([
      ['src', 'node'],
      ['llm', 'node'],
      ['parse', 'node'],
      ['c:mem', 'container'],
    ]);
    const llm = scene.items[1]!;
    expect([llm.x, llm.y, llm.w, llm.h]).toEqual([
      300,
      0,
      BOX_WIDTH_PX,
      boxHeight(portsOf(editorStore.getState(), 'llm')!),
    ]);
    expect(scene.items[3]!.w).toBe(CONTAINER_BOX_WIDTH_PX);
  });

  it('ends each edge where React Flow ends it on the boxes: the port rows, the state anchor, the container top', () => {
    const { scene } = openFarTestGraph();
    const end = (flowId: string) => {
      const e = scene.edges.find((x) => x.flowId === flowId)!;
      const s = scene.items[e.source]!;
      const t = scene.items[e.target]!;
      return [s.x + e.sx, s.y + e.sy, t.x + e.tx, t.y + e.ty];
    };
    const ports = portsOf(editorStore.getState(), 'llm')!;
    const row = (name: string, list: { name: string }[]) => list.findIndex((p) => p.name === name);
    // A box anchor is 1 px, centred on its spot: React Flow attaches at its outer side.
    expect(end('e:e2')).toEqual([
      300 + BOX_WIDTH_PX + 0.5,
      rowCentreY(row('response', ports.outputs)),
      600 - 0.5,
      rowCentreY(0),
    ]);
    expect(end('e:e1')[3]).toBe(rowCentreY(row('prompt', ports.inputs)));
    const h = boxHeight(ports);
    expect(end('g:g1')).toEqual([300 + BOX_WIDTH_PX / 2, h + 0.5, CONTAINER_BOX_WIDTH_PX / 2, 300 - 0.5]);
    expect(scene.edges.find((e) => e.flowId === 'g:g1')!.grant).toBe(true);
    // Each edge is listed at both its ends.
    expect(scene.edgesAt[1]!.map((n) => scene.edges[n]!.flowId).sort()).toEqual(['e:e1', 'e:e2', 'g:g1']);
  });
});
