// Hover by event delegation: one pointerover listener on the canvas instead of enter/leave handlers
// on every node. It ignores movement while a button is held (panning slides the canvas under the
// cursor, which used to fire a hover change per node crossed) and writes nothing to the store: the
// related elements get data-related="true" directly (hoverRelations.ts; CSS draws the border).
import { useEffect, type RefObject } from 'react';
import { currentLevel, editorStore } from '../store/editor.store.ts';
import { relatedFlowIds } from './hoverRelations.ts';

/** The element carrying data-related for a flow node: the node component's root. */
function nodeRoot(canvas: HTMLElement, flowId: string): Element | null {
  const wrapper = canvas.querySelector(`.react-flow__node[data-id="${CSS.escape(flowId)}"]`);
  return wrapper?.firstElementChild ?? null;
}

export function useDelegatedHover(canvasRef: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let hovered: string | null = null;
    let marked: Element[] = [];
    const apply = (flowId: string | null) => {
      if (flowId === hovered) return;
      hovered = flowId;
      for (const el of marked) el.setAttribute('data-related', 'false');
      marked = [];
      for (const id of relatedFlowIds(currentLevel(editorStore.getState()), flowId)) {
        const el = nodeRoot(canvas, id);
        if (!el) continue; // culled: it is off screen, nothing to highlight
        el.setAttribute('data-related', 'true');
        marked.push(el);
      }
    };
    const onOver = (e: PointerEvent) => {
      if (e.buttons !== 0) return;
      const node = (e.target as Element | null)?.closest?.('.react-flow__node');
      apply(node?.getAttribute('data-id') ?? null);
    };
    const onLeave = () => apply(null);
    canvas.addEventListener('pointerover', onOver);
    canvas.addEventListener('pointerleave', onLeave);
    return () => {
      canvas.removeEventListener('pointerover', onOver);
      canvas.removeEventListener('pointerleave', onLeave);
      apply(null);
    };
  }, [canvasRef]);
}
