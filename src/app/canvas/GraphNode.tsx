// A graph node on the canvas: header, one row per port with typed handles (colour by wire type,
// tooltip "name: TYPE"), the bottom state handle for grants, and marks for unknown types and issues;
// zoomed far out the whole body is one box with only its wired handles (NodeBox.tsx). The DOM is
// kept light (one element per port row plus its handle; the type label and the required star are
// CSS) because style, layout and paint of every node dominate pan and first-render time. It
// selects its own definition and ports by id from the store in one subscription that hover and
// other nodes' changes do not invalidate (hover relations are attributes: useDelegatedHover.ts),
// and its live run status and latest viewer line by id from the run store, so a streaming run
// re-renders only the nodes whose status changed.
import { memo, useContext, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { STATE_HANDLE } from '../../domain/graph/graph.ops.ts';
import { wireColor } from '../../domain/flow/wireTypes.ts';
import { activeTab } from '../store/doc.slice.ts';
import type { NodeDef } from '../../domain/graph/graph.schema.ts';
import { currentLevel, selectNode, useEditor, type EditorState } from '../store/editor.store.ts';
import { issueMark, portsOf, type NodePorts } from '../store/derived.ts';
import { issueOutlineClass } from './issueOutline.ts';
import { LowDetailContext, wiredHandles } from './detail.ts';
import { useRemeasureOnChange } from './useRemeasure.ts';
import { useNodeRun } from '../run/useNodeRunStatus.ts';
import type { NodeReport, NodeRunStatus } from '../run/run.store.ts';
import type { FlowNode } from './flowMapping.ts';
import { sameNodeView } from './nodeMemo.ts';
import { serviceProblemOf, type ServiceProblem } from '../services/serviceIssues.ts';
import { EmptyPictureFrame, NdArrayView } from '../ui/NdArrayView.tsx';
import { boxStyle, NodeBoxBody } from './NodeBox.tsx';

/** The viewer type whose node is a picture frame (reserved before its first picture). */
const PICTURE_VIEWER = 'imageViewer';

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

const REPORT_TONE: Record<NodeReport['severity'], string> = {
  error: 'text-red-300',
  warning: 'text-amber-300',
  info: 'text-sky-300',
  debug: 'text-zinc-400',
};

/** The last event the node reported in this run (its own report, or one its node service pushed). */
function ReportLine({ id, report }: { id: string; report: NodeReport }) {
  const more = report.count > 1 ? ` (${report.count} events; all in the Log)` : '';
  return (
    <div
      data-testid={`node-report-${id}`}
      data-severity={report.severity}
      title={`${report.severity}${report.step !== undefined ? ` at step ${report.step}` : ''} · ${report.code}: ${report.message}${more}`}
      className={`max-w-[260px] truncate border-t border-zinc-800 px-2 py-0.5 text-[10px] ${REPORT_TONE[report.severity]}`}
    >
      {report.count > 1 && <span className="mr-1 text-zinc-500 tabular-nums">{report.count}×</span>}
      {report.message}
    </div>
  );
}

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
  mark: 'error' | 'warning' | undefined;
  /** Wired handle keys (detail.ts) while drawn as a box; '' at full detail. */
  wired: string;
  /** The node service this type needs is down / missing / starting (services/serviceIssues.ts). */
  service: ServiceProblem | null;
}

// One shallow-compared store subscription per node instead of one per field: a thousand nodes
// otherwise run thousands of selectors on every store change.
function selectView(s: EditorState, id: string, box: boolean): NodeView {
  const node = selectNode(s, id);
  return {
    node,
    ports: portsOf(s, id),
    color: node ? s.catalog.get(node.type)?.ui_config.color : undefined,
    stateVisible: activeTab(s)?.stateVisible ?? false,
    mark: issueMark(s, id),
    wired: box ? (wiredHandles(currentLevel(s)).get(id) ?? '') : '',
    service: node ? serviceProblemOf(node.type, s.catalog, s.services) : null,
  };
}

/**
 * The node's view, recomputed only when an input it reads changed (level, catalog, services, the
 * tab's graph and State toggle, box or full): unrelated store updates (view centre, selection,
 * toasts) then cost each of a thousand nodes a few identity checks instead of resolving its ports
 * again, and when another node changes, this node's selector returns the same fields (its node
 * object and cached ports are unchanged), so the shallow comparison skips its render.
 */
export function useNodeView(id: string, box: boolean): NodeView {
  const last = useRef<{ deps: readonly unknown[]; view: NodeView } | null>(null);
  return useEditor(
    useShallow((s: EditorState) => {
      const tab = activeTab(s);
      const deps = [currentLevel(s), s.catalog, s.services, tab?.graph, tab?.stateVisible, box] as const;
      const prev = last.current;
      if (prev && prev.deps.every((d, i) => d === deps[i])) return prev.view;
      const view = selectView(s, id, box);
      last.current = { deps, view };
      return view;
    }),
  );
}

function PortHandle({
  id,
  type,
  name,
  wire,
}: {
  id: string;
  type: 'in' | 'out';
  name: string;
  wire: string;
}) {
  return (
    <Handle
      type={type === 'in' ? 'target' : 'source'}
      position={type === 'in' ? Position.Left : Position.Right}
      id={name}
      title={`${name}: ${wire}`}
      data-testid={`handle-${type}-${id}-${name}`}
      style={{ background: wireColor(wire) }}
      className="sw-port-handle"
    />
  );
}

