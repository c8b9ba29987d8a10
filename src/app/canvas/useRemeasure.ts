// A node component whose handles become other elements (box ↔ full body, ports or the State anchor
// changed) asks React Flow to measure its handles again, batched with every node that changes in the
// same commit (detail.ts queueInternalsUpdate). Not on mount: React Flow measures a new node anyway,
// and asking then would make it run its initial fitView before the other nodes are measured.
import { useEffect, useRef } from 'react';
import { useStoreApi, useUpdateNodeInternals } from '@xyflow/react';
import { queueInternalsUpdate } from './detail.ts';

/** `handleKey` changes exactly when the node's handle elements do. */
export function useRemeasureOnChange(flowId: string, handleKey: string): void {
  const updateNodeInternals = useUpdateNodeInternals();
  // useStoreApi() gives each caller its own wrapper object; its getState is the flow store's own.
  const flowKey = useStoreApi().getState;
  const lastKey = useRef(handleKey);
  useEffect(() => {
    if (lastKey.current === handleKey) return;
    lastKey.current = handleKey;
    queueInternalsUpdate(flowKey, updateNodeInternals, flowId);
  }, [flowId, handleKey, updateNodeInternals, flowKey]);
}
