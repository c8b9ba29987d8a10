// Access grant edge (docs/reference-system.md §5.2): a permission, not a wire. Straight, dashed violet
// (#8b5cf6, "6 4"), width 1.5, half transparent, no arrowhead, never animated.
// Two things keep it as cheap to draw as a data edge (canvas.dashed_vs_solid):
// - the transparency is the stroke's (stroke-opacity), not the element's: SVG `opacity` makes
//   Chrome paint each path into a layer of its own and blend it, on every frame that repaints;
// - zoomed out (level of detail, detail.ts) the dashes are under two screen pixels, so they are
//   drawn as a solid stroke of the same average ink (a dash covers 6/10 of the line): the same
//   look at that size, without dashing hundreds of long paths into thousands of segments.
import { memo, use } from 'react';
import { BaseEdge, getStraightPath, type EdgeProps } from '@xyflow/react';
import { LowDetailContext } from './detail.ts';
import type { FlowEdge } from './flowMapping.ts';

const COLOR = '#8b5cf6';
const DASH = '6 4';
/** Share of the line a dash covers ("6 4": 6 of every 10 px). */
const DASH_INK = 6 / 10;
const OPACITY = 0.5;

const GRANT_STYLE = { stroke: COLOR, strokeDasharray: DASH, strokeWidth: 1.5, strokeOpacity: OPACITY };
const GRANT_SELECTED_STYLE = { ...GRANT_STYLE, strokeOpacity: 1, strokeWidth: 2 };
const GRANT_LOW_DETAIL_STYLE = { stroke: COLOR, strokeWidth: 1.5, strokeOpacity: OPACITY * DASH_INK };
const GRANT_LOW_DETAIL_SELECTED_STYLE = { stroke: COLOR, strokeWidth: 2, strokeOpacity: DASH_INK };

/** The stroke of a grant edge at this level of detail and selection. */
export function grantStyle(lowDetail: boolean, selected: boolean) {
  if (lowDetail) return selected ? GRANT_LOW_DETAIL_SELECTED_STYLE : GRANT_LOW_DETAIL_STYLE;
  return selected ? GRANT_SELECTED_STYLE : GRANT_STYLE;
}

function GrantEdgeView({ id, sourceX, sourceY, targetX, targetY, selected }: EdgeProps<FlowEdge>) {
  const lowDetail = use(LowDetailContext);
  const [path] = getStraightPath({ sourceX, sourceY, targetX, targetY });
  return (
    <BaseEdge id={id} path={path} style={grantStyle(lowDetail, selected ?? false)} className="grant-edge" />
  );
}

export const GrantEdge = memo(GrantEdgeView);
