// Shared plumbing for the validator's rule files: an issue sink that knows the JSON path of the
// graph being checked (the root file, or a composite's subgraph) and the catalog in use.
import type { Catalog } from '../catalog/catalog.schema.ts';
import type { GraphDef, NodeDef } from '../graph/graph.schema.ts';
import type { Issue, Severity } from './issues.ts';

export type IssueIds = Pick<Issue, 'nodeId' | 'containerId' | 'edgeId' | 'grantId' | 'slot'>;

export class ValidateCtx {
  /** Last node per id: the reference executor keeps the last node when ids repeat. */
  readonly nodeById = new Map<string, NodeDef>();
  readonly nodeIndex = new Map<string, number>();
  readonly containerIds = new Set<string>();

  constructor(
    readonly graph: GraphDef,
    /** JSON path of this graph: `$`, or `$.nodes[2].subgraph` for a composite's inner graph. */
    readonly base: string,
    readonly catalog: Catalog,
    readonly issues: Issue[],
    readonly isRoot: boolean,
    /**
     * Containers the enclosing graphs declare (empty at the root). A grant inside a composite to a
     * container its subgraph does not declare resolves to the nearest enclosing one, as the engine
     * flattens it (src/engine/flatten.ts), so such a grant is not dangling.
     */
    readonly outerContainerIds: ReadonlySet<string> = new Set(),
  ) {
    graph.nodes.forEach((n, i) => {
      this.nodeById.set(n.id, n);
      this.nodeIndex.set(n.id, i);
    });
    for (const c of graph.containers) this.containerIds.add(c.id);
  }

  add(severity: Severity, code: string, path: string, message: string, ids: IssueIds = {}): void {
    this.issues.push({ code, severity, path: this.base + path, message, ...ids });
  }
  error(code: string, path: string, message: string, ids: IssueIds = {}): void {
    this.add('error', code, path, message, ids);
  }
  warn(code: string, path: string, message: string, ids: IssueIds = {}): void {
    this.add('warning', code, path, message, ids);
  }
  info(code: string, path: string, message: string, ids: IssueIds = {}): void {
    this.add('info', code, path, message, ids);
  }

  nodePath(id: string): string {
    const i = this.nodeIndex.get(id);
    return i === undefined ? '' : `.nodes[${i}]`;
  }
}

export const quote = (xs: readonly string[]): string => xs.map((x) => `'${x}'`).join(', ');
