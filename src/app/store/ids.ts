// Readable, deterministic-per-graph ids for things the user creates: `<prefix>_<n>` with the smallest
// free n. Readable ids make saved JSON diffable and let tests compare against canonical fixtures.
import type { GraphDef } from '../../domain/graph/graph.schema.ts';

export function usedIds(g: GraphDef): Set<string> {
  return new Set<string>([
    ...g.nodes.map((n) => n.id),
    ...g.containers.map((c) => c.id),
    ...g.edges.map((e) => e.id),
    ...g.access_grants.map((a) => a.id),
  ]);
}

export function freshId(prefix: string, used: Set<string>): string {
  const base = prefix.replace(/[^A-Za-z0-9_]/g, '_') || 'node';
  for (let i = 1; ; i++) {
    const id = `${base}_${i}`;
    if (!used.has(id)) {
      used.add(id);
      return id;
    }
  }
}

export function edgeId(used: Set<string>, source: string, sh: string, target: string, th: string): string {
  const id = `e_${source}_${sh || 'out'}__${target}_${th || 'in'}`;
  if (!used.has(id)) return id;
  return freshId(id, used);
}

export function grantId(used: Set<string>, nodeId: string, containerId: string): string {
  const id = `ag_${nodeId}_${containerId}`;
  if (!used.has(id)) return id;
  return freshId(id, used);
}
