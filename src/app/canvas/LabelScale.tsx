// Readable labels when zoomed out: below the zoom where an 11 px title is 9 screen pixels, node and
// container titles are scaled up (a transform, so no node is re-measured and no edge moves) and
// the small type label beside a node's title makes room. The canvas wrapper carries the scale as
// --sw-label-scale (set through the CSSOM: the CSP forbids inline <style>), and the label size of
// zoomed-out node boxes as --sw-box-font (nodeBox.ts).
import { useEffect, type RefObject } from 'react';
import { useStore, type ReactFlowState } from '@xyflow/react';
import { boxFontPx } from './nodeBox.ts';

/** Screen pixels a title should keep at least. */
export const MIN_LABEL_PX = 9;
const TITLE_PX = 11;
const MAX_SCALE = 1.8;

/** Scale for titles at `zoom`, in steps of 0.1 so zooming does not restyle on every frame. */
export function labelScale(zoom: number): number {
  const s = MIN_LABEL_PX / (TITLE_PX * zoom);
  if (!(s > 1)) return 1;
  return Math.min(MAX_SCALE, Math.ceil(s * 10) / 10);
}

const scaleOf = (s: ReactFlowState) => labelScale(s.transform[2]);
const boxFontOf = (s: ReactFlowState) => boxFontPx(s.transform[2]);

export function LabelScale({ target }: { target: RefObject<HTMLElement | null> }) {
  const scale = useStore(scaleOf);
  const boxFont = useStore(boxFontOf);
  useEffect(() => {
    target.current?.style.setProperty('--sw-box-font', `${boxFont}px`);
  }, [boxFont, target]);
  useEffect(() => {
    const el = target.current;
    if (!el) return;
    el.style.setProperty('--sw-label-scale', String(scale));
    el.dataset.labelScale = scale > 1 ? 'up' : 'none';
  }, [scale, target]);
  return null;
}
