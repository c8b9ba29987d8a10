// A small level for the canvas's unit tests, opened in the editor store: a constant feeding an
// llmCall feeding a textParse, and a container the llmCall is granted.
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { editorStore } from '../store/editor.store.ts';

export function openTestLevel(stateVisible: boolean, llmLabel = 'LLM'): void {
  const g = emptyGraph('t');
  g.nodes = [
    { id: 'src', type: 'constant', label: 'Src', position: { x: 0, y: 0 }, config: {} },
    { id: 'llm', type: 'llmCall', label: llmLabel, position: { x: 300, y: 0 }, config: {} },
    { id: 'parse', type: 'textParse', label: 'Parse', position: { x: 600, y: 0 }, config: {} },
  ];
  g.edges = [
    { id: 'e1', source: 'src', target: 'llm', sourceHandle: 'value', targetHandle: 'prompt' },
    { id: 'e2', source: 'llm', target: 'parse', sourceHandle: 'response', targetHandle: 'text' },
  ];
  g.containers = [{ id: 'mem', label: 'Mem', position: { x: 0, y: 300 }, states: {} }];
  g.access_grants = [{ id: 'g1', node_id: 'llm', container_id: 'mem' }];
  editorStore.setState({ tabs: [], activeTabId: null });
  editorStore.getState().openTab({ graph: g });
  editorStore.getState().setStateVisible(stateVisible);
}
