// Grant index and ctx injection (docs/reference-system.md §3.7): a node sees exactly the containers it is granted,
// keyed by the id its own graph uses; `graph_state` only with a grant to it. Indexing an ungranted
// container throws a GrantError naming node and container (the reference gave a bare KeyError/None).
// Dynamic children resolve grants through their spawner's id.
import type { StateContainer } from './container.ts';
import { GrantError } from './errors.ts';
import type { FlatGrant } from './flatten.ts';
import type { ContainerHandle } from './handler.types.ts';

export class GrantIndex {
  private readonly byNode = new Map<string, Map<string, string>>();
  /** `node\u0000container` → the grant's id, so `state_written` can name the grant a write went through. */
  private readonly grantIds = new Map<string, string>();

  constructor(
    grants: readonly FlatGrant[],
    containers: ReadonlyMap<string, StateContainer>,
    warnings: string[],
  ) {
    for (const g of grants) {
      if (!containers.has(g.container_id)) {
        warnings.push(
          `grant '${g.id}': container '${g.container_id}' is not built; node '${g.node_id}' will not see it`,
        );
        continue;
      }
      const m = this.byNode.get(g.node_id) ?? new Map<string, string>();
      m.set(g.alias, g.container_id);
      this.byNode.set(g.node_id, m);
      const k = `${g.node_id}\u0000${g.container_id}`;
      if (!this.grantIds.has(k)) this.grantIds.set(k, g.id); // duplicate grants: the first one names it
    }
  }

  /** alias → flat container id for a node; a dynamic child (`spawner::dyn<i>`) inherits its spawner's. */
  forNode(nodeId: string): ReadonlyMap<string, string> {
    const own = this.byNode.get(nodeId);
    if (own) return own;
    const sep = nodeId.indexOf('::dyn');
    return sep > 0 ? this.forNode(nodeId.slice(0, sep)) : new Map();
  }

  /** The id of the grant through which `nodeId` (or, for a dynamic child, its spawner) reaches `containerId`. */
  grantIdFor(nodeId: string, containerId: string): string | undefined {
    const id = this.grantIds.get(`${nodeId}\u0000${containerId}`);
    if (id !== undefined || this.byNode.has(nodeId)) return id;
    const sep = nodeId.indexOf('::dyn');
    return sep > 0 ? this.grantIdFor(nodeId.slice(0, sep), containerId) : undefined;
  }

  /** Container ids (flat) granted to any of the nodes. */
  nodesOf(containerId: string): string[] {
    return [...this.byNode].filter(([, m]) => [...m.values()].includes(containerId)).map(([n]) => n);
  }
}

export interface WriteReport {
  container: string;
  slot: string;
  key?: string;
  reducer: string;
  before: unknown;
  after: unknown;
}

/** Well-known property names that runtimes and test tools probe on any object; never treat as a lookup. */
const PROBES = new Set([
  'then',
  'toJSON',
  'constructor',
  'asymmetricMatch',
  '$$typeof',
  'nodeType',
  'tagName',
  '@@__IMMUTABLE_ITERABLE__@@',
  '_isMockFunction',
]);

export interface ContainerView {
  containers: Readonly<Record<string, ContainerHandle>>;
  graph_state: ContainerHandle | null;
  container(id: string): ContainerHandle;
}

export function makeContainerView(
  nodeId: string,
  granted: ReadonlyMap<string, string>,
  containers: ReadonlyMap<string, StateContainer>,
  onWrite: (w: WriteReport) => void,
): ContainerView {
  const handles: Record<string, ContainerHandle> = {};
  for (const [alias, cid] of granted) {
    const c = containers.get(cid);
    if (!c) continue;
    handles[alias] = {
      id: alias,
      read: (slot, key) => c.read(slot, key),
      write(slot, value, key) {
        const spec = c.slot(slot, 'write');
        const { before, after } = c.write(slot, value, key);
        onWrite({
          container: cid,
          slot,
          ...(key !== undefined ? { key } : {}),
          reducer: spec.reducer,
          before,
          after,
        });
        return after;
      },
      evict: (key) => c.evict(key).map((r) => r.slot),
      slots: () => c.slots.map((s) => s.name),
    };
  }
  const fail = (id: string): never => {
    throw new GrantError(
      `node '${nodeId}' has no grant to container '${id}' (granted: ${Object.keys(handles).join(', ') || 'none'}); draw an access grant from the node to the container`,
    );
  };
  const containersProxy = new Proxy(Object.freeze({ ...handles }), {
    get(target, prop, receiver) {
      if (
        typeof prop === 'string' &&
        !Object.hasOwn(target, prop) &&
        !PROBES.has(prop) &&
        !(prop in Object.prototype)
      )
        fail(prop);
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
  return {
    containers: containersProxy,
    graph_state: handles.graph_state ?? null,
    container: (id) => handles[id] ?? fail(id),
  };
}
