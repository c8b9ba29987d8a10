// Derived, memoized views the canvas and panels select: resolved ports per node (stable object while
// the port list is unchanged, so a node re-renders only when its own handles change), hover
// highlighting, and validation issues per element.
import type { PortSpec } from '../../domain/catalog/catalog.schema.ts';
import type { GraphDef, NodeDef } from '../../domain/graph/graph.schema.ts';
import { resolvePorts } from '../../domain/flow/ports.ts';
import { activeTab } from './doc.slice.ts';
import { currentLevel, indexOf, type EditorState } from './editor.store.ts';
import { validateGraph, type Issue } from './graphIo.ts';
import { serviceIssues } from '../services/serviceIssues.ts';

export interface NodePorts {
  inputs: PortSpec[];
  outputs: PortSpec[];
  known: boolean;
  key: string;
}

const portCache = new Map<string, NodePorts>();

/** Unknown node types: handles come from the edges that use them. */
function portsFromEdges(node: NodeDef, level: GraphDef): { inputs: PortSpec[]; outputs: PortSpec[] } {
  const ins = new Set<string>();
  const outs = new Set<string>();
  for (const e of level.edges) {
    if (e.target === node.id) ins.add(e.targetHandle || 'input');
    if (e.source === node.id) outs.add(e.sourceHandle || 'output');
  }
  const mk = (name: string): PortSpec => ({ name, wire_type: 'ANY', optional: true, description: '' });
  return { inputs: [...ins].map(mk), outputs: [...outs].map(mk) };
}

export function portsOf(s: EditorState, id: string): NodePorts | undefined {
  const level = currentLevel(s);
  const node = indexOf(level).nodes.get(id);
  if (!node) return undefined;
  const r = resolvePorts(node, level, s.catalog);
  const io: { inputs: PortSpec[]; outputs: PortSpec[] } = r.known ? r : portsFromEdges(node, level);
  const key = `${r.known}|${io.inputs.map((p) => `${p.name}:${p.wire_type}`).join(',')}|${io.outputs.map((p) => `${p.name}:${p.wire_type}`).join(',')}`;
  const cacheKey = `${activeTab(s)?.id ?? ''}/${id}`;
  const prev = portCache.get(cacheKey);
  if (prev && prev.key === key) return prev;
  const next = { inputs: io.inputs, outputs: io.outputs, known: r.known, key };
  portCache.set(cacheKey, next);
  return next;
}

/** True when the hovered element is a container this node is granted to, or a node sharing a grant. */
export function isHoverRelated(s: EditorState, kind: 'node' | 'container', id: string): boolean {
  const h = s.hover;
  if (!h || (h.kind === kind && h.id === id)) return false;
  const grants = currentLevel(s).access_grants;
  if (h.kind === 'container' && kind === 'node')
    return grants.some((g) => g.container_id === h.id && g.node_id === id);
  if (h.kind === 'node' && kind === 'container')
    return grants.some((g) => g.node_id === h.id && g.container_id === id);
  return false;
}

export interface IssueIndex {
  all: Issue[];
  byElement: Map<string, 'error' | 'warning'>;
}

// Keyed by catalog and services report, then graph: results depend on all three (plugin and service
// types arrive with the server catalog; "service is down" follows the services report).
const issueCache = new WeakMap<object, WeakMap<GraphDef, IssueIndex>>();
const NO_ISSUES: IssueIndex = { all: [], byElement: new Map() };
const NO_REPORT = {};
const reportKeys = new WeakMap<object, WeakMap<object, object>>();

function cacheKey(catalog: object, report: object | null): object {
  let perCatalog = reportKeys.get(catalog);
  if (!perCatalog) reportKeys.set(catalog, (perCatalog = new WeakMap()));
  const r = report ?? NO_REPORT;
  let key = perCatalog.get(r);
  if (!key) perCatalog.set(r, (key = {}));
  return key;
}

/**
 * validate() of the active root graph plus the node-service problems (which replace the generic
 * "type not loaded" warning of the same node), computed once per graph object.
 */
export function issuesOf(s: EditorState): IssueIndex {
  const tab = activeTab(s);
  if (!tab) return NO_ISSUES;
  // A file that does not read as a graph: its parse errors are the issues (its empty graph has none worth telling).
  if (tab.unreadable) return unreadableIssues(tab.unreadable.issues);
  const key = cacheKey(s.catalog, s.services);
  let perCatalog = issueCache.get(key);
  if (!perCatalog) {
    perCatalog = new WeakMap();
    issueCache.set(key, perCatalog);
  }
  let idx = perCatalog.get(tab.graph);
  if (!idx) {
    let all: Issue[];
    try {
      const services = serviceIssues(tab.graph, s.catalog, s.services);
      const explained = new Set(services.map((i) => i.path));
      all = [
        ...services,
        ...validateGraph(tab.graph, s.catalog).filter(
          (i) => !(i.code === 'unknown-node-type' && explained.has(i.path)),
        ),
      ];
    } catch (e) {
      all = [
        {
          code: 'validator_crashed',
          severity: 'error',
          path: '$',
          message: `validation failed: ${(e as Error).message}`,
        },
      ];
    }
    const byElement = new Map<string, 'error' | 'warning'>();
    for (const i of all) {
      for (const id of [i.nodeId, i.containerId, i.edgeId]) {
        if (!id || i.severity === 'info') continue;
        if (byElement.get(id) !== 'error') byElement.set(id, i.severity);
      }
    }
    idx = { all, byElement };
    perCatalog.set(tab.graph, idx);
  }
  return idx;
}

const unreadableCache = new WeakMap<Issue[], IssueIndex>();
function unreadableIssues(issues: Issue[]): IssueIndex {
  let idx = unreadableCache.get(issues);
  if (!idx) unreadableCache.set(issues, (idx = { all: issues, byElement: new Map() }));
  return idx;
}

export function issueMark(s: EditorState, id: string): 'error' | 'warning' | undefined {
  return issuesOf(s).byElement.get(id);
}
