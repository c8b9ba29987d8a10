// A tab edits one graph level at a time: the root or a composite's subgraph, addressed by the path
// of composite node ids from the root. These helpers read and replace the level immutably.
import type { GraphDef } from '../../domain/graph/graph.schema.ts';

export function levelAt(root: GraphDef, path: readonly string[]): GraphDef {
  let g = root;
  for (const id of path) {
    const n = g.nodes.find((x) => x.id === id);
    if (!n?.subgraph) return g;
    g = n.subgraph;
  }
  return g;
}

export function replaceLevel(root: GraphDef, path: readonly string[], next: GraphDef): GraphDef {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  return {
    ...root,
    nodes: root.nodes.map((n) =>
      n.id === head && n.subgraph ? { ...n, subgraph: replaceLevel(n.subgraph, rest, next) } : n,
    ),
  };
}

/** The longest prefix of `path` that still resolves (after an undo removed a composite, say). */
export function validPath(root: GraphDef, path: readonly string[]): string[] {
  const out: string[] = [];
  let g = root;
  for (const id of path) {
    const n = g.nodes.find((x) => x.id === id);
    if (!n?.subgraph) break;
    out.push(id);
    g = n.subgraph;
  }
  return out;
}
