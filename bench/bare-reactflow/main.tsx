// The canvas benchmark's baseline: bare React Flow with its default nodes and edges, fed the same
// graph JSON over HTTP as the app (`/api/graphs/<id>`), with the app's fitView options, zoom limits
// and colour mode. Nothing else: no store, no custom nodes, no culling (React Flow's defaults).
import '@xyflow/react/dist/style.css';
import { createRoot } from 'react-dom/client';
import { ReactFlow, type Edge, type Node } from '@xyflow/react';

interface GraphJson {
  nodes: { id: string; label?: string; position: { x: number; y: number } }[];
  edges: { id: string; source: string; target: string }[];
}

// The app's fit options and zoom limits (src/app/canvas/initialViewport.ts FIT_OPTIONS, MIN_ZOOM).
const FIT_OPTIONS = { padding: 0.08, maxZoom: 1.2 };

async function main() {
  const id = new URLSearchParams(location.search).get('graph') ?? '';
  const graph = (await (await fetch(`/api/graphs/${encodeURIComponent(id)}`)).json()) as GraphJson;
  const nodes: Node[] = graph.nodes.map((n) => ({
    id: n.id,
    position: n.position,
    data: { label: n.label || n.id },
  }));
  // Default nodes have one unnamed handle per side, so the graph's handle ids are dropped.
  const edges: Edge[] = graph.edges.map((e) => ({ id: e.id, source: e.source, target: e.target }));
  createRoot(document.getElementById('root')!).render(
    <ReactFlow
      defaultNodes={nodes}
      defaultEdges={edges}
      fitView
      fitViewOptions={FIT_OPTIONS}
      minZoom={0.02}
      maxZoom={4}
      colorMode="dark"
      zoomOnDoubleClick={false}
    />,
  );
}

void main();
