// Pure scope analysis of ONE graph level (docs/reference-system.md §3.3), shared by the validator and, later,
// the engine. A scope is one iterIn/iterOut pair (id = the iterIn id); everything outside every
// loop is the implicit graph scope "". It never throws: problems (unpaired iterIns, partially
// overlapping scopes) are returned as data, and validate.scopes.ts turns them into issues.
// Cost: one bounded BFS pair per loop plus linear passes, so big graphs with many loops stay fast.
import type { EdgeDef, GraphDef, NodeDef } from '../graph/graph.schema.ts';
import { pairedId } from './loopPorts.ts';

export const GRAPH_SCOPE = '';

export interface Scope {
  /** The iterIn id. */
  id: string;
  iterIn: string;
  iterOut: string;
  /** Forward from iterIn ∩ backward from iterOut, pivots included. */
  members: ReadonlySet<string>;
  /** Enclosing scope id, "" for a root scope. */
  parent: string;
  children: string[];
  /** 0 for a root scope. */
  depth: number;
}

export interface ScopeAnalysis {
  /** Scopes in iterIn node order. */
  scopes: Map<string, Scope>;
  /** Node id → innermost scope id, after the graphIn/graphOut reassignment ("" = graph scope). */
  scopeOf: Map<string, string>;
  /** Node id → innermost scope id by membership alone (before graphIn/graphOut reassignment). */
  memberScopeOf: Map<string, string>;
  /** Scopes without a parent, in node order; the first drives the global step counter. */
  roots: string[];
  /** iterOut id → scope id. */
  byIterOut: Map<string, string>;
  /** iterIns that got no scope: no iterOut pairs with them, or theirs is claimed by an earlier iterIn. */
  unpaired: string[];
  /** Pairs of scopes that share nodes without one lying wholly (and strictly) inside the other. */
  overlaps: { a: string; b: string; shared: string[] }[];
}

type Adj = Map<string, string[]>;

function push(map: Adj, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Nodes reachable from `start` along `next`, never expanding `stop` (which is still included). */
function reach(start: string, stop: string, next: Adj): Set<string> {
  const seen = new Set<string>([start]);
  const stack = [start];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === stop && id !== start) continue;
    for (const t of next.get(id) ?? []) {
      if (seen.has(t)) continue;
      seen.add(t);
      stack.push(t);
    }
  }
  return seen;
}

/**
 * Pairs each iterIn with its iterOut like the engine: the iterOut its own `pairedWith` names, else
 * the first iterOut whose `pairedWith` names it. An iterOut already claimed is not shared.
 */
function pairPivots(nodes: ReadonlyMap<string, NodeDef>): { pairs: [string, string][]; unpaired: string[] } {
  const pointingAt = new Map<string, string>();
  for (const n of nodes.values()) {
    const to = n.type === 'iterOut' ? pairedId(n) : undefined;
    if (to && !pointingAt.has(to)) pointingAt.set(to, n.id);
  }
  const claimed = new Set<string>();
  const pairs: [string, string][] = [];
  const unpaired: string[] = [];
  for (const n of nodes.values()) {
    if (n.type !== 'iterIn') continue;
    const to = pairedId(n);
    const byPointer = to !== undefined && nodes.get(to)?.type === 'iterOut' ? to : undefined;
    const out = byPointer ?? pointingAt.get(n.id);
    if (out === undefined || claimed.has(out)) unpaired.push(n.id);
    else {
      claimed.add(out);
      pairs.push([n.id, out]);
    }
  }
  return { pairs, unpaired };
}

/** The deepest of some scope ids ("" counts as shallowest); undefined for an empty list. */
function deepest(ids: readonly string[], scopes: ReadonlyMap<string, Scope>): string | undefined {
  let best: string | undefined;
  let bestDepth = -1;
  for (const id of ids) {
    const d = id === GRAPH_SCOPE ? 0 : (scopes.get(id)?.depth ?? -1) + 1;
    if (d > bestDepth) {
      bestDepth = d;
      best = id;
    }
  }
  return best;
}

/**
 * Partial overlaps: pairs of scopes that share a node while neither lies strictly inside the other.
 * The scopes are properly nested exactly when every scope lies strictly inside its parent and no
 * node is held by a scope off its innermost scope's ancestor chain. Both checks cost one pass over
 * the memberships; only an actual overlap costs more (comparing the two scopes involved).
 */
