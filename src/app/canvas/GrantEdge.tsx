// Access grant edge (REFERENCE.md 5.2): a permission, not a wire. Straight, dashed violet
// (#8b5cf6, "6 4"), width 1.5, opacity 0.5, no arrowhead, never animated.
import { memo } from 'react';
import { BaseEdge, getStraightPath, type EdgeProps } from '@xyflow/react';
import type { FlowEdge } from './flowMapping.ts';

const STYLE = { stroke: '#8b5cf6', strokeDasharray: '6 4', strokeWidth: 1.5, opacity: 0.5 };
const SELECTED_STYLE = { ...STYLE, opacity: 1, strokeWidth: 2 };

function GrantEdgeView({ id, sourceX, sourceY, targetX, targetY, selected }: EdgeProps<FlowEdge>) {
  const [path] = getStraightPath({ sourceX, sourceY, targetX, targetY });
  return <BaseEdge id={id} path={path} style={selected ? SELECTED_STYLE : STYLE} className="grant-edge" />;
}

export const GrantEdge = memo(GrantEdgeView);
