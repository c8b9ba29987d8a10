import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION } from '../../store/ui.slice.ts';
import { boxSelection, clickSelection, dragSelection } from './farSelect.ts';
import { openFarTestGraph } from './farTestGraph.ts';

const sel = (nodes: string[], containers: string[] = [], edges: string[] = [], grants: string[] = []) => ({
  nodes,
  containers,
  edges,
  grants,
});

describe('far view selection', () => {
  it('a click selects one item; with a multi-selection key it toggles it, keeping the rest', () => {
    expect(clickSelection(sel(['a'], [], ['e1']), 'b', false)).toEqual(sel(['b']));
    expect(clickSelection(sel(['a'], [], ['e1']), 'c:mem', true)).toEqual(sel(['a'], ['mem'], ['e1']));
    expect(clickSelection(sel(['a', 'b']), 'a', true)).toEqual(sel(['b']));
  });

  it('a drag moves the selection it starts on, or selects its item first', () => {
    const current = sel(['a', 'b']);
    expect(dragSelection(current, 'a', false)).toBe(current);
    expect(dragSelection(current, 'c', false)).toEqual(sel(['c']));
    expect(dragSelection(current, 'c', true)).toEqual(sel(['a', 'b', 'c']));
    expect(dragSelection(EMPTY_SELECTION, 'c:mem', false)).toEqual(sel([], ['mem']));
  });

  it('a box selects its items and every edge and grant at them', () => {
    const { scene } = openFarTestGraph();
    const ids = ['parse', 'c:mem'].map((f) => scene.byFlowId.get(f)!);
    expect(boxSelection(scene, ids)).toEqual(sel(['parse'], ['mem'], ['e2'], ['g1']));
    expect(boxSelection(scene, [])).toEqual(EMPTY_SELECTION);
  });
});
