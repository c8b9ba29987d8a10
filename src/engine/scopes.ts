// The engine's scope forest (docs/reference-system.md §3.3) is the domain's analysis itself, so the validator and
// the executor can never disagree about loop membership, nesting, roots or graphIn/graphOut scopes.
// This adapter only adds what a run needs on top: an iterIn the analysis could not pair is a
// BuildError here (the validator reports it as an issue instead). Partial overlaps are left to the
// validator, as before; the analysis still yields a well-formed forest for them (no parent cycles).
import type { EdgeDef, NodeDef } from '../domain/graph/graph.schema.ts';
import { pairedIterOut } from '../domain/flow/loopPorts.ts';
import { analyzeScopes, type Scope, type ScopeAnalysis } from '../domain/flow/scopes.ts';
import { BuildError } from './errors.ts';

export { commonScope, GRAPH_SCOPE, isWithin } from '../domain/flow/scopes.ts';

export type ScopeInfo = Scope;
export type ScopeForest = ScopeAnalysis;

export function buildScopes(nodes: readonly NodeDef[], edges: readonly EdgeDef[]): ScopeForest {
  const forest = analyzeScopes({ nodes: [...nodes], edges: [...edges] });
  // `unpaired` is in node order, so this reports the same (first) problem the run would hit first.
  const first = forest.unpaired[0];
  if (first !== undefined) throw unpairedError(nodes, forest, first);
  return forest;
}

function unpairedError(nodes: readonly NodeDef[], forest: ScopeForest, iterIn: string): BuildError {
  const node = nodes.find((n) => n.id === iterIn);
  const pair = node ? pairedIterOut({ nodes: [...nodes] }, node) : undefined;
  const owner = pair ? forest.byIterOut.get(pair.id) : undefined;
  if (pair && owner !== undefined)
    return new BuildError(`iterOut '${pair.id}' is paired with two iterIns ('${owner}' and '${iterIn}')`, {
      node: pair.id,
    });
  return new BuildError(`iterIn '${iterIn}' has no paired iterOut (set config.pairedWith on both pivots)`, {
    node: iterIn,
  });
}
