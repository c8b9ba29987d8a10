// Data edge: the plain bezier wire, plus for an edge of a routed port (flowMapping.ts) its route mark
// and, for an edge with a condition and/or effect, a label chip with the condition at the curve's
// middle. Zoomed out the chip grows so its text stays at least 9 screen px (LabelScale.tsx's rule),
// and is never wider than the room between the edge's ends, so it does not cover the handles (the
// text is cut with an ellipsis); where that room holds no readable text the chip is an empty marker.
// The full text is its tooltip. During a run (or inspecting a step) the
// edge a routing node took flashes, and where the port had a choice it stays bright while the port's
// other conditional edges dim, until the node routes again (src/app/routing/routeMarks.ts).
import { memo } from 'react';
import {
  BaseEdge,
  EdgeLabelRenderer,
  getBezierPath,
  Position,
  useStore,
  type EdgeProps,
  type ReactFlowState,
} from '@xyflow/react';
import type { EdgeDef } from '../../domain/graph/graph.schema.ts';
import { chipText } from '../routing/conditionText.ts';
import { markNote, routedEdgeOf, type RouteMark } from '../routing/routeMarks.ts';
import { useRouteMark } from '../routing/useRouteMark.ts';
import { currentLevel, editorStore, useEditor } from '../store/editor.store.ts';
import type { FlowEdge } from './flowMapping.ts';
import { MIN_LABEL_PX } from './LabelScale.tsx';

const TAKEN_STYLE = { stroke: '#34d399', strokeWidth: 2.5 };
const FAILED_STYLE = { stroke: '#f87171', strokeWidth: 2.5, strokeDasharray: '6 3' };
/** Flow px kept free at each end of the edge (handle dot and a little air). */
const END_ROOM = 16;
/**
 * Below this much room (flow px at scale 1) a chip shows only a marker (the tooltip and the inspector
 * say the rest): about four characters.
 */
const MIN_TEXT_ROOM = 40;
const CHIP_TEXT_PX = 10;

/** The chip's scale at `zoom`: 1, or enough for its 10 px text to be MIN_LABEL_PX on screen (0.1 steps). */
export function chipScale(zoom: number): number {
  return Math.max(1, Math.ceil((MIN_LABEL_PX / (CHIP_TEXT_PX * zoom)) * 10 - 1e-9) / 10);
}
const chipScaleOf = (s: ReactFlowState) => chipScale(s.transform[2]);

function RouteChip({
  edge,
  mark,
  x,
  y,
  room,
  selected,
}: {
  edge: EdgeDef;
  mark: RouteMark;
  x: number;
  y: number;
  room: number;
  selected: boolean;
}) {
  const scale = useStore(chipScaleOf);
  const chip = chipText(edge);
  if (!chip) return null;
  const tone =
    mark.kind === 'taken' && mark.choice
      ? 'border-emerald-400 bg-emerald-950 text-emerald-200'
      : mark.kind === 'failed'
        ? 'border-red-400 bg-red-950 text-red-200'
        : selected
          ? 'border-sky-500 bg-zinc-900 text-sky-200'
          : edge.condition === undefined
            ? 'border-zinc-600 bg-zinc-900 text-zinc-300'
            : 'border-amber-700/70 bg-zinc-900 text-amber-200';
  // Too little room for a few readable characters: a marker without text.
  const tiny = room < MIN_TEXT_ROOM * scale;
  return (
    <EdgeLabelRenderer>
      <div
        data-testid={`edge-chip-${edge.id}`}
        data-route={mark.kind}
        title={`${chip.full}${markNote(mark)}`}
        onClick={() =>
          editorStore.getState().setSelection({ nodes: [], containers: [], edges: [edge.id], grants: [] })
        }
        style={{
          transform: `translate(-50%, -50%) translate(${x}px, ${y}px) scale(${scale})`,
          maxWidth: `${Math.max(room, 12) / scale}px`,
        }}
        className={`nodrag nopan pointer-events-auto absolute cursor-pointer truncate rounded border px-1 text-[10px] leading-4 font-medium whitespace-nowrap shadow ${tone} ${mark.kind === 'untaken' ? 'opacity-40' : ''} ${tiny ? 'h-3 w-3' : ''}`}
      >
        {tiny ? null : chip.short}
      </div>
    </EdgeLabelRenderer>
  );
}

/** The edge's bezier and its middle, from React Flow's props (handles on the left and right). */
function bezierOf(p: EdgeProps<FlowEdge>): [path: string, labelX: number, labelY: number] {
  const [path, labelX, labelY] = getBezierPath({
    sourceX: p.sourceX,
    sourceY: p.sourceY,
    sourcePosition: p.sourcePosition ?? Position.Right,
    targetX: p.targetX,
    targetY: p.targetY,
    targetPosition: p.targetPosition ?? Position.Left,
  });
  return [path, labelX, labelY];
}

/**
 * An edge of a port that does not route: the bezier from its props alone. A graph's edges are
 * nearly all of this kind, and a thousand edges each subscribing to the editor and run stores cost
 * the first render more than drawing them.
 */
function PlainEdgeView(props: EdgeProps<FlowEdge>) {
  const { id, style, markerEnd, interactionWidth } = props;
  return (
    <BaseEdge
      id={id}
      path={bezierOf(props)[0]}
      style={style}
      markerEnd={markerEnd}
      interactionWidth={interactionWidth}
    />
  );
}

/** An edge of a routed port: its route mark (taken, untaken, failed) and its condition chip. */
function RoutedEdgeView(props: EdgeProps<FlowEdge>) {
  const { id, source, sourceX, sourceY, targetX, targetY, sourceHandleId, style, markerEnd } = props;
  const { interactionWidth, selected, data } = props;
  const defId = data?.defId ?? '';
  const routed = useEditor((s) => routedEdgeOf(currentLevel(s), defId));
  const mark = useRouteMark(source, sourceHandleId ?? '', defId, routed?.condition !== undefined);
  const [path, labelX, labelY] = bezierOf(props);
  const markStyle =
    mark.kind === 'failed' ? FAILED_STYLE : mark.kind === 'taken' && mark.choice ? TAKEN_STYLE : null;
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        style={markStyle ? { ...style, ...markStyle } : style}
        markerEnd={markerEnd}
        interactionWidth={interactionWidth}
        className={mark.kind === 'untaken' ? 'sw-route-dim' : undefined}
      />
      {/* Keyed by the route's seq, so every new route of the node plays the flash again. */}
      {mark.kind === 'taken' && (
        <path key={mark.seq} d={path} className="sw-route-flash" fill="none" data-route-seq={mark.seq} />
      )}
      {routed && (
        <RouteChip
          edge={routed}
          mark={mark}
          x={labelX}
          y={labelY}
          room={Math.hypot(targetX - sourceX, targetY - sourceY) - 2 * END_ROOM}
          selected={selected ?? false}
        />
      )}
    </>
  );
}

function DataEdgeView(props: EdgeProps<FlowEdge>) {
  return props.data?.routedPort ? <RoutedEdgeView {...props} /> : <PlainEdgeView {...props} />;
}

export const DataEdge = memo(DataEdgeView);
