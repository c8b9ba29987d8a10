// Whether the canvas shows the far view now (farMode.ts's rule, with its hysteresis), following the
// zoom in React Flow's store without re-rendering the canvas on every frame: the canvas renders again
// only when the answer changes. `onEnter` runs in the same batch as the switch, before the far view's
// first frame (the canvas gives every node its box geometry there, far/farScene.ts).
import { useEffect, useRef, useState } from 'react';
import { getNodesBounds, getViewportForBounds, type ReactFlowInstance } from '@xyflow/react';
import type { FlowEdge, FlowNode } from '../flowMapping.ts';
import { MIN_ZOOM } from '../initialViewport.ts';
import type { FlowStoreApi } from './farController.ts';
import { nextFar } from './farMode.ts';

export function useFarMode(
  flowStore: FlowStoreApi,
  startFar: boolean,
  flowNodeCount: number,
  onEnter: () => void,
): boolean {
  const [far, setFar] = useState(startFar);
  const farRef = useRef(far);
  const countRef = useRef(flowNodeCount);
  countRef.current = flowNodeCount;
  const enterRef = useRef(onEnter);
  enterRef.current = onEnter;
  useEffect(() => {
    const update = () => {
      const s = flowStore.getState();
      // Until React Flow has set up its viewport the store holds zoom 1, not the start's zoom.
      if (!s.panZoom) return;
      const next = nextFar(farRef.current, s.transform[2], countRef.current);
      if (next === farRef.current) return;
      farRef.current = next;
      if (next) enterRef.current();
      setFar(next);
    };
    update();
    return flowStore.subscribe((s, prev) => {
      if (s.transform !== prev.transform || s.panZoom !== prev.panZoom) update();
    });
  }, [flowStore, flowNodeCount]);
  return far;
}

/**
 * Fits flow nodes into the view as React Flow's fitView does, for the far view: React Flow holds no
 * nodes there, so its own fitView has nothing to fit. `ids`: only those nodes.
 */
export function fitFarNodes(
  flow: ReactFlowInstance<FlowNode, FlowEdge>,
  flowStore: FlowStoreApi,
  nodes: readonly FlowNode[],
  options: { padding: number; maxZoom: number; duration?: number; ids?: ReadonlySet<string> },
): void {
  const { ids } = options;
  const fit = ids ? nodes.filter((n) => ids.has(n.id)) : nodes;
  if (fit.length === 0) return;
  const { width, height } = flowStore.getState();
  const viewport = getViewportForBounds(
    getNodesBounds([...fit]),
    width,
    height,
    MIN_ZOOM,
    options.maxZoom,
    options.padding,
  );
  void flow.setViewport(viewport, { duration: options.duration });
}
