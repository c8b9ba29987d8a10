// Memo comparators for canvas node components. React Flow passes every node its measured width and
// height, absolute position, z-index and drag flag; our nodes draw none of those (they select their
// own data by id from the store), so comparing them would re-render every node and all its handles
// once more when React Flow finishes measuring, and the dragged node on every drag frame.
import type { NodeProps } from '@xyflow/react';
import type { FlowNode } from './flowMapping.ts';

/** Equal when what the node draws from its props is unchanged: id, data and selection. */
export function sameNodeView(a: NodeProps<FlowNode>, b: NodeProps<FlowNode>): boolean {
  return a.id === b.id && a.data === b.data && a.selected === b.selected && a.type === b.type;
}
