// The canvas: React Flow over the active tab's current graph level. React Flow keeps only transient
// view state (drag positions, measured sizes, selection flags); every committed change goes through
// a store action (drag stop = one undo step). Handlers are stable callbacks; types are module-scope.
// (Past 400 lines because it is where React Flow meets the stores: the flow mapping, selection,
// fits, drops, the level-of-detail switches. Whatever has logic of its own lives beside it:
// canvasStart.ts, far/, detail.ts, nodeEstimate.ts, selectionSync.ts.)
import '@xyflow/react/dist/style.css';
import './canvas.css';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type DragEvent } from 'react';
import {
  applyEdgeChanges,
  applyNodeChanges,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  SelectionMode,
  useReactFlow,
  useStore,
  useStoreApi,
  type ReactFlowState,
  type Connection,
  type EdgeChange,
  type NodeChange,
  type OnConnectEnd,
  type OnNodeDrag,
  type NodeMouseHandler,
} from '@xyflow/react';
import type { Position } from '../../domain/graph/graph.schema.ts';
import { addNodeOfType, commitMove, connectHandles } from '../store/actions.ts';
import { activeTab } from '../store/doc.slice.ts';
import { currentLevel, editorStore, useEditor, type EditorState } from '../store/editor.store.ts';
import { provideViewCentre } from '../store/viewCentre.ts';
import { issuesOf } from '../store/derived.ts';
import { importFileIntoNewTab } from '../files/importExport.ts';
import {
  buildFlowEdges,
  buildFlowNodes,
  flowIdForElement,
  fromFlowNodeId,
  type FlowEdge,
  type FlowNode,
} from './flowMapping.ts';
import { edgeTypes, nodeTypes } from './flowTypes.ts';
import { CanvasGrid } from './CanvasGrid.tsx';
import { LOW_DETAIL_ZOOM, LowDetailContext } from './detail.ts';
import { FIT_OPTIONS, MIN_ZOOM } from './initialViewport.ts';
import { dropMeasuredEstimates, dropBoxHandles } from './nodeEstimate.ts';
import { boxEstimator, canvasStart } from './canvasStart.ts';
import { GRAPH_DRAG_MIME, NODE_DRAG_MIME } from '../ui/dragMime.ts';
import { motionMs } from '../ui/motion.ts';
import { dropGraphNode } from '../commands/graphNodes.ts';
import { refusalOf, toConnectRequest } from './connectionCheck.ts';
import { ConnectionFeedback } from './ConnectionFeedback.tsx';
import { LabelScale } from './LabelScale.tsx';
import { useDelegatedHover } from './useDelegatedHover.ts';
import { useAfterFirstPaint } from './useAfterFirstPaint.ts';
import { createSelectionTracker, flowIdsOfSelection } from './selectionSync.ts';
import { shouldCull } from './culling.ts';
import { skipConfirmedEstimates } from './exactEstimates.ts';
import { RouteFailurePanel } from './RouteFailurePanel.tsx';
import { FarLayer } from './far/FarLayer.tsx';
import { fitFarNodes, useFarMode } from './far/useFarMode.ts';

const SNAP_GRID: [number, number] = [20, 20];
const PRO_OPTIONS = { hideAttribution: true };
const MULTI_KEYS = ['Shift', 'Meta', 'Control'];
/**
 * Bottom left beside the zoom controls and small: in the bottom-right corner it covered the
 * containers that usually sit under a graph's last nodes (the demo's Nav Memory) at the default fit.
 */
const MINIMAP_STYLE = { background: '#18181b', width: 160, height: 110, marginLeft: 56 };
/** Null until React Flow has set up its viewport. */
const isLowDetail = (s: ReactFlowState): boolean | null =>
  s.panZoom ? s.transform[2] < LOW_DETAIL_ZOOM : null;

function minimapColor(n: FlowNode): string {
  return n.type === 'container' ? '#7c3aed' : '#52525b';
}

let lastFocusNonce = 0;
/** What React Flow holds while the far view draws the level (far/FarLayer.tsx). */
const NO_NODES: FlowNode[] = [];
const NO_EDGES: FlowEdge[] = [];

/** React Flow asks this while dragging: a connection the store would refuse is not offered. */
const isValidConnection = (c: Connection | FlowEdge): boolean => refusalOf(c) === null;

const NO_EDGE_ERRORS: ReadonlySet<string> = new Set();
const edgeErrorCache = new WeakMap<object, ReadonlySet<string>>();

