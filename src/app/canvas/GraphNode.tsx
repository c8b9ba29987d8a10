// A graph node on the canvas: header, one row per port with typed handles (colour by wire type,
// tooltip "name: TYPE"), the bottom state handle for grants, and marks for unknown types, issues
// and hover relations; zoomed far out it mounts only its wired handles (detail.ts). It selects its
// own definition and ports by id from the store in one subscription, and its live
// run status (a dot in the header, a border colour) and latest viewer line by id from the run store,
// so a streaming run re-renders only the nodes whose status changed.
import { memo, useContext, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Handle, Position, useStoreApi, useUpdateNodeInternals, type NodeProps } from '@xyflow/react';
import { STATE_HANDLE } from '../../domain/graph/graph.ops.ts';
import { wireColor } from '../../domain/flow/wireTypes.ts';
import { activeTab } from '../store/doc.slice.ts';
import type { NodeDef } from '../../domain/graph/graph.schema.ts';
import { currentLevel, editorStore, selectNode, useEditor, type EditorState } from '../store/editor.store.ts';
import { isHoverRelated, issueMark, portsOf, type NodePorts } from '../store/derived.ts';
import { issueOutlineClass } from './issueOutline.ts';
import { LowDetailContext, queueInternalsUpdate, wiredHandles } from './detail.ts';
import { useNodeRunStatus, useNodeViewerLine } from '../run/useNodeRunStatus.ts';
import type { NodeRunStatus } from '../run/run.store.ts';
import type { FlowNode } from './flowMapping.ts';
import { sameNodeView } from './nodeMemo.ts';
import { useRun } from '../run/run.store.ts';
import { serviceProblemOf, type ServiceProblem } from '../services/serviceIssues.ts';
import { NdArrayView } from '../ui/NdArrayView.tsx';

/** Dot colour and (when not selected/highlighted) border colour per run status; idle shows nothing. */
const RUN_DOT: Record<NodeRunStatus['status'], string> = {
  idle: '',
  queued: 'bg-zinc-400',
  running: 'bg-amber-400',
  done: 'bg-emerald-500',
  error: 'bg-red-500',
};
const RUN_BORDER: Partial<Record<NodeRunStatus['status'], string>> = {
  running: 'border-amber-400',
  error: 'border-red-500',
};

/** The node's one-line service note; the full message is its tooltip (and in Issues). */
const SERVICE_SHORT: Record<ServiceProblem['kind'], (service: string) => string> = {
  missing: (svc) => `service '${svc}' not configured`,
  down: (svc) => `service '${svc}' is down`,
  starting: (svc) => `service '${svc}' starting…`,
  'no-function': (svc) => `not offered by service '${svc}'`,
};

function runTitle(r: NodeRunStatus): string {
  const took = r.duration_ms !== undefined ? ` in ${r.duration_ms} ms` : '';
  if (r.status === 'error') return `error at step ${r.step}${took}: ${r.error ?? 'failed'}`;
  return `${r.status} · step ${r.step}${r.status === 'done' ? took : ''}`;
}

interface NodeView {
  node: NodeDef | undefined;
  ports: NodePorts | undefined;
  color: string | undefined;
  stateVisible: boolean;
  related: boolean;
  mark: 'error' | 'warning' | undefined;
  /** Wired handle keys (detail.ts) while at low detail; '' at full detail. */
  wired: string;
  /** The node service this type needs is down / missing / starting (services/serviceIssues.ts). */
  service: ServiceProblem | null;
}

// One shallow-compared store subscription per node instead of one per field: a thousand nodes
// otherwise run thousands of selectors on every store change.
function selectView(s: EditorState, id: string, full: boolean): NodeView {
  const node = selectNode(s, id);
  return {
    node,
    ports: portsOf(s, id),
    color: node ? s.catalog.get(node.type)?.ui_config.color : undefined,
    stateVisible: activeTab(s)?.stateVisible ?? false,
    related: isHoverRelated(s, 'node', id),
    mark: issueMark(s, id),
    wired: full ? '' : (wiredHandles(currentLevel(s)).get(id) ?? ''),
    service: node ? serviceProblemOf(node.type, s.catalog, s.services) : null,
  };
}

