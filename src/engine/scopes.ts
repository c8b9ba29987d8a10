// The scope forest (REFERENCE.md 3.3): one scope per iterIn/iterOut pair, id = the iterIn id.
// Membership = forward-reachable from the iterIn (not past its iterOut) ∩ backward-reachable from the
// iterOut (not past its iterIn). A node belongs to its innermost scope; the rest is the graph scope "".
import type { EdgeDef, NodeDef } from '../domain/graph.schema.ts';
import { pairedIterOut } from '../domain/loopPorts.ts';
import { BuildError } from './errors.ts';

export const GRAPH_SCOPE = '';

export interface ScopeInfo {
  id: string;
  iterIn: string;
  iterOut: string;
  members: Set<string>;
  parent: string;
  children: string[];
  depth: number;
}

export interface ScopeForest {
  scopes: Map<string, ScopeInfo>;
  /** Node id → innermost scope id ("" for the graph scope). */
  scopeOf: Map<string, string>;
  /** Scopes without a parent, in node order; the first drives the global step counter. */
  roots: string[];
  /** iterOut id → scope id. */
  byIterOut: Map<string, string>;
}

export function buildScopes(nodes: readonly NodeDef[], edges: readonly EdgeDef[]): ScopeForest {
  const out = new Map<string, EdgeDef[]>();
  const inc = new Map<string, EdgeDef[]>();
  for (const e of edges) {
    (out.get(e.source) ?? out.set(e.source, []).get(e.source)!).push(e);
    (inc.get(e.target) ?? inc.set(e.target, []).get(e.target)!).push(e);
  }
  const scopes = new Map<string, ScopeInfo>();
  const byIterOut = new Map<string, string>();
  for (const n of nodes) {
    if (n.type !== 'iterIn') continue;
    const pair = pairedIterOut({ nodes: nodes as NodeDef[] }, n);
    if (!pair)
      throw new BuildError(`iterIn '${n.id}' has no paired iterOut (set config.pairedWith on both pivots)`, {
        node: n.id,
      });
    if (byIterOut.has(pair.id)) {
      throw new BuildError(
        `iterOut '${pair.id}' is paired with two iterIns ('${byIterOut.get(pair.id)}' and '${n.id}')`,
        { node: pair.id },
      );
    }
    const fwd = reach(n.id, pair.id, (id) => (out.get(id) ?? []).map((e) => e.target));
    const back = reach(pair.id, n.id, (id) => (inc.get(id) ?? []).map((e) => e.source));
    const members = new Set([...fwd].filter((x) => back.has(x)));
    members.add(n.id);
    members.add(pair.id);
    scopes.set(n.id, {
      id: n.id,
      iterIn: n.id,
      iterOut: pair.id,
      members,
      parent: GRAPH_SCOPE,
      children: [],
      depth: 0,
    });
    byIterOut.set(pair.id, n.id);
  }
  // Parent = the smallest other scope containing both pivots.
  for (const s of scopes.values()) {
    let best: ScopeInfo | undefined;
    for (const o of scopes.values()) {
      if (o === s || !o.members.has(s.iterIn) || !o.members.has(s.iterOut)) continue;
      if (!best || o.members.size < best.members.size) best = o;
    }
    if (best) {
      s.parent = best.id;
      best.children.push(s.id);
    }
  }
  for (const s of scopes.values()) {
    let d = 0;
    for (let p = s.parent; p; p = scopes.get(p)?.parent ?? GRAPH_SCOPE) d++;
    s.depth = d;
  }
  const scopeOf = new Map<string, string>();
  for (const n of nodes) {
    let best: ScopeInfo | undefined;
    for (const s of scopes.values()) if (s.members.has(n.id) && (!best || s.depth > best.depth)) best = s;
    scopeOf.set(n.id, best?.id ?? GRAPH_SCOPE);
  }
  const rootFinal = new Set<string>();
  for (const s of scopes.values()) if (!s.parent) rootFinal.add(s.iterOut);
  // graphIn follows its targets, graphOut its sources (except a root final-side harvest).
  for (const n of nodes) {
    if (n.type === 'graphIn') {
      const inner = deepest(
        (out.get(n.id) ?? []).map((e) => scopeOf.get(e.target) ?? GRAPH_SCOPE),
        scopes,
      );
      if (inner !== undefined) scopeOf.set(n.id, inner);
    } else if (n.type === 'graphOut') {
      const srcs = inc.get(n.id) ?? [];
      if (srcs.some((e) => rootFinal.has(e.source))) scopeOf.set(n.id, GRAPH_SCOPE);
      else {
        const inner = deepest(
          srcs.map((e) => scopeOf.get(e.source) ?? GRAPH_SCOPE),
          scopes,
        );
        if (inner !== undefined) scopeOf.set(n.id, inner);
      }
    }
  }
  const roots = nodes.filter((n) => scopes.get(n.id)?.parent === GRAPH_SCOPE).map((n) => n.id);
  return { scopes, scopeOf, roots, byIterOut };
}

function reach(start: string, stop: string, next: (id: string) => string[]): Set<string> {
  const seen = new Set<string>([start]);
  const stack = [start];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === stop) continue;
    for (const t of next(id)) {
      if (seen.has(t)) continue;
      seen.add(t);
      stack.push(t);
    }
  }
  return seen;
}

function deepest(ids: string[], scopes: Map<string, ScopeInfo>): string | undefined {
  let best: string | undefined;
  let depth = -1;
  for (const id of ids) {
    const d = id ? (scopes.get(id)?.depth ?? 0) + 1 : 0;
    if (d > depth) {
      depth = d;
      best = id;
    }
  }
  return best;
}

/** Is `scope` equal to or nested inside `ancestor`? */
export function isWithin(forest: ScopeForest, scope: string, ancestor: string): boolean {
  for (let s = scope; ; s = forest.scopes.get(s)?.parent ?? GRAPH_SCOPE) {
    if (s === ancestor) return true;
    if (s === GRAPH_SCOPE) return false;
  }
}

/** Lowest common ancestor of scopes ("" when they share none). */
export function commonScope(forest: ScopeForest, ids: readonly string[]): string {
  if (ids.length === 0) return GRAPH_SCOPE;
  let cand = ids[0]!;
  while (!ids.every((id) => isWithin(forest, id, cand)))
    cand = forest.scopes.get(cand)?.parent ?? GRAPH_SCOPE;
  return cand;
}
