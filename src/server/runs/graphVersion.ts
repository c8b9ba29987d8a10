// The version of a graph: SHA-256 (hex) of its canonical save form (domain/graph/graphVersion.ts says
// what it means). Computed once per run start, fork, batch; stored with the run or batch row.
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { decodeGraph, encodeGraph, versionHashOf } from '../workspace/graphCodec.ts';

export function graphVersion(graph: GraphDef): string {
  return versionHashOf(encodeGraph(graph));
}

/** The version of a graph as stored (any JSON): null when it is not a graph (an imported run's junk). */
export function graphVersionOf(value: unknown): string | null {
  const decoded = decodeGraph(value);
  return decoded.ok ? graphVersion(decoded.graph) : null;
}