/**
 * The node's view, recomputed only when an input it reads changed (level, catalog, hover, the
 * tab's graph and State toggle): unrelated store updates (view centre, selection, toasts) then cost
 * each of a thousand nodes a few identity checks instead of resolving its ports again.
 */
function useNodeView(id: string, full: boolean): NodeView {
  const last = useRef<{ deps: readonly unknown[]; view: NodeView } | null>(null);
  return useEditor(
    useShallow((s: EditorState) => {
      const tab = activeTab(s);
      const deps = [
        currentLevel(s),
        s.catalog,
        s.services,
        s.hover,
        tab?.graph,
        tab?.stateVisible,
        full,
      ] as const;
      const prev = last.current;
      if (prev && prev.deps.every((d, i) => d === deps[i])) return prev.view;
      const view = selectView(s, id, full);
      last.current = { deps, view };
      return view;
    }),
  );
}

const setHover = (h: Parameters<EditorState['setHover']>[0]) => editorStore.getState().setHover(h);

function GraphNodeView({ id, selected }: NodeProps<FlowNode>) {
  // Low detail mounts only wired handles; the first time the view is zoomed in it upgrades for good.
  const lowDetail = useContext(LowDetailContext);
  const [full, setFull] = useState(!lowDetail);
  if (!lowDetail && !full) setFull(true);
  const { node, ports, color, stateVisible, related, mark, wired, service } = useNodeView(id, full);
  const run = useNodeRunStatus(id);
  const viewer = useNodeViewerLine(id);
  const updateNodeInternals = useUpdateNodeInternals();
  // useStoreApi() gives each caller its own wrapper object; its getState is the flow store's own.
  const flowKey = useStoreApi().getState;
  // Re-measure handles only when they change after mount; calling it on mount would make React
  // Flow run its initial fitView before the other nodes are measured.
  const handleKey = `${ports?.key}|${stateVisible}|${full ? '' : wired}`;
  const lastKey = useRef(handleKey);
  useEffect(() => {
    if (lastKey.current === handleKey) return;
    lastKey.current = handleKey;
    queueInternalsUpdate(flowKey, updateNodeInternals, id);
  }, [id, handleKey, updateNodeInternals, flowKey]);

  const wiredSet = full || wired === '*' ? null : new Set(wired.split(','));
  // The writer of the slot a breakpoint hit, or the node a node breakpoint stopped before.
  const atBreakpoint = useRun((s) => s.breakpointHit?.node_id === id);
  const shows = (key: string) => wiredSet === null || wiredSet.has(key);
  if (!node || !ports) return null;
  const composite = Boolean(node.subgraph && node.subgraph.nodes.length);
  const runState = run && run.status !== 'idle' ? run.status : undefined;
  const ring = atBreakpoint
    ? 'border-amber-400 ring-2 ring-amber-400/60'
    : selected
      ? 'border-sky-400'
      : related
        ? 'border-violet-400'
        : ((runState && RUN_BORDER[runState]) ?? 'border-zinc-700');
  const issueOutline = issueOutlineClass(mark);
  return (
    <div
      data-testid={`node-${id}`}
      data-node-type={node.type}
      data-issue={mark ?? ''}
      data-related={related ? 'true' : 'false'}
      data-run-status={runState ?? ''}
      data-breakpoint={atBreakpoint ? 'true' : 'false'}
      title={runState === 'error' && run ? runTitle(run) : undefined}
      onMouseEnter={() => setHover({ kind: 'node', id })}
      onMouseLeave={() => setHover(null)}
      className={`min-w-[170px] rounded-md border bg-zinc-900 text-[11px] text-zinc-200 ${ring} ${issueOutline} ${composite ? 'border-double border-[3px]' : ''}`}
    >
      <div
        className="flex items-center gap-1.5 rounded-t-md border-b border-zinc-800 px-2 py-1"
        style={{ borderTop: `3px solid ${color ?? '#52525b'}` }}
      >
        {run && runState && (
          <span
            data-testid={`run-dot-${id}`}
            title={runTitle(run)}
            className={`h-2 w-2 shrink-0 rounded-full ${RUN_DOT[runState]}`}
          />
        )}
        <span className="sw-lod-text truncate font-semibold" title={node.label || node.id}>
          {node.label || node.id}
        </span>
        <span className="sw-lod-text ml-auto truncate text-[10px] text-zinc-500">{node.type}</span>
      </div>
      {(!ports.known || service) && (
        <div
          data-testid={ports.known ? undefined : 'unknown-type'}
          className={`max-w-[260px] px-2 py-0.5 text-[10px] leading-snug ${service?.severity === 'error' ? 'bg-red-900/40 text-red-300' : 'bg-amber-900/40 text-amber-300'}`}
          title={service?.message ?? 'This node type is not in the catalog; its handles come from its edges.'}
        >
          {service ? (
            <span data-testid={`service-problem-${id}`} data-kind={service.kind}>
              {SERVICE_SHORT[service.kind](service.service)}
            </span>
          ) : (
            'unknown type'
          )}
        </div>
      )}
      {composite && (
        <div className="px-2 py-0.5 text-[10px] text-indigo-300">composite · double-click to open</div>
      )}
      {/* Two independent columns, one element per port plus its handle: about half the DOM of
          one-row-per-index layouts, which matters when a thousand nodes are measured at once. */}
      <div className="grid grid-cols-[auto_auto] justify-between gap-x-3 py-1 text-zinc-400">
        <div>
          {ports.inputs.map((p) => (
            <div key={p.name} className="sw-lod-text relative flex h-5 items-center pl-2.5 whitespace-nowrap">
              {shows(`i:${p.name}`) && (
                <Handle
                  type="target"
                  position={Position.Left}
                  id={p.name}
                  title={`${p.name}: ${p.wire_type}`}
                  data-testid={`handle-in-${id}-${p.name}`}
                  style={{ background: wireColor(p.wire_type) }}
                  className="!h-2.5 !w-2.5 !border-zinc-900"
                />
              )}
              {p.name}
              {!p.optional && <span className="text-red-400">*</span>}
            </div>
          ))}
        </div>
        <div>
          {ports.outputs.map((p) => (
            <div
              key={p.name}
              className="sw-lod-text relative flex h-5 items-center justify-end pr-2.5 whitespace-nowrap"
            >
              {p.name}
              {shows(`o:${p.name}`) && (
                <Handle
                  type="source"
                  position={Position.Right}
                  id={p.name}
                  title={`${p.name}: ${p.wire_type}`}
                  data-testid={`handle-out-${id}-${p.name}`}
                  style={{ background: wireColor(p.wire_type) }}
                  className="!h-2.5 !w-2.5 !border-zinc-900"
                />
              )}
            </div>
          ))}
        </div>
      </div>
      {viewer && (
        <div
          data-testid={`viewer-line-${id}`}
          title={`${viewer.text} (step ${viewer.step})`}
          className="max-w-[260px] truncate border-t border-zinc-800 px-2 py-0.5 font-mono text-[10px] text-emerald-200"
        >
          {viewer.text}
        </div>
      )}
      {viewer?.picture !== undefined && (
        <div className="border-t border-zinc-800 px-2 py-1">
          <NdArrayView value={viewer.picture} size="node" />
        </div>
      )}
      {stateVisible && full && (
        <Handle
          type="target"
          position={Position.Top}
          id={STATE_HANDLE}
          title="state access: drop a container's handle here to grant"
          className="!h-2 !w-2 !border-zinc-900 !bg-violet-500/70"
        />
      )}
      {stateVisible && shows('s') && (
        <Handle
          type="source"
          position={Position.Bottom}
          id={STATE_HANDLE}
          title="state access: drag to a container to grant"
          data-testid={`state-handle-${id}`}
          className="!h-2.5 !w-2.5 !border-zinc-900 !bg-violet-500"
        />
      )}
    </div>
  );
}

export const GraphNode = memo(GraphNodeView, sameNodeView);
