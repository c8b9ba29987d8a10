// What changed between two versions of a graph, structurally: nodes added / removed / changed
// (type, label, each config value by JSON path, composite subgraphs recursively), edges (ends and
// handles), containers and their slots (reducer, value type, lifetime, reset_on, config), access
// grants (by node → container, their ids are incidental), hooks, routing (edge conditions and
// effects, features) and the graph's own fields (step_budget, …). Positions are layout, not
// structure: only counted (`moved`). Entities are matched by id, so a node deleted and re-added
// under a new id shows as removed + added. Pure; the CLI (`statewire diff`), the batch comparison
// and the editor's graph diff all print this list.
import { diffLines } from '../debug/stateDiff.ts';
import type { ContainerDef, EdgeDef, GraphDef, NodeDef, StateDef } from './graph.schema.ts';

export type GraphChangeArea = 'graph' | 'node' | 'edge' | 'container' | 'slot' | 'grant' | 'hook' | 'routing';

export interface GraphChange {
  area: GraphChangeArea;
  op: 'added' | 'removed' | 'changed';
  /** Node id (`comp/inner` inside a composite), edge id, container id, `container.slot`, `node → container`, hook index, feature name, graph field. */
  id: string;
  /** For `changed`: what inside it changed (`config.epsilon`, `reducer`, `condition`, …). */
  field?: string;
  old?: unknown;
  new?: unknown;
  /** One line for people: `node policy: config.epsilon 0.1 → 0.3`. */
  text: string;
}

export interface GraphDiff {
  /** No structural change (positions may still differ: see `moved`). */
  same: boolean;
  changes: GraphChange[];
  /** Nodes and containers present in both whose position alone differs. */
  moved: number;
}

const MAX_VALUE_TEXT = 60;

/** A value as short JSON text (undefined as "—"). */
export function shortValue(v: unknown): string {
  if (v === undefined) return '—';
  const s = JSON.stringify(v) ?? String(v);
  return s.length > MAX_VALUE_TEXT ? `${s.slice(0, MAX_VALUE_TEXT - 1)}…` : s;
}

const byId = <T extends { id: string }>(list: readonly T[]) => new Map(list.map((x) => [x.id, x]));

/** Keys of `a` then those only in `b`, in their order. */
function unionKeys<T>(a: ReadonlyMap<string, T>, b: ReadonlyMap<string, T>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])];
}

class DiffBuilder {
  readonly changes: GraphChange[] = [];
  moved = 0;

  add(c: Omit<GraphChange, 'text'>, text: string): void {
    this.changes.push({ ...c, text });
  }

  /** One `changed` entry per leaf that differs between `a` and `b` (below `root`, a JSON path). */
  leaves(area: GraphChangeArea, id: string, label: string, root: string, a: unknown, b: unknown): void {
    for (const l of diffLines(a, b, root)) {
      // A moved list item is a reorder: show the list as a whole.
      const old = l.kind === 'moved' ? undefined : l.old;
      const now = l.kind === 'moved' ? undefined : l.new;
      const what =
        l.kind === 'added'
          ? `${l.path} added ${shortValue(now)}`
          : l.kind === 'removed'
            ? `${l.path} removed (was ${shortValue(old)})`
            : l.kind === 'moved'
              ? `${l.path} moved to index ${String(l.new)}`
              : `${l.path} ${shortValue(old)} → ${shortValue(now)}`;
      this.add({ area, op: 'changed', id, field: l.path, old, new: now }, `${label}: ${what}`);
    }
  }

  /** A plain field compared as a whole. */
  field(area: GraphChangeArea, id: string, label: string, field: string, a: unknown, b: unknown): void {
    if (diffLines(a, b).length === 0) return;
    this.add(
      { area, op: 'changed', id, field, old: a, new: b },
      `${label}: ${field} ${shortValue(a)} → ${shortValue(b)}`,
    );
  }
}

const samePosition = (a: { x: number; y: number }, b: { x: number; y: number }) => a.x === b.x && a.y === b.y;

