// Turns keys repeated in one JSON object into issues. JSON.parse keeps the last value, so the earlier
// one is lost without a trace. For most keys that is a warning (`duplicate-key`); for a slot name
// repeated inside one container's `states` it is an error (`duplicate-state`): a whole slot
// definition vanished, and the issue text asks for states to be unique within a container.
// The file still loads (severity error in the load issues) so the editor can open and fix it.
import type { DuplicateKey } from './graph.parse.json.ts';
import type { Issue } from '../validate/issues.ts';

type Seg = string | number;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function walk(root: unknown, segs: readonly Seg[]): unknown {
  let v = root;
  for (const s of segs) {
    if (typeof s === 'number') v = Array.isArray(v) ? v[s] : undefined;
    else v = isObject(v) ? v[s] : undefined;
  }
  return v;
}

/** Does `segs[0..end)` address a graph: the root, or `nodes[k].subgraph` of a graph? */
function isGraph(segs: readonly Seg[], end: number): boolean {
  if (end === 0) return true;
  return (
    end >= 3 &&
    segs[end - 1] === 'subgraph' &&
    typeof segs[end - 2] === 'number' &&
    segs[end - 3] === 'nodes' &&
    isGraph(segs, end - 3)
  );
}

/**
 * The container a repeated key is a slot of, or undefined when it is some other key. Covers
 * `containers[i].states`, the legacy top-level `graph_state` (container-like or a bare slot map) and
 * a legacy `stateContainer` node's `config.states`, at any subgraph depth.
 */
export function slotOwner(
  root: unknown,
  segs: readonly Seg[],
): { containerId: string; slot: string } | undefined {
  const n = segs.length;
  const slot = segs[n - 1];
  if (typeof slot !== 'string') return undefined;
  const idAt = (end: number): string | undefined => {
    const id = walk(root, segs.slice(0, end));
    return isObject(id) && typeof id.id === 'string' ? id.id : undefined;
  };
  if (segs[n - 2] === 'states') {
    if (segs[n - 4] === 'containers' && typeof segs[n - 3] === 'number' && isGraph(segs, n - 4)) {
      const id = idAt(n - 2);
      return id === undefined ? undefined : { containerId: id, slot };
    }
    if (segs[n - 3] === 'graph_state' && isGraph(segs, n - 3)) return { containerId: 'graph_state', slot };
    if (
      segs[n - 3] === 'config' &&
      typeof segs[n - 4] === 'number' &&
      segs[n - 5] === 'nodes' &&
      isGraph(segs, n - 5)
    ) {
      const owner = walk(root, segs.slice(0, n - 3));
      const id = idAt(n - 3);
      return isObject(owner) && owner.type === 'stateContainer' && id !== undefined
        ? { containerId: id, slot }
        : undefined;
    }
    return undefined;
  }
  // A bare slot map under graph_state (no `states` object of its own).
  if (segs[n - 2] === 'graph_state' && isGraph(segs, n - 2)) {
    const gs = walk(root, segs.slice(0, n - 1));
    return isObject(gs) && !isObject(gs.states) ? { containerId: 'graph_state', slot } : undefined;
  }
  return undefined;
}

export function duplicateKeyIssues(root: unknown, dups: readonly DuplicateKey[], file?: string): Issue[] {
  return dups.map((d) => {
    const where = `${file ? `${file}:` : 'line '}${d.line}:${d.column}`;
    const owner = slotOwner(root, d.segments);
    if (owner) {
      return {
        code: 'duplicate-state',
        severity: 'error',
        path: d.path,
        message: `slot '${owner.slot}' is declared twice in container '${owner.containerId}' (again at ${where}); JSON keeps the last definition and the earlier one is lost: rename or remove one`,
        containerId: owner.containerId,
        slot: owner.slot,
        line: d.line,
        column: d.column,
      };
    }
    return {
      code: 'duplicate-key',
      severity: 'warning',
      path: d.path,
      message: `key repeated in the same object at ${where}; JSON keeps the last value, the earlier one is lost`,
      line: d.line,
      column: d.column,
    };
  });
}
