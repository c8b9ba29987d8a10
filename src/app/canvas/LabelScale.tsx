// Legible text at every zoom: no text on the canvas renders below MIN_LABEL_PX screen pixels. A text
// either stays readable or is hidden; a node zoomed out shows its label only:
// - node and container titles (11 px) are scaled up below the zoom where they would be 9 screen px
//   (a transform, so no node is re-measured and no edge moves), as far as the lowest zoom a full node
//   is drawn at (LOW_DETAIL_ZOOM: below it a node is a box);
// - every other text (port names, type labels, badges, values, notes) is hidden once its size on
//   screen would be under 9 px: the canvas wrapper carries data-text-min, the smallest flow font
//   size still legible at this zoom, and canvas.css hides the smaller ones (visibility, so nothing
//   moves);
// - a zoomed-out box's label (--sw-box-font, nodeBox.ts) is hidden where even its largest size would
//   be under 9 px; the far view draws its labels by the same rule (far/farDraw.ts).
// The scale goes to the wrapper as --sw-label-scale, through the CSSOM (the CSP forbids inline <style>).
import { useEffect, type RefObject } from 'react';
import { useStore, type ReactFlowState } from '@xyflow/react';
import { boxFontPx } from './nodeBox.ts';
import { LOW_DETAIL_ZOOM } from './detail.ts';

/** Screen pixels a text keeps at least, or it is not shown. */
export const MIN_LABEL_PX = 9;
const TITLE_PX = 11;
/** In 0.1 steps, so zooming does not restyle on every frame. */
const step = (s: number) => Math.ceil(s * 10 - 1e-9) / 10;
/** The scale a title needs at the lowest zoom a full node is drawn at. */
const MAX_SCALE = step(MIN_LABEL_PX / (TITLE_PX * LOW_DETAIL_ZOOM));

/** Scale for titles at `zoom`. */
export function labelScale(zoom: number): number {
  const s = MIN_LABEL_PX / (TITLE_PX * zoom);
  if (!(s > 1)) return 1;
  return Math.min(MAX_SCALE, step(s));
}

/** The font sizes (flow px) the canvas uses for text other than titles, smallest first. */
const TEXT_SIZES = [9, 10, 11] as const;

/**
 * The smallest of the canvas's text sizes still at least MIN_LABEL_PX on screen at `zoom`, or
 * 'title' when none is (then only the scaled titles show).
 */
export function textMin(zoom: number): '9' | '10' | '11' | 'title' {
  const size = TEXT_SIZES.find((px) => px * zoom >= MIN_LABEL_PX);
  return size === undefined ? 'title' : (String(size) as '9' | '10' | '11');
}

/** A zoomed-out box's label size (flow px) at `zoom`, or 0 where it would be under MIN_LABEL_PX. */
export function boxLabelPx(zoom: number): number {
  const px = boxFontPx(zoom);
  return px * zoom >= MIN_LABEL_PX ? px : 0;
}

const scaleOf = (s: ReactFlowState) => labelScale(s.transform[2]);
const boxFontOf = (s: ReactFlowState) => boxLabelPx(s.transform[2]);
const textMinOf = (s: ReactFlowState) => textMin(s.transform[2]);

export function LabelScale({ target }: { target: RefObject<HTMLElement | null> }) {
  const scale = useStore(scaleOf);
  const boxFont = useStore(boxFontOf);
  const min = useStore(textMinOf);
  useEffect(() => {
    target.current?.style.setProperty('--sw-box-font', `${boxFont}px`);
  }, [boxFont, target]);
  useEffect(() => {
    if (target.current) target.current.dataset.textMin = min;
  }, [min, target]);
  useEffect(() => {
    const el = target.current;
    if (!el) return;
    el.style.setProperty('--sw-label-scale', String(scale));
    el.dataset.labelScale = scale > 1 ? 'up' : 'none';
  }, [scale, target]);
  return null;
}