function diffNodes(d: DiffBuilder, a: readonly NodeDef[], b: readonly NodeDef[], prefix: string): void {
  const ma = byId(a);
  const mb = byId(b);
  for (const id of unionKeys(ma, mb)) {
    const na = ma.get(id);
    const nb = mb.get(id);
    const full = prefix + id;
    if (!na) {
      d.add({ area: 'node', op: 'added', id: full, new: nb!.type }, `node ${full} added (${nb!.type})`);
      continue;
    }
    if (!nb) {
      d.add({ area: 'node', op: 'removed', id: full, old: na.type }, `node ${full} removed (${na.type})`);
      continue;
    }
    const label = `node ${full}`;
    d.field('node', full, label, 'type', na.type, nb.type);
    d.field('node', full, label, 'label', na.label, nb.label);
    d.leaves('node', full, label, 'config', na.config, nb.config);
    if (!samePosition(na.position, nb.position)) d.moved += 1;
    if (na.subgraph || nb.subgraph) {
      if (!na.subgraph || !nb.subgraph)
        d.add(
          { area: 'node', op: 'changed', id: full, field: 'subgraph' },
          `${label}: subgraph ${na.subgraph ? 'removed' : 'added'}`,
        );
      else diffLevel(d, na.subgraph, nb.subgraph, `${full}/`);
    }
  }
}

const edgeText = (e: EdgeDef) =>
  `${e.source}${e.sourceHandle ? `.${e.sourceHandle}` : ''} → ${e.target}${e.targetHandle ? `.${e.targetHandle}` : ''}`;

function diffEdges(d: DiffBuilder, a: readonly EdgeDef[], b: readonly EdgeDef[], prefix: string): void {
  const ma = byId(a);
  const mb = byId(b);
  for (const id of unionKeys(ma, mb)) {
    const ea = ma.get(id);
    const eb = mb.get(id);
    const full = prefix + id;
    if (!ea || !eb) {
      const e = (ea ?? eb)!;
      const op = ea ? 'removed' : 'added';
      d.add(
        { area: 'edge', op, id: full, ...(ea ? { old: edgeText(e) } : { new: edgeText(e) }) },
        `edge ${full} ${op}: ${edgeText(e)}`,
      );
      if (e.condition !== undefined || e.effect !== undefined)
        d.add({ area: 'routing', op, id: full }, `routing: edge ${full} with its condition/effect ${op}`);
      continue;
    }
    for (const f of ['source', 'target', 'sourceHandle', 'targetHandle'] as const)
      d.field('edge', full, `edge ${full}`, f, ea[f], eb[f]);
    for (const f of ['condition', 'effect'] as const)
      d.field('routing', full, `routing: edge ${full}`, f, ea[f], eb[f]);
  }
}

function diffSlot(d: DiffBuilder, id: string, a: StateDef, b: StateDef): void {
  const label = `slot ${id}`;
  d.field('slot', id, label, 'reducer', a.type, b.type);
  d.field('slot', id, label, 'value_type', a.value_type, b.value_type);
  d.field('slot', id, label, 'lifetime', a.lifetime, b.lifetime);
  d.field('slot', id, label, 'reset_on', a.reset_on, b.reset_on);
  d.leaves('slot', id, label, 'config', a.config, b.config);
}

function diffContainers(
  d: DiffBuilder,
  a: readonly ContainerDef[],
  b: readonly ContainerDef[],
  prefix: string,
): void {
  const ma = byId(a);
  const mb = byId(b);
  for (const id of unionKeys(ma, mb)) {
    const ca = ma.get(id);
    const cb = mb.get(id);
    const full = prefix + id;
    if (!ca || !cb) {
      const c = (ca ?? cb)!;
      const op = ca ? 'removed' : 'added';
      const slots = Object.keys(c.states);
      d.add(
        { area: 'container', op, id: full },
        `container ${full} ${op} (${slots.length} slot${slots.length === 1 ? '' : 's'}${slots.length ? `: ${slots.join(', ')}` : ''})`,
      );
      continue;
    }
    d.field('container', full, `container ${full}`, 'label', ca.label, cb.label);
    if (!samePosition(ca.position, cb.position)) d.moved += 1;
    const sa = new Map(Object.entries(ca.states));
    const sb = new Map(Object.entries(cb.states));
    for (const slot of unionKeys(sa, sb)) {
      const x = sa.get(slot);
      const y = sb.get(slot);
      const sid = `${full}.${slot}`;
      if (x && y) diffSlot(d, sid, x, y);
      else
        d.add(
          { area: 'slot', op: x ? 'removed' : 'added', id: sid, ...(x ? { old: x.type } : { new: y!.type }) },
          `slot ${sid} ${x ? 'removed' : 'added'} (${(x ?? y)!.type}, ${(x ?? y)!.lifetime})`,
        );
    }
  }
}

