// The app's one door to the domain's parse / format / validate. Everything in the app goes through
// these functions so the boundary (strip server-only keys, pass the live catalog) stays in one place.
import type { Catalog } from '../../domain/catalog/catalog.schema.ts';
import { formatGraph } from '../../domain/graph/graph.format.ts';
import {
  parseGraph,
  parseGraphText as domainParseText,
  type ParseResult,
} from '../../domain/graph/graph.parse.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { validate } from '../../domain/validate/graph.validate.ts';
import type { Issue } from '../../domain/validate/issues.ts';

export type { Issue };
export type ParseOutcome = ParseResult;

// Keys the server adds to a listed/fetched graph (`_id`, `_path`, `_etag`, `_mtime`, `folder`)
// are bookkeeping, not part of the format.
const isServerKey = (k: string) => k.startsWith('_') || k === 'folder';

export function parseGraphInput(input: unknown): ParseOutcome {
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const copy = { ...(input as Record<string, unknown>) };
    for (const k of Object.keys(copy)) if (isServerKey(k)) delete copy[k];
    input = copy;
  }
  return parseGraph(input);
}

export function parseGraphText(text: string, fileName?: string): ParseOutcome {
  return domainParseText(text, fileName);
}

export function formatGraphText(graph: GraphDef): string {
  return formatGraph(graph);
}

export function validateGraph(graph: GraphDef, catalog?: Catalog): Issue[] {
  return validate(graph, catalog);
}