function findOverlaps(
  scopes: ReadonlyMap<string, Scope>,
  scopesWith: ReadonlyMap<string, string[]>,
  memberScopeOf: ReadonlyMap<string, string>,
  order: ReadonlyMap<string, number>,
): ScopeAnalysis['overlaps'] {
  const overlaps: ScopeAnalysis['overlaps'] = [];
  const judged = new Set<string>();
  const judge = (x: Scope, y: Scope): void => {
    const [a, b] = order.get(x.id)! < order.get(y.id)! ? [x, y] : [y, x];
    const key = `${a.id}\u0000${b.id}`;
    if (judged.has(key)) return;
    judged.add(key);
    const [small, big] = a.members.size <= b.members.size ? [a, b] : [b, a];
    const shared = [...small.members].filter((m) => big.members.has(m));
    // Identical sets mean each holds the other's pivots (loops sharing a body through the
    // loopbacks): neither can run inside the other, so that is an overlap too.
    if (shared.length < small.members.size || small.members.size === big.members.size)
      overlaps.push({ a: a.id, b: b.id, shared: shared.sort() });
  };
  for (const s of scopes.values()) if (s.parent !== GRAPH_SCOPE) judge(s, scopes.get(s.parent)!);
  // Ancestor test in O(1): entry/exit numbers of a depth-first walk over the scope forest.
  const enter = new Map<string, number>();
  const leave = new Map<string, number>();
  let clock = 0;
  for (const root of scopes.values()) {
    if (root.parent !== GRAPH_SCOPE) continue;
    const stack: [Scope, number][] = [[root, 0]];
    enter.set(root.id, clock++);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const child = top[0].children[top[1]++];
      if (child === undefined) {
        leave.set(top[0].id, clock++);
        stack.pop();
      } else {
        enter.set(child, clock++);
        stack.push([scopes.get(child)!, 0]);
      }
    }
  }
  const holds = (outer: string, inner: string) =>
    enter.get(outer)! <= enter.get(inner)! && leave.get(inner)! <= leave.get(outer)!;
  for (const [id, held] of scopesWith) {
    const inner = memberScopeOf.get(id)!;
    for (const other of held) if (!holds(other, inner)) judge(scopes.get(other)!, scopes.get(inner)!);
  }
  return overlaps;
}

