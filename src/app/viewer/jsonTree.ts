// The value viewer's model: a JSON value flattened into the rows of its visible tree (only expanded
// nodes are visited, so a 100,000-item list costs its visible rows plus one pass), JSON paths
// (`$.a.b[3]`, the same as the Compare view's), and search (matching keys or leaf text; the parents
// of every match are expanded). Pure, so it is tested without a DOM.
import { childPath } from '../../domain/debug/jsonPath.ts';
import { ndInfoOf } from '../ui/ndarray.ts';

export interface TreeRow {
  path: string;
  depth: number;
  /** Property name or index; null for the root. */
  label: string | number | null;
  kind: 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null' | 'ndarray' | 'other';
  /** Children count for objects/arrays. */
  size: number;
  expandable: boolean;
  expanded: boolean;
  value: unknown;
}

export const ROOT = '$';
/** Searching stops after this many matches (every one of them may expand a branch). */
export const MAX_MATCHES = 10_000;

function kindOf(v: unknown): TreeRow['kind'] {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (ndInfoOf(v)) return 'ndarray';
  switch (typeof v) {
    case 'object':
      return 'object';
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'other';
  }
}

function entriesOf(v: unknown): Array<[string | number, unknown]> {
  if (Array.isArray(v)) return v.map((x, i) => [i, x]);
  return Object.entries(v as Record<string, unknown>);
}

/** The rows of the visible tree: the root, then every child of an expanded node, depth first. */
export function flattenTree(value: unknown, expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const visit = (v: unknown, path: string, depth: number, label: string | number | null) => {
    const kind = kindOf(v);
    const container = kind === 'object' || kind === 'array';
    const size = container
      ? kind === 'array'
        ? (v as unknown[]).length
        : Object.keys(v as object).length
      : 0;
    const open = container && size > 0 && expanded.has(path);
    rows.push({
      path,
      depth,
      label,
      kind,
      size,
      expandable: container && size > 0,
      expanded: open,
      value: v,
    });
    if (open) for (const [k, child] of entriesOf(v)) visit(child, childPath(path, k), depth + 1, k);
  };
  visit(value, ROOT, 0, null);
  return rows;
}

/** Every object/array path (for "expand all"); stops at `limit` paths. */
export function allContainerPaths(value: unknown, limit = 50_000): Set<string> {
  const out = new Set<string>();
  const visit = (v: unknown, path: string) => {
    if (out.size >= limit) return;
    const k = kindOf(v);
    if (k !== 'object' && k !== 'array') return;
    out.add(path);
    for (const [key, child] of entriesOf(v)) visit(child, childPath(path, key));
  };
  visit(value, ROOT);
  return out;
}

/** One-line text of a leaf (strings quoted), as shown and as searched. */
export function leafText(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === undefined) return 'undefined';
  return String(v);
}

export interface SearchResult {
  /** Paths of matching nodes, in tree order. */
  matches: string[];
  /** Every ancestor of a match (to expand). */
  ancestors: Set<string>;
  truncated: boolean;
}

/** Case-insensitive match on property names and leaf values (nd summaries match their caption). */
export function searchTree(value: unknown, query: string, limit = MAX_MATCHES): SearchResult {
  const q = query.trim().toLowerCase();
  const matches: string[] = [];
  const ancestors = new Set<string>();
  if (!q) return { matches, ancestors, truncated: false };
  let truncated = false;
  const stack: string[] = [];
  const visit = (v: unknown, path: string, label: string | number | null) => {
    if (truncated) return;
    const kind = kindOf(v);
    const hitLabel = typeof label === 'string' && label.toLowerCase().includes(q);
    const hitLeaf =
      kind !== 'object' && kind !== 'array' && kind !== 'ndarray' && leafText(v).toLowerCase().includes(q);
    if (hitLabel || hitLeaf) {
      if (matches.length >= limit) {
        truncated = true;
        return;
      }
      matches.push(path);
      for (const a of stack) ancestors.add(a);
    }
    if (kind === 'object' || kind === 'array') {
      stack.push(path);
      for (const [k, child] of entriesOf(v)) visit(child, childPath(path, k), k);
      stack.pop();
    }
  };
  visit(value, ROOT, null);
  return { matches, ancestors, truncated };
}

/** Short text of a collapsed container: `[3 items]`, `{2 keys}`. */
export function containerSummary(row: Pick<TreeRow, 'kind' | 'size'>): string {
  if (row.kind === 'array') return `[${row.size} item${row.size === 1 ? '' : 's'}]`;
  return `{${row.size} key${row.size === 1 ? '' : 's'}}`;
}

/** The value at a JSON path made by childPath (undefined when absent). */
export function valueAt(value: unknown, path: string): unknown {
  const re = /\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  let cur: unknown = value;
  if (!path.startsWith(ROOT)) return undefined;
  re.lastIndex = 1;
  let m: RegExpExecArray | null;
  let at = 1;
  while ((m = re.exec(path)) !== null) {
    if (m.index !== at) return undefined;
    at = re.lastIndex;
    const key = m[1] ?? (m[2] !== undefined ? Number(m[2]) : (JSON.parse(m[3]!) as string));
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return at === path.length ? cur : undefined;
}
