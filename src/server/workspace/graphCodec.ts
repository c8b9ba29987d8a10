// The server's single entry to graph parsing and canonical serialization. Everything that reads a
// graph from a file or a request body goes through `decodeGraph`, so tolerance rules live in one
// place (domain's tolerant parser) and files are always written in the canonical form.
import { createHash } from 'node:crypto';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { formatGraph } from '../../domain/graph/graph.format.ts';
import { parseGraph } from '../../domain/graph/graph.parse.ts';
import type { Issue } from '../../domain/validate/issues.ts';

export type DecodeResult = { ok: true; graph: GraphDef; warnings: Issue[] } | { ok: false; errors: Issue[] };

export function decodeGraph(input: unknown): DecodeResult {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    return { ok: false, errors: [{ code: 'not-an-object', severity: 'error', path: '$', message: 'a graph must be a JSON object' }] };
  return parseGraph(input);
}

/** Canonical text of a graph file (the reference's save form: 2-space JSON, trailing newline). */
export function encodeGraph(graph: GraphDef): string {
  return formatGraph(graph);
}

/**
 * A graph's version: SHA-256 (hex) of its canonical text (`encodeGraph`). What runs and batches
 * record (runs/graphVersion.ts) and what the PostgreSQL graph store keeps with every saved version.
 */
export function versionHashOf(canonicalText: string): string {
  return createHash('sha256').update(canonicalText).digest('hex');
}

/** First error of a failed decode, as one line for an API message. */
export function describeErrors(errors: readonly Issue[]): string {
  return errors
    .slice(0, 5)
    .map((e) => `${e.path}: ${e.message}`)
    .join('; ');
}