function diffGrants(d: DiffBuilder, a: GraphDef, b: GraphDef, prefix: string): void {
  const key = (g: { node_id: string; container_id: string }) =>
    `${prefix}${g.node_id} → ${prefix}${g.container_id}`;
  const ka = new Set(a.access_grants.map(key));
  const kb = new Set(b.access_grants.map(key));
  for (const k of ka) if (!kb.has(k)) d.add({ area: 'grant', op: 'removed', id: k }, `grant ${k} removed`);
  for (const k of kb) if (!ka.has(k)) d.add({ area: 'grant', op: 'added', id: k }, `grant ${k} added`);
}

function diffFeatures(d: DiffBuilder, a: GraphDef, b: GraphDef, prefix: string): void {
  const ma = new Map((a.features ?? []).map((f) => [f.name, f]));
  const mb = new Map((b.features ?? []).map((f) => [f.name, f]));
  for (const name of unionKeys(ma, mb)) {
    const fa = ma.get(name);
    const fb = mb.get(name);
    const full = prefix + name;
    if (fa && fb) d.leaves('routing', full, `routing: feature ${full}`, 'domain', fa.domain, fb.domain);
    else
      d.add(
        { area: 'routing', op: fa ? 'removed' : 'added', id: full },
        `routing: feature ${full} ${fa ? 'removed' : 'added'}`,
      );
  }
}

const GRAPH_FIELDS = [
  'name',
  'description',
  'step_budget',
  'eval_graph',
  'kind',
  'group',
  'presetId',
] as const;

function diffLevel(d: DiffBuilder, a: GraphDef, b: GraphDef, prefix: string): void {
  const where = prefix ? `subgraph ${prefix.slice(0, -1)}` : 'graph';
  for (const f of GRAPH_FIELDS) d.field('graph', prefix + f, where, f, a[f], b[f]);
  diffNodes(d, a.nodes, b.nodes, prefix);
  diffEdges(d, a.edges, b.edges, prefix);
  diffContainers(d, a.containers, b.containers, prefix);
  diffGrants(d, a, b, prefix);
  const hooks = Math.max(a.hooks.length, b.hooks.length);
  for (let i = 0; i < hooks; i++) {
    const [ha, hb] = [a.hooks[i], b.hooks[i]];
    const id = `${prefix}${i}`;
    if (ha && hb) d.leaves('hook', id, `hook ${id}`, '$', ha, hb);
    else
      d.add(
        { area: 'hook', op: ha ? 'removed' : 'added', id },
        `hook ${id} ${ha ? 'removed' : 'added'}: ${(ha ?? hb)!.event}`,
      );
  }
  diffFeatures(d, a, b, prefix);
}

/** `a` is the old version, `b` the new one. */
export function diffGraphs(a: GraphDef, b: GraphDef): GraphDiff {
  const d = new DiffBuilder();
  diffLevel(d, a, b, '');
  return { same: d.changes.length === 0, changes: d.changes, moved: d.moved };
}

/** The diff as text lines (what `statewire diff` prints): one per change, then the layout count. */
export function graphDiffLines(diff: GraphDiff): string[] {
  const lines = diff.changes.map((c) => c.text);
  if (diff.moved > 0) lines.push(`layout: ${diff.moved} position${diff.moved === 1 ? '' : 's'} changed`);
  if (lines.length === 0) lines.push('no changes');
  return lines;
}
