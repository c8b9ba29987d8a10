// The canvas's small test level (testLevel.ts) as the far view gets it: State shown, every flow node
// with its box geometry (canvasStart.ts boxEstimator), and its scene. The llmCall's label is longer
// than its box.
import { currentLevel, editorStore } from '../../store/editor.store.ts';
import { boxEstimator } from '../canvasStart.ts';
import { buildFlowEdges, buildFlowNodes } from '../flowMapping.ts';
import { openTestLevel } from '../testLevel.ts';
import { buildFarScene } from './farScene.ts';

export function openFarTestGraph() {
  openTestLevel(true, 'A rather long label');
  const level = currentLevel(editorStore.getState());
  const nodes = buildFlowNodes(level, [], true, new Set(), boxEstimator(true));
  const edges = buildFlowEdges(level, [], true, new Set());
  return { nodes, edges, scene: buildFarScene(nodes, edges) };
}
