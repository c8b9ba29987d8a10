// validate(graph) → Issue[]: every rule of docs/reference-system.md §2.2–2.6 that can be
// checked without running, plus our extension rules (docs/reference-differences.md §16, §21). Composite subgraphs are checked
// recursively with paths like `$.nodes[2].subgraph.nodes[0]`. Codes are listed in README.md.
import type { Catalog } from '../catalog/catalog.schema.ts';
import { BUILTIN_CATALOG } from '../catalog/catalog.builtins.ts';
import type { GraphDef } from '../graph/graph.schema.ts';
import type { Issue } from './issues.ts';
import { ValidateCtx } from './validate.ctx.ts';
import { checkContainers } from './validate.containers.ts';
import { checkEdges } from './validate.edges.ts';
import {
  checkDanglingEdges,
  checkDuplicateIds,
  checkEvalGraph,
  checkGrants,
  checkNodeTypes,
  checkUngrantedContainers,
} from './validate.ids.ts';
import { checkNumbers } from './validate.numbers.ts';
import { checkLoops } from './validate.loops.ts';
import { checkScopes } from './validate.scopes.ts';
import { checkRouting } from '../routing/routing.validate.ts';

export { hasErrors } from './issues.ts';

function validateAt(
  graph: GraphDef,
  base: string,
  catalog: Catalog,
  issues: Issue[],
  isRoot: boolean,
  outer: ReadonlySet<string> = new Set(),
): void {
  const ctx = new ValidateCtx(graph, base, catalog, issues, isRoot, outer);
  checkDuplicateIds(ctx);
  checkNodeTypes(ctx);
  checkDanglingEdges(ctx);
  checkGrants(ctx);
  checkUngrantedContainers(ctx);
  checkContainers(ctx);
  checkLoops(ctx);
  checkScopes(ctx);
  checkEdges(ctx);
  checkEvalGraph(ctx);
  checkNumbers(ctx);
  checkRouting(ctx);
  // What a subgraph's grants may name: its own containers, then those of every enclosing graph.
  const visible = new Set([...outer, ...ctx.containerIds]);
  graph.nodes.forEach((n, i) => {
    if (n.subgraph) validateAt(n.subgraph, `${base}.nodes[${i}].subgraph`, catalog, issues, false, visible);
  });
}

export function validate(graph: GraphDef, catalog: Catalog = BUILTIN_CATALOG): Issue[] {
  const issues: Issue[] = [];
  validateAt(graph, '$', catalog, issues, true);
  return issues;
}