function GraphNodeView({ id, selected }: NodeProps<FlowNode>) {
  // Zoomed far out the body is one box (NodeBox.tsx); the canvas says when through the context.
  const box = useContext(LowDetailContext);
  const { node, ports, color, stateVisible, mark, wired, service } = useNodeView(id, box);
  const { status: run, viewer, report, atBreakpoint } = useNodeRun(id);
  useRemeasureOnChange(id, `${ports?.key}|${stateVisible}|${box ? `box:${wired}` : 'full'}`);

  if (!node || !ports) return null;
  const composite = Boolean(node.subgraph && node.subgraph.nodes.length);
  const runState = run && run.status !== 'idle' ? run.status : undefined;
  const framed = node.type === PICTURE_VIEWER || viewer?.picture !== undefined;
  // Hover relations (data-related, set by useDelegatedHover) show only on a plain border: the
  // sw-plain class lets CSS give them priority over the run colour but not over these two.
  const ring = atBreakpoint
    ? 'border-amber-400 ring-2 ring-amber-400/60'
    : selected
      ? 'border-sky-400'
      : `sw-plain ${(runState && RUN_BORDER[runState]) ?? 'border-zinc-700'}`;
  const label = node.label || node.id;
  // Boxes carry only the marks that are set (a thousand boxes mount at once; attributes cost).
  const marksOnly = {
    'data-testid': `node-${id}`,
    'data-issue': mark,
    'data-run-status': runState,
    'data-breakpoint': atBreakpoint ? 'true' : undefined,
  };
  const common = {
    ...marksOnly,
    'data-node-type': node.type,
    'data-issue': mark ?? '',
    'data-related': 'false',
    'data-run-status': runState ?? '',
    'data-breakpoint': atBreakpoint ? 'true' : 'false',
  };
  const marks = `${ring} ${issueOutlineClass(mark)} ${composite ? 'border-double border-[3px]' : ''}`;
  if (box)
    return (
      <div
        {...marksOnly}
        data-lod="box"
        title={runState === 'error' && run ? runTitle(run) : label}
        className={`sw-node-box min-w-[170px] rounded-md border bg-zinc-900 text-zinc-200 ${marks}`}
        style={boxStyle(ports, color)}
      >
        <NodeBoxBody nodeId={id} label={label} ports={ports} wired={wired} stateVisible={stateVisible} />
      </div>
    );
  return (
    <div
      {...common}
      data-lod="full"
      title={runState === 'error' && run ? runTitle(run) : undefined}
      className={`sw-node min-w-[170px] rounded-md border bg-zinc-900 text-[11px] text-zinc-200 ${marks}`}
    >
      <div className="sw-node-head" data-type={node.type} style={{ borderTopColor: color ?? '#52525b' }}>
        {run && runState && (
          <span
            data-testid={`run-dot-${id}`}
            title={runTitle(run)}
            className={`h-2 w-2 shrink-0 rounded-full ${RUN_DOT[runState]}`}
          />
        )}
        <span className="sw-node-title font-semibold" title={label}>
          {label}
        </span>
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
      {/* One grid, one element per port row plus its handle: inputs in the first column, outputs
          in the second (grid-auto-flow: dense packs both from the top; canvas.css). */}
      <div className="sw-ports">
        {ports.inputs.map((p) => (
          <div key={`i:${p.name}`} className={p.optional ? 'sw-port sw-in' : 'sw-port sw-in sw-req'}>
            <PortHandle id={id} type="in" name={p.name} wire={p.wire_type} />
            {p.name}
          </div>
        ))}
        {ports.outputs.map((p) => (
          <div key={`o:${p.name}`} className="sw-port sw-out">
            {p.name}
            <PortHandle id={id} type="out" name={p.name} wire={p.wire_type} />
          </div>
        ))}
      </div>
      {report && <ReportLine id={id} report={report} />}
      {/* The viewer line takes the node's width and never sets it (w-0 min-w-full): a streaming
          value must not make the node jump wider and back between steps. */}
      {viewer && !framed && (
        <div
          data-testid={`viewer-line-${id}`}
          title={`${viewer.text} (step ${viewer.step})`}
          className="w-0 min-w-full truncate border-t border-zinc-800 px-2 py-0.5 font-mono text-[10px] text-emerald-200"
        >
          {viewer.text}
        </div>
      )}
      {/* A picture viewer keeps a fixed frame from the start (its caption is the viewer line), so
          the first picture does not grow the node over the one below it. */}
      {framed && (
        <div
          className="border-t border-zinc-800 px-2 py-1"
          data-testid={`viewer-frame-${id}`}
          title={viewer ? `${viewer.text} (step ${viewer.step})` : undefined}
        >
          {viewer?.picture !== undefined ? (
            <NdArrayView value={viewer.picture} size="node" />
          ) : (
            <EmptyPictureFrame />
          )}
        </div>
      )}
      {stateVisible && (
        <Handle
          type="target"
          position={Position.Top}
          id={STATE_HANDLE}
          title="state access: drop a container's handle here to grant"
          className="!h-2 !w-2 !border-zinc-900 !bg-violet-500/70"
        />
      )}
      {stateVisible && (
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
