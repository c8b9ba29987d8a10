// The canvas: React Flow over the active tab's current graph level. React Flow keeps only transient
// view state (drag positions, measured sizes, selection flags); every committed change goes through
// a store action (drag stop = one undo step). Handlers are stable callbacks; types are module-scope.
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
import type { GraphDef, Position } from '../../domain/graph/graph.schema.ts';
import { addNodeOfType, commitMove, connectHandles } from '../store/actions.ts';
import { activeTab } from '../store/doc.slice.ts';
import { currentLevel, editorStore, useEditor, type EditorState } from '../store/editor.store.ts';
import { provideViewCentre } from '../store/viewCentre.ts';
import { issuesOf, portsOf } from '../store/derived.ts';
import { importFileIntoNewTab } from '../files/importExport.ts';
import {
  buildFlowEdges,
  buildFlowNodes,
  containerFlowId,
  type Estimator,
  flowIdForElement,
  fromFlowNodeId,
  type FlowEdge,
  type FlowNode,
} from './flowMapping.ts';
import { edgeTypes, nodeTypes } from './flowTypes.ts';
import { CanvasGrid } from './CanvasGrid.tsx';
import { LOW_DETAIL_ZOOM, LowDetailContext, wiredHandles } from './detail.ts';
import { estimatedViewport, FIT_OPTIONS, MIN_ZOOM } from './initialViewport.ts';
import {
  boxEstimate,
  containerBoxEstimate,
  dropMeasuredEstimates,
  dropBoxHandles,
  type NodeEstimate,
} from './nodeEstimate.ts';
import { GRAPH_DRAG_MIME, NODE_DRAG_MIME } from '../ui/dragMime.ts';
import { motionMs } from '../ui/motion.ts';
import { dropGraphNode } from '../commands/graphNodes.ts';
import { refusalOf, toConnectRequest } from './connectionCheck.ts';
import { ConnectionFeedback } from './ConnectionFeedback.tsx';
import { LabelScale } from './LabelScale.tsx';
import { useDelegatedHover } from './useDelegatedHover.ts';
import { useAfterFirstPaint } from './useAfterFirstPaint.ts';
import { createSelectionTracker } from './selectionSync.ts';
import { shouldCull } from './culling.ts';
import { skipConfirmedEstimates } from './exactEstimates.ts';
import { RouteFailurePanel } from './RouteFailurePanel.tsx';

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

function selectedFlowIds(sel: ReturnType<typeof editorStore.getState>['selection']): Set<string> {
  return new Set([
    ...sel.nodes,
    ...sel.containers.map((c) => `c:${c}`),
    ...sel.edges.map((e) => `e:${e}`),
    ...sel.grants.map((g) => `g:${g}`),
  ]);
}

/**
 * The start of a canvas: its viewport and, when that viewport is zoomed out to boxes, each graph
 * node's box geometry (nodeEstimate.ts), so that React Flow draws the boxes visible and their edges
 * from the first render instead of measuring every node first. The viewport is fitted to those
 * sizes, so React Flow's own fit after measuring does not move it.
 */
function canvasStart(level: GraphDef, size: { width: number; height: number }, stateVisible: boolean) {
  const first = estimatedViewport(level, size.width, size.height, stateVisible);
  const low = first ? first.zoom < LOW_DETAIL_ZOOM : false;
  if (!low) return { viewport: first, low, exact: false, estimates: undefined };
  // Keyed by flow id: a container may share its id with a graph node.
  const estimates = new Map<string, NodeEstimate | undefined>();
  const estimate = boxEstimator(stateVisible);
  for (const n of level.nodes) estimates.set(n.id, estimate('node', n.id));
  if (stateVisible)
    for (const c of level.containers) estimates.set(containerFlowId(c.id), estimate('container', c.id));
  const sizeOf = (flowId: string) => {
    const e = estimates.get(flowId);
    return e && { width: e.initialWidth, height: e.initialHeight };
  };
  const viewport = estimatedViewport(level, size.width, size.height, stateVisible, sizeOf);
  const byKind: Estimator = (kind, id) => estimates.get(kind === 'node' ? id : containerFlowId(id));
  // Every box's size known: the viewport is the one React Flow's fit would compute.
  const exact = [...estimates.values()].every((e) => e !== undefined);
  return { viewport, low, exact, estimates: byKind };
}

/** A box's geometry from the store, as GraphNode (its ports, its wired handles) or ContainerNode draws it. */
function boxEstimator(stateVisible: boolean): Estimator {
  const s = editorStore.getState();
  const level = currentLevel(s);
  const wired = wiredHandles(level);
  const containers = new Map(level.containers.map((c) => [c.id, c]));
  return (kind, id) => {
    if (kind === 'container') {
      const c = containers.get(id);
      return c && containerBoxEstimate(Object.keys(c.states).length);
    }
    const ports = portsOf(s, id);
    return ports && boxEstimate(ports, wired.get(id) ?? '', stateVisible);
  };
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
  const lowDetail = zoomLow ?? start.low;
  // Read by the mapping effect without re-running it on every zoom across the threshold.
  const lowDetailRef = useRef(lowDetail);
  lowDetailRef.current = lowDetail;
  useDelegatedHover(wrapper);
  // The minimap comes after the first paint (useAfterFirstPaint.ts).
  const minimapOn = useAfterFirstPaint();
  const [nodes, setNodes] = useState<FlowNode[]>(() =>
    buildFlowNodes(level, [], stateVisible, selectedFlowIds(selection), start.estimates),
  );
  const edgeErrors = useEditor(edgeErrorIds);
  const [tracker] = useState(() => createSelectionTracker((sel) => editorStore.getState().setSelection(sel)));
  const [edges, setEdges] = useState<FlowEdge[]>(() =>
    buildFlowEdges(level, [], stateVisible, selectedFlowIds(selection), edgeErrors),
  );

  // What the mapping below last ran for: a box's geometry follows the graph and the State toggle
  // only, so a selection or an edge's error mark alone recomputes no box estimate.
  const mappedFor = useRef({ level, stateVisible });
  useEffect(() => {
    const sel = selectedFlowIds(selection);
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
    void flow.fitView({
      nodes: [...flowIds, ...ends].map((id) => ({ id })),
      duration: motionMs(200),
      maxZoom: 1,
      padding: 0.4,
      includeHiddenNodes: true, // a node culled before it was ever measured counts by its given size
    });
  }, [focusRequest, flow]);

  useEffect(() => {
    if (!lowDetail) setNodes(dropBoxHandles);
  }, [lowDetail]);

  useEffect(() => {
    if (fitNonce > 0) void flow.fitView({ ...FIT_OPTIONS, duration: motionMs(200) });
  }, [fitNonce, flow]);

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
    >
      <LowDetailContext value={lowDetail}>
        <ReactFlow<FlowNode, FlowEdge>
          nodes={nodes}
          edges={edges}
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
          {minimapOn && (
            <MiniMap
              pannable
              zoomable
              position="bottom-left"
              nodeColor={minimapColor}
              style={MINIMAP_STYLE}
            />
          )}
          <Controls showInteractive={false} fitViewOptions={FIT_OPTIONS} />
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
