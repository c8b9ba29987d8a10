// Loop-scope rules (docs/reference-system.md §2.2, 2.3, 3.3, 3.5) over the scope analysis in scopes.ts.
// Every level (root and each composite subgraph): partially overlapping scopes and wires between
// two different loop scopes that skip the pivots. Root level only, because a subgraph's loop is
// nested inside its parent's once flattened: the after-loop band rules and eval-output sourcing.
// Pairing problems (unpaired iterIn, two iterOuts on one iterIn) are reported by validate.loops.ts.
import type { EdgeDef } from '../graph/graph.schema.ts';
import { analyzeScopes, GRAPH_SCOPE, isFinalSide, type ScopeAnalysis } from '../flow/scopes.ts';
import { quote, type ValidateCtx } from './validate.ctx.ts';

/** Boundary node types an edge may leave a loop scope through. */
const EXITS = new Set(['graphOut', 'iterOut']);
/** Boundary node types an edge may enter a loop scope through. */
const ENTRIES = new Set(['graphIn', 'iterIn']);
/** graphOut port names an evaluation harvests as its verdict. */
const VERDICT_PORTS = new Set(['metrics', 'success']);

const MAX_LISTED = 5;
const list = (ids: readonly string[]): string =>
  quote(ids.slice(0, MAX_LISTED)) + (ids.length > MAX_LISTED ? ` and ${ids.length - MAX_LISTED} more` : '');

export function checkScopes(ctx: ValidateCtx): void {
  if (!ctx.graph.nodes.some((n) => n.type === 'iterIn')) return; // no loops: nothing to check
  const a = analyzeScopes(ctx.graph);
  checkOverlaps(ctx, a);
  checkCrossScopeEdges(ctx, a);
  if (ctx.isRoot) checkAfterLoop(ctx, a);
}

function checkOverlaps(ctx: ValidateCtx, a: ScopeAnalysis): void {
  for (const { a: x, b: y, shared } of a.overlaps) {
    ctx.error(
      'scope-overlap',
      ctx.nodePath(y),
      `loop scopes '${x}' and '${y}' partially overlap (both hold ${list(shared)}); nest one loop wholly inside the other or keep their bodies apart`,
      { nodeId: y },
    );
  }
}

function checkCrossScopeEdges(ctx: ValidateCtx, a: ScopeAnalysis): void {
  ctx.graph.edges.forEach((e, i) => {
    const src = ctx.nodeById.get(e.source);
    const tgt = ctx.nodeById.get(e.target);
    if (!src || !tgt) return; // dangling: reported elsewhere
    const from = a.scopeOf.get(src.id) ?? GRAPH_SCOPE;
    const to = a.scopeOf.get(tgt.id) ?? GRAPH_SCOPE;
    // Same scope, or one end in the graph scope: always allowed (docs/reference-system.md §2.3).
    if (from === to || from === GRAPH_SCOPE || to === GRAPH_SCOPE) return;
    if (EXITS.has(src.type) || ENTRIES.has(tgt.type)) return;
    ctx.error(
      'cross-scope-edge',
      `.edges[${i}]`,
      `edge '${e.id}' wires '${src.id}' in loop scope '${from}' to '${tgt.id}' in loop scope '${to}'; a wire between loops must leave through an iterOut (final side) or graphOut, or enter through an iterIn or graphIn`,
      { edgeId: e.id, nodeId: tgt.id },
    );
  });
}

/**
 * The after-loop band (downstream closure of the root iterOuts' final_* edges) must be graph-scope
 * and fed only from itself or the final side; eval verdict outputs must come from it.
 */