export function analyzeScopes(graph: Pick<GraphDef, 'nodes' | 'edges'>): ScopeAnalysis {
  // The last node wins when ids repeat (the reference executor keeps the last one).
  const nodes = new Map<string, NodeDef>();
  for (const n of graph.nodes) nodes.set(n.id, n);
  const edges: EdgeDef[] = graph.edges.filter((e) => nodes.has(e.source) && nodes.has(e.target));
  const { pairs, unpaired } = pairPivots(nodes);

  // Adjacency with the implicit iterOut → iterIn loopback of every pair.
  const fwd: Adj = new Map();
  const back: Adj = new Map();
  for (const e of edges) {
    push(fwd, e.source, e.target);
    push(back, e.target, e.source);
  }
  for (const [i, o] of pairs) {
    push(fwd, o, i);
    push(back, i, o);
  }

  const scopes = new Map<string, Scope>();
  const byIterOut = new Map<string, string>();
  /** Node id → scopes that contain it, for nesting and overlap without comparing every pair. */
  const scopesWith = new Map<string, string[]>();
  pairs.forEach(([i, o]) => {
    const forward = reach(i, o, fwd);
    const backward = reach(o, i, back);
    const members = new Set<string>([i, o]);
    for (const x of forward) if (backward.has(x)) members.add(x);
    scopes.set(i, { id: i, iterIn: i, iterOut: o, members, parent: GRAPH_SCOPE, children: [], depth: 0 });
    byIterOut.set(o, i);
    for (const m of members) push(scopesWith, m, i);
  });

  // Parent = the smallest other scope holding both pivots. Ties go to the scope first in node
  // order, so "is parent of" is a strict order and can never loop.
  const order = new Map([...scopes.keys()].map((id, k) => [id, k]));
  const outer = (a: Scope, b: Scope) =>
    a.members.size > b.members.size ||
    (a.members.size === b.members.size && order.get(a.id)! < order.get(b.id)!);
  for (const s of scopes.values()) {
    let best: Scope | undefined;
    for (const cid of scopesWith.get(s.iterIn) ?? []) {
      const c = scopes.get(cid)!;
      if (c === s || !c.members.has(s.iterOut) || !outer(c, s)) continue;
      if (!best || outer(best, c)) best = c;
    }
    if (best) {
      s.parent = best.id;
      best.children.push(s.id);
    }
  }
  // Depth without recursion (nesting may be deep in a generated file): walk up to the first scope
  // whose depth is known, then fill in the chain on the way back.
  const known = new Set<string>();
  for (const s of scopes.values()) {
    const chain: Scope[] = [];
    let at: Scope | undefined = s;
    while (at && !known.has(at.id)) {
      chain.push(at);
      at = at.parent === GRAPH_SCOPE ? undefined : scopes.get(at.parent);
    }
    let d = at ? at.depth : -1;
    for (let k = chain.length - 1; k >= 0; k--) {
      chain[k]!.depth = ++d;
      known.add(chain[k]!.id);
    }
  }

  // Innermost scope by membership: shallow scopes first, deeper ones overwrite.
  const memberScopeOf = new Map<string, string>();
  for (const id of nodes.keys()) memberScopeOf.set(id, GRAPH_SCOPE);
  for (const sc of [...scopes.values()].sort((a, b) => a.depth - b.depth))
    for (const m of sc.members) memberScopeOf.set(m, sc.id);

  const overlaps = findOverlaps(scopes, scopesWith, memberScopeOf, order);

  // graphIn follows the innermost scope of its targets; graphOut that of its sources, except when
  // a root iterOut's final side feeds it (the harvest after the loop stays graph-scope).
  const scopeOf = new Map(memberScopeOf);
  const roots = [...scopes.values()].filter((s) => s.parent === GRAPH_SCOPE).map((s) => s.id);
  const rootOuts = new Set(roots.map((r) => scopes.get(r)!.iterOut));
  // Only the edges that leave a graphIn or enter a graphOut matter here.
  const fromGraphIn = new Map<string, EdgeDef[]>();
  const intoGraphOut = new Map<string, EdgeDef[]>();
  for (const e of edges) {
    if (nodes.get(e.source)!.type === 'graphIn')
      (fromGraphIn.get(e.source) ?? fromGraphIn.set(e.source, []).get(e.source)!).push(e);
    if (nodes.get(e.target)!.type === 'graphOut')
      (intoGraphOut.get(e.target) ?? intoGraphOut.set(e.target, []).get(e.target)!).push(e);
  }
  for (const [id, outs] of fromGraphIn) {
    const inner = deepest(
      outs.map((e) => memberScopeOf.get(e.target)!),
      scopes,
    );
    if (inner !== undefined) scopeOf.set(id, inner);
  }
  for (const [id, srcs] of intoGraphOut) {
    if (srcs.some((e) => isFinalSide(e) && rootOuts.has(e.source))) {
      scopeOf.set(id, GRAPH_SCOPE);
      continue;
    }
    const inner = deepest(
      srcs.map((e) => scopeOf.get(e.source)!),
      scopes,
    );
    if (inner !== undefined) scopeOf.set(id, inner);
  }
  return { scopes, scopeOf, memberScopeOf, roots, byIterOut, unpaired, overlaps };
}

/** An edge leaving an iterOut's final side (`final_<carry>` or `final_stop`). */
export function isFinalSide(e: EdgeDef): boolean {
  return e.sourceHandle.startsWith('final_');
}

/** Is `scope` equal to or nested inside `ancestor`? Every scope is within the graph scope "". */
export function isWithin(a: Pick<ScopeAnalysis, 'scopes'>, scope: string, ancestor: string): boolean {
  for (let s = scope; ; s = a.scopes.get(s)?.parent ?? GRAPH_SCOPE) {
    if (s === ancestor) return true;
    if (s === GRAPH_SCOPE) return false;
  }
}

/** Lowest common ancestor of some scopes ("" when they share none, or for no scopes). */
export function commonScope(a: Pick<ScopeAnalysis, 'scopes'>, ids: readonly string[]): string {
  if (ids.length === 0) return GRAPH_SCOPE;
  let cand = ids[0]!;
  while (!ids.every((id) => isWithin(a, id, cand))) cand = a.scopes.get(cand)?.parent ?? GRAPH_SCOPE;
  return cand;
}
