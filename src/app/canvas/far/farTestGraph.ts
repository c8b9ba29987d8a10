// A small level for the far view's unit tests, opened in the editor store, with its flow nodes given
// their box geometry as the canvas gives them far out (canvasStart.ts boxEstimator).
import { emptyGraph } from '../../../domain/graph/graph.schema.ts';
import { currentLevel, editorStore } from '../../store/editor.store.ts';
import { boxEstimator } from '../canvasStart.ts';
import { buildFlowEdges, buildFlowNodes } from '../flowMapping.ts';
import { buildFarScene } from './farScene.ts';

export function openFarTestGraph() {
  const g = emptyGraph('far');
  g.nodes = [
    { id: 'src', type: 'constant', label: 'Source', position: { x: 0, y: 0 }, config: {} },
    { id: 'llm', type: 'llmCall', label: 'A rather long label', position: { x: 300, y: 0 }, config: {} },
    { id: 'parse', type: 'textParse', label: 'Parse', position: { x: 600, y: 0 }, config: {} },
  ];
  g.edges = [
    { id: 'e1', source: 'src', target: 'llm', sourceHandle: 'value', targetHandle: 'prompt' },
    { id: 'e2', source: 'llm', target: 'parse', sourceHandle: 'response', targetHandle: 'text' },
  ];
  g.containers = [{ id: 'mem', label: 'Mem', position: { x: 300, y: 400 }, states: {} }];
  g.access_grants = [{ id: 'g1', node_id: 'llm', container_id: 'mem' }];
  editorStore.setState({ tabs: [], activeTabId: null });
  editorStore.getState().openTab({ graph: g });
  editorStore.getState().setStateVisible(true);
  const level = currentLevel(editorStore.getState());
  const nodes = buildFlowNodes(level, [], true, new Set(), boxEstimator(true));
  const edges = buildFlowEdges(level, [], true, new Set());
  return { nodes, edges, scene: buildFarScene(nodes, edges) };
}
