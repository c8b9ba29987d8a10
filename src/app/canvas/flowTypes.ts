// nodeTypes / edgeTypes at module scope so React Flow never sees new objects between renders.
import type { EdgeTypes, NodeTypes } from '@xyflow/react';
import { ContainerNode } from './ContainerNode.tsx';
import { DataEdge } from './DataEdge.tsx';
import { GrantEdge } from './GrantEdge.tsx';
import { GraphNode } from './GraphNode.tsx';
import { NoteNode } from './NoteNode.tsx';

export const nodeTypes: NodeTypes = {
  graphNode: GraphNode,
  composite: GraphNode,
  container: ContainerNode,
  note: NoteNode,
};
export const edgeTypes: EdgeTypes = { data: DataEdge, grant: GrantEdge };
