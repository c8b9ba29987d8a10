import { describe, expect, it } from 'vitest';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { relatedFlowIds } from './hoverRelations.ts';

function level() {
  const g = emptyGraph('t');
  const node = (id: string) => ({ id, type: 'constant', label: id, position: { x: 0, y: 0 }, config: {} });
  g.nodes = [node('a'), node('b'), node('c')];
  g.containers = [
    { id: 'm', label: 'M', position: { x: 0, y: 0 }, states: {} },
    { id: 'k', label: 'K', position: { x: 0, y: 0 }, states: {} },
  ];
  g.access_grants = [
    { id: 'g1', node_id: 'a', container_id: 'm' },
    { id: 'g2', node_id: 'b', container_id: 'm' },
    { id: 'g3', node_id: 'a', container_id: 'k' },
  ];
  return g;
}

describe('relatedFlowIds', () => {
  it('a hovered container relates the nodes granted to it', () => {
    expect(relatedFlowIds(level(), 'c:m').sort()).toEqual(['a', 'b']);
    expect(relatedFlowIds(level(), 'c:k')).toEqual(['a']);
  });

  it('a hovered node relates the containers it is granted (as flow ids)', () => {
    expect(relatedFlowIds(level(), 'a').sort()).toEqual(['c:k', 'c:m']);
    expect(relatedFlowIds(level(), 'c')).toEqual([]);
  });

  it('nothing hovered relates nothing', () => {
    expect(relatedFlowIds(level(), null)).toEqual([]);
  });
});