function checkAfterLoop(ctx: ValidateCtx, a: ScopeAnalysis): void {
  const rootOuts = new Set(a.roots.map((r) => a.scopes.get(r)!.iterOut));
  const outs = new Map<string, EdgeDef[]>();
  for (const e of ctx.graph.edges) (outs.get(e.source) ?? outs.set(e.source, []).get(e.source)!).push(e);
  const band = new Set<string>();
  const inScope = new Set<string>();
  const stack: string[] = [];
  const visit = (id: string) => {
    if (band.has(id) || inScope.has(id) || !ctx.nodeById.has(id)) return;
    // A band node inside a loop is reported once and not followed (its downstream is the loop's).
    if ((a.scopeOf.get(id) ?? GRAPH_SCOPE) !== GRAPH_SCOPE) inScope.add(id);
    else {
      band.add(id);
      stack.push(id);
    }
  };
  for (const out of rootOuts) for (const e of outs.get(out) ?? []) if (isFinalSide(e)) visit(e.target);
  while (stack.length > 0) for (const e of outs.get(stack.pop()!) ?? []) visit(e.target);

  for (const id of inScope) {
    ctx.error(
      'after-loop-band-in-scope',
      ctx.nodePath(id),
      `node '${id}' is downstream of a root loop's final side but lies inside loop scope '${a.scopeOf.get(id)}': the after-loop band must be graph-scope`,
      { nodeId: id },
    );
  }

  // Eval verdict outputs (a graphOut is never a scope member: it has no outputs at its level).
  const verdicts = new Set(
    ctx.graph.kind === 'node'
      ? []
      : ctx.graph.nodes
          .filter(
            (n) =>
              n.type === 'graphOut' &&
              ctx.nodeById.get(n.id) === n &&
              VERDICT_PORTS.has(String(n.config.portName)) &&
              !band.has(n.id) && // a band graphOut is held to the stricter band rule
              a.memberScopeOf.get(n.id) === GRAPH_SCOPE,
          )
          .map((n) => n.id),
  );
  const fromBody = verdicts.size > 0 ? downstreamOfBodies(a, outs, rootOuts) : new Set<string>();

  ctx.graph.edges.forEach((e, i) => {
    if (!ctx.nodeById.has(e.source) || rootOuts.has(e.source)) return; // the final side itself
    if (band.has(e.target) && !band.has(e.source)) {
      ctx.error(
        'band-input-off-pivot',
        `.edges[${i}]`,
        `edge '${e.id}' feeds after-loop node '${e.target}' from '${e.source}', outside the after-loop band: Verdict inputs must ride the pivot (carry the value through the iterOut and read it from its final_<name> output)`,
        { edgeId: e.id, nodeId: e.target },
      );
    }
    if (!verdicts.has(e.target)) return;
    const inLoop = a.memberScopeOf.get(e.source) !== GRAPH_SCOPE;
    if (!inLoop && (!fromBody.has(e.source) || band.has(e.source))) return;
    const port = String(ctx.nodeById.get(e.target)!.config.portName);
    ctx.error(
      'eval-output-from-body',
      `.edges[${i}]`,
      `graphOut '${e.target}' (portName '${port}') is fed from the loop body via '${e.source}': eval outputs must come from the after-loop band (wire it from the iterOut's final_<name> output)`,
      { edgeId: e.id, nodeId: e.target },
    );
  });
}

/** Graph-scope nodes a loop body reaches without passing a root iterOut (whose exit is the band). */
function downstreamOfBodies(
  a: ScopeAnalysis,
  outs: ReadonlyMap<string, EdgeDef[]>,
  rootOuts: ReadonlySet<string>,
): Set<string> {
  const seen = new Set<string>();
  const stack: string[] = [];
  for (const [id, s] of a.memberScopeOf) if (s !== GRAPH_SCOPE && !rootOuts.has(id)) stack.push(id);
  while (stack.length > 0) {
    for (const e of outs.get(stack.pop()!) ?? []) {
      if (seen.has(e.target) || a.memberScopeOf.get(e.target) !== GRAPH_SCOPE) continue;
      seen.add(e.target);
      stack.push(e.target);
    }
  }
  return seen;
}
