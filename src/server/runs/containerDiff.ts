// A fork may run a modified graph only if its containers still match the checkpoint it starts from:
// same container ids, same slots, same reducers. Returns one line per difference (empty = compatible).
import type { ContainerDef, GraphDef } from '../../domain/graph/graph.schema.ts';

export function containerDifferences(parent: GraphDef, next: GraphDef): string[] {
  const out: string[] = [];
  const byId = (g: GraphDef) => new Map<string, ContainerDef>(g.containers.map((c) => [c.id, c]));
  const a = byId(parent);
  const b = byId(next);
  for (const id of a.keys()) if (!b.has(id)) out.push(`container '${id}' is missing from the new graph`);
  for (const id of b.keys()) if (!a.has(id)) out.push(`container '${id}' is new (not in the checkpoint)`);
  for (const [id, ca] of a) {
    const cb = b.get(id);
    if (!cb) continue;
    for (const slot of Object.keys(ca.states))
      if (!(slot in cb.states)) out.push(`container '${id}': slot '${slot}' was removed`);
    for (const slot of Object.keys(cb.states))
      if (!(slot in ca.states)) out.push(`container '${id}': slot '${slot}' was added`);
    for (const [slot, sa] of Object.entries(ca.states)) {
      const sb = cb.states[slot];
      if (sb && sb.type !== sa.type)
        out.push(`container '${id}': slot '${slot}' reducer changed from ${sa.type} to ${sb.type}`);
      if (sb && sb.value_type !== sa.value_type)
        out.push(
          `container '${id}': slot '${slot}' value_type changed from ${sa.value_type} to ${sb.value_type}`,
        );
    }
  }
  return out;
}
