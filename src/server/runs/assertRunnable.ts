// The run boundary's check, shared by every way a run starts: the editor's Run (navigate.routes.ts),
// the run manager's start/fork (app.ts hands it over) and a batch's episodes (batch/batches.routes.ts).
import type { Catalog } from '../../domain/catalog/catalog.schema.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { validateGraph } from '../workspace/graphValidate.ts';
import { ApiError } from '../errors/errors.ts';

/** The run boundary refuses a graph with validation errors (docs/reference-system.md §2.2), naming every one. */
export function assertRunnable(graph: GraphDef, catalog: Catalog, pathPrefix: string): void {
  const errors = validateGraph(graph, catalog).filter((i) => i.severity === 'error');
  if (errors.length === 0) return;
  const list = errors.map((e) => `- ${e.path}: ${e.message}`).join('\n');
  throw new ApiError(
    400,
    'invalid-graph',
    `Invalid graph: Graph connectivity validation failed:\n${list}`,
    errors[0]?.path.replace(/^\$/, pathPrefix),
    {
      issues: errors,
    },
  );
}