/** Ids of data edges that validation marks as errors (stable per validation result). */
function edgeErrorIds(s: EditorState): ReadonlySet<string> {
  const idx = issuesOf(s);
  let set = edgeErrorCache.get(idx);
  if (!set) {
    const ids = idx.all.filter((i) => i.severity === 'error' && i.edgeId).map((i) => i.edgeId!);
    set = ids.length ? new Set(ids) : NO_EDGE_ERRORS;
    edgeErrorCache.set(idx, set);
  }
  return set;
}

function CanvasSized() {
  const wrapper = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useLayoutEffect(() => {
    // A new flow instance starts with nothing selected: a selection belongs to the level it was
    // made on, and React Flow must not mount with flags the store no longer means.
    editorStore.getState().clearSelection();
    const r = wrapper.current?.getBoundingClientRect();
    if (r) setSize({ width: r.width, height: r.height });
  }, []);
  return (
    <div ref={wrapper} className="h-full w-full">
      {size && <CanvasInner size={size} />}
    </div>
  );
}

function CanvasInner({ size }: { size: { width: number; height: number } }) {
  const level = useEditor(currentLevel);
  const stateVisible = useEditor((s) => activeTab(s)?.stateVisible ?? false);
  const selection = useEditor((s) => s.selection);
  const snap = useEditor((s) => s.snapToGrid);
  const focusRequest = useEditor((s) => s.focusRequest);
  const fitNonce = useEditor((s) => s.fitNonce);
  const flow = useReactFlow<FlowNode, FlowEdge>();
  // Before React Flow renders its nodes (its ResizeObserver keeps the function it finds then).
  const flowStore = useStoreApi();
  useState(() => skipConfirmedEstimates(flowStore));
  const wrapper = useRef<HTMLDivElement>(null);
  const refusal = useRef<string | null>(null);
  /** The refusal shown at the cursor while dragging (ConnectionFeedback), toasted if dropped there. */
  const hintRefusal = useRef<string | null>(null);

  const [start] = useState(() => canvasStart(level, size, stateVisible));
  // Fit only a graph that has something to fit: on an empty canvas React Flow would otherwise
  // re-centre the view on the first node the user drops. A start fitted to every box's exact size
  // needs no fit either: React Flow's, once its nodes are measured, would set the same viewport
  // again, and on a thousand boxes that costs a pass over every node in the first frame.
  const [fitOnInit] = useState(() => level.nodes.length + level.containers.length > 0 && !start.exact);
  // Until React Flow has set up its viewport the store holds zoom 1, not the zoom we start at.
  const zoomLow = useStore(isLowDetail);
  const [nodes, setNodes] = useState<FlowNode[]>(() =>
    buildFlowNodes(level, [], stateVisible, flowIdsOfSelection(selection), start.estimates),
  );
  // Far out a big level is drawn in one canvas layer (far/FarLayer.tsx); entering it, every node gets
  // its box geometry (as at a zoomed-out start), which the layer draws and React Flow gets back when
  // the view zooms in again (so its culling never mounts unmeasured nodes to measure them).
  const far = useFarMode(flowStore, start.far, nodes.length, () => {
    const s = editorStore.getState();
    const visible = activeTab(s)?.stateVisible ?? false;
    setNodes(
      buildFlowNodes(currentLevel(s), [], visible, flowIdsOfSelection(s.selection), boxEstimator(visible)),
    );
  });
  const farRef = useRef(far);
  farRef.current = far;
  const nodesRef = useRef(nodes);
  nodesRef.current = nodes;
  const lowDetail = far || (zoomLow ?? start.low);
  // Read by the mapping effect without re-running it on every zoom across the threshold.
  const lowDetailRef = useRef(lowDetail);
  lowDetailRef.current = lowDetail;
  useDelegatedHover(wrapper);
  // The minimap comes after the first paint (useAfterFirstPaint.ts).
  const minimapOn = useAfterFirstPaint();
  const edgeErrors = useEditor(edgeErrorIds);
  const [tracker] = useState(() => createSelectionTracker((sel) => editorStore.getState().setSelection(sel)));
  const [edges, setEdges] = useState<FlowEdge[]>(() =>
    buildFlowEdges(level, [], stateVisible, flowIdsOfSelection(selection), edgeErrors),
  );

  // What the mapping below last ran for: a box's geometry follows the graph and the State toggle
  // only, so a selection or an edge's error mark alone recomputes no box estimate.
  const mappedFor = useRef({ level, stateVisible });
  useEffect(() => {
    const sel = flowIdsOfSelection(selection);
    tracker.reset(
      [...sel].filter((f) => !f.startsWith('e:') && !f.startsWith('g:')),
      [...sel].filter((f) => f.startsWith('e:') || f.startsWith('g:')),
    );
    // Nodes new to the flow (added, pasted) get their box geometry too while zoomed out, and boxes
    // whose ports or State anchor changed get it again.
    const geometryMayChange =
      mappedFor.current.level !== level || mappedFor.current.stateVisible !== stateVisible;
    mappedFor.current = { level, stateVisible };
    const estimate = lowDetailRef.current && geometryMayChange ? boxEstimator(stateVisible) : undefined;
    setNodes((prev) => buildFlowNodes(level, prev, stateVisible, sel, estimate));
    setEdges((prev) => buildFlowEdges(level, prev, stateVisible, sel, edgeErrors));
  }, [level, stateVisible, selection, edgeErrors, tracker]);

  useEffect(() => {
    // Each request is served once, not again when the flow remounts for another tab or level.
    if (!focusRequest || focusRequest.nonce <= lastFocusNonce) return;
    lastFocusNonce = focusRequest.nonce;
    const lvl = currentLevel(editorStore.getState());
    const flowIds = focusRequest.ids
      .map((id) => flowIdForElement(lvl, id))
      .filter((x): x is string => x !== null);
    // An id naming a data edge selects that edge and centres both its ends.
    const edges = lvl.edges.filter((e) => focusRequest.ids.includes(e.id) && !flowIds.includes(e.id));
    const ends = edges.flatMap((e) => [e.source, e.target]).filter((id) => flowIdForElement(lvl, id) === id);
    if (flowIds.length + ends.length === 0) return;
    const s = editorStore.getState();
    s.setSelection({
      nodes: flowIds.filter((f) => fromFlowNodeId(f).kind === 'node'),
      containers: flowIds
        .map(fromFlowNodeId)
        .filter((f) => f.kind === 'container')
        .map((f) => f.id),
      edges: edges.map((e) => e.id),
      grants: [],
    });
    const focus = { duration: motionMs(200), maxZoom: 1, padding: 0.4 };
    if (farRef.current)
      fitFarNodes(flow, flowStore, nodesRef.current, { ...focus, ids: new Set([...flowIds, ...ends]) });
    else
      void flow.fitView({
        ...focus,
        nodes: [...flowIds, ...ends].map((id) => ({ id })),
        includeHiddenNodes: true, // a node culled before it was ever measured counts by its given size
      });
  }, [focusRequest, flow, flowStore]);

  useEffect(() => {
    if (!lowDetail) setNodes(dropBoxHandles);
  }, [lowDetail]);

  useEffect(() => {
    if (fitNonce === 0) return;
    if (farRef.current)
      fitFarNodes(flow, flowStore, nodesRef.current, { ...FIT_OPTIONS, duration: motionMs(200) });
    else void flow.fitView({ ...FIT_OPTIONS, duration: motionMs(200) });
  }, [fitNonce, flow, flowStore]);
  // The Controls' fit button asks React Flow, which holds no nodes in the far view.
  const onFitView = useCallback(() => {
    if (farRef.current) fitFarNodes(flow, flowStore, nodesRef.current, FIT_OPTIONS);
  }, [flow, flowStore]);
  // A click on empty pane clears the selection; far out React Flow has no node to unselect.
  const onPaneClick = useCallback(() => {
    if (farRef.current) editorStore.getState().clearSelection();
  }, []);

  const onNodesChange = useCallback(
    (changes: NodeChange<FlowNode>[]) => {
      tracker.nodeChanges(changes);
      setNodes((ns) =>
        dropMeasuredEstimates(
          applyNodeChanges(
            changes.filter((c) => c.type !== 'remove'),
            ns,
          ),
          changes,
        ),
      );
    },
    [tracker],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange<FlowEdge>[]) => {
      tracker.edgeChanges(changes);
      setEdges((es) =>
        applyEdgeChanges(
          changes.filter((c) => c.type !== 'remove'),
          es,
        ),
      );
    },
    [tracker],
  );

  const onNodeDragStop: OnNodeDrag<FlowNode> = useCallback((_e, _node, dragged) => {
    const positions = new Map<string, Position>();
    for (const n of dragged)
      positions.set(fromFlowNodeId(n.id).id, { x: Math.round(n.position.x), y: Math.round(n.position.y) });
    commitMove(positions);
  }, []);

  const onConnect = useCallback((c: Connection) => {
    const r = connectHandles(toConnectRequest(c));
    refusal.current = r.ok ? null : r.reason;
  }, []);

  const onConnectEnd: OnConnectEnd = useCallback((event, state) => {
    const reason = refusal.current ?? (state.isValid === true ? null : hintRefusal.current);
    refusal.current = null;
    hintRefusal.current = null;
    if (!reason) return;
    const pt = 'changedTouches' in event ? event.changedTouches[0] : event;
    editorStore.getState().showToast(reason, 'refusal', pt ? { x: pt.clientX, y: pt.clientY } : undefined);
  }, []);

  const onNodeDoubleClick: NodeMouseHandler<FlowNode> = useCallback((_e, node) => {
    const s = editorStore.getState();
    const def = currentLevel(s).nodes.find((n) => n.id === node.id);
    if (def?.subgraph) s.enterComposite(def.id);
  }, []);

  const onDragOver = useCallback((e: DragEvent) => {
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  }, []);

  const onDrop = useCallback(
    (e: DragEvent) => {
      e.preventDefault();
      const type = e.dataTransfer.getData(NODE_DRAG_MIME);
      if (type) {
        const at = flow.screenToFlowPosition({ x: e.clientX, y: e.clientY });
        const r = addNodeOfType(type, at);
        if (!r.ok) editorStore.getState().showToast(r.reason, 'error');
        return;
      }
      const graphId = e.dataTransfer.getData(GRAPH_DRAG_MIME);
      if (graphId) {
        void dropGraphNode(graphId, flow.screenToFlowPosition({ x: e.clientX, y: e.clientY }));
        return;
      }
      const file = e.dataTransfer.files[0];
      if (file) void importFileIntoNewTab(file);
    },
    [flow],
  );

  // Things added without a drop position go to the centre of this canvas, computed when asked.
  useEffect(
    () =>
      provideViewCentre(() => {
        const r = wrapper.current?.getBoundingClientRect();
        return r ? flow.screenToFlowPosition({ x: r.left + r.width / 2, y: r.top + r.height / 2 }) : null;
      }),
    [flow],
  );

  return (
    <div
      ref={wrapper}
      className="h-full w-full"
      data-testid="canvas"
      data-state-visible={stateVisible ? 'true' : 'false'}
      data-detail={lowDetail ? 'low' : 'full'}
      data-far={far ? 'true' : 'false'}
    >
      <LowDetailContext value={lowDetail}>
        <ReactFlow<FlowNode, FlowEdge>
          nodes={far ? NO_NODES : nodes}
          edges={far ? NO_EDGES : edges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onNodeDragStop={onNodeDragStop}
          onConnect={onConnect}
          onConnectEnd={onConnectEnd}
          isValidConnection={isValidConnection}
          onNodeDoubleClick={onNodeDoubleClick}
          onDragOver={onDragOver}
          onDrop={onDrop}
          onPaneClick={onPaneClick}
          deleteKeyCode={null}
          panActivationKeyCode={null}
          multiSelectionKeyCode={MULTI_KEYS}
          selectionMode={SelectionMode.Partial}
          selectionOnDrag={false}
          snapToGrid={snap}
          snapGrid={SNAP_GRID}
          fitView={fitOnInit}
          defaultViewport={start.viewport}
          fitViewOptions={FIT_OPTIONS}
          minZoom={MIN_ZOOM}
          maxZoom={4}
          colorMode="dark"
          proOptions={PRO_OPTIONS}
          zoomOnDoubleClick={false}
          onlyRenderVisibleElements={shouldCull(nodes.length, edges.length)}
        >
          <CanvasGrid />
          {far && <FarLayer nodes={nodes} edges={edges} minimap={minimapOn} />}
          {minimapOn && !far && (
            <MiniMap
              pannable
              zoomable
              position="bottom-left"
              nodeColor={minimapColor}
              style={MINIMAP_STYLE}
            />
          )}
          <Controls showInteractive={false} fitViewOptions={FIT_OPTIONS} onFitView={onFitView} />
          <ConnectionFeedback reasonRef={hintRefusal} />
          <LabelScale target={wrapper} />
          <RouteFailurePanel />
        </ReactFlow>
      </LowDetailContext>
    </div>
  );
}

/** One flow instance per tab and level: switching remounts it, which fits the new graph into view. */
export function Canvas() {
  const key = useEditor((s) => {
    const t = activeTab(s);
    return t ? `${t.id}|${t.path.join('/')}` : 'none';
  });
  return (
    <ReactFlowProvider key={key}>
      <CanvasSized />
    </ReactFlowProvider>
  );
}
