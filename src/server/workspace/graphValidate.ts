// Server-side validation entry: the domain validator over the server's catalog (built-ins + plugins).
import type { Catalog } from '../../domain/catalog/catalog.schema.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { validate } from '../../domain/validate/graph.validate.ts';
import type { Issue } from '../../domain/validate/issues.ts';

export function validateGraph(graph: GraphDef, catalog: Catalog): Issue[] {
  return validate(graph, catalog);
}

/** Issue codes that describe a data wire (the reference's `wire_errors`). */
export const WIRE_CODES = new Set(['wire-type-mismatch', 'lossy', 'unknown-handle', 'required-input-unwired', 'dangling-edge']);
