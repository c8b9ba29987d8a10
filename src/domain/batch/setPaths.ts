// `--set path=value` overrides of a batch (`step_budget=50`, `nodes.env.config.max_episode_steps=10`,
// `containers.memory.states.trail.config.max_size=20`). A path is dot-separated; in a list of objects
// with ids (`nodes`, `containers`, `edges`, `access_grants`) a segment names an element by id, in
// other lists by index. The value is JSON when it parses as JSON, else the text itself. The edited
// graph is parsed again, so a value of the wrong type is refused here with its path, not at run time.
import type { GraphDef } from '../graph/graph.schema.ts';
import { parseGraph } from '../graph/graph.parse.ts';

export interface SetAssignment {
  /** As given (`nodes.env.config.seed=3`), for messages. */
  text: string;
  path: string[];
  value: unknown;
}

export type SetsResult = { ok: true; graph: GraphDef } | { ok: false; index: number; message: string };

/** `path=value` → the assignment, or why it is not one. */
export function parseSet(text: string): SetAssignment | string {
  const eq = text.indexOf('=');
  if (eq <= 0) return `${JSON.stringify(text)} is not path=value`;
  const pathText = text.slice(0, eq).trim();
  const path = pathText.split('.');
  if (path.some((s) => s === '')) return `${pathText}: empty segment in the path`;
  const raw = text.slice(eq + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // not JSON: the text itself (`--set name=My run`)
  }
  return { text, path, value };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Index of the element `seg` names in `list`: by id when the list's elements have ids, else by index. */
function elementIndex(list: unknown[], seg: string): number {
  const byId = list.findIndex((e) => isRecord(e) && e.id === seg);
  if (byId >= 0 || list.some((e) => isRecord(e) && typeof e.id === 'string')) return byId;
  return /^\d+$/.test(seg) && Number(seg) < list.length ? Number(seg) : -1;
}

function describeList(list: unknown[]): string {
  const ids = list.flatMap((e) => (isRecord(e) && typeof e.id === 'string' ? [e.id] : []));
  return ids.length > 0 ? `ids: ${ids.join(', ')}` : `${list.length} item${list.length === 1 ? '' : 's'}`;
}

/**
 * `value` at `path` below `at`, copying only the containers on the path. A missing key is an error
 * except as the last segment inside a `config` object (node and slot configs are open key sets).
 */
function assign(at: unknown, path: string[], depth: number, value: unknown): unknown {
  const seg = path[depth]!;
  const here = path.slice(0, depth + 1).join('.');
  const last = depth === path.length - 1;
  if (Array.isArray(at)) {
    const i = elementIndex(at, seg);
    if (i < 0) throw new Error(`${here}: no element ${JSON.stringify(seg)} (${describeList(at)})`);
    const hasId = isRecord(at[i]) && typeof (at[i] as Record<string, unknown>).id === 'string';
    if (last && hasId)
      throw new Error(`${here}: replacing a whole element with an id is not supported; set its fields`);
    const copy = [...at];
    copy[i] = last ? value : assign(at[i], path, depth + 1, value);
    return copy;
  }
  if (!isRecord(at)) throw new Error(`${here}: ${path[depth - 1] ?? 'the graph'} is not an object`);
  const openKeys = path[depth - 1] === 'config';
  if (!(seg in at) && !(last && openKeys)) {
    const keys = Object.keys(at).join(', ');
    throw new Error(`${here}: no key ${JSON.stringify(seg)}${keys ? ` (keys: ${keys})` : ''}`);
  }
  return { ...at, [seg]: last ? value : assign(at[seg], path, depth + 1, value) };
}

/**
 * Applies the overrides in order to a parsed graph and parses the result. A bad override says which
 * (`index` into `sets`) and why, naming its path (`nodes.envx: no element "envx" (ids: …)`).
 * The graph is parsed once when every override applies; only a failing list is replayed one
 * override (and one parse) at a time to name the first bad one (their number is capped:
 * MAX_SET_ENTRIES).
 */
export function applySets(graph: GraphDef, sets: readonly string[]): SetsResult {
  return applyAtOnce(graph, sets) ?? applyOneByOne(graph, sets);
}

/** Every override, then one parse; undefined when anything fails. */
function applyAtOnce(graph: GraphDef, sets: readonly string[]): SetsResult | undefined {
  let current: unknown = graph;
  for (const text of sets) {
    const a = parseSet(text);
    if (typeof a === 'string') return undefined;
    try {
      current = assign(current, a.path, 0, a.value);
    } catch {
      return undefined;
    }
  }
  if (current === graph) return { ok: true, graph };
  const parsed = parseGraph(current);
  return parsed.ok ? { ok: true, graph: parsed.graph } : undefined;
}

function applyOneByOne(graph: GraphDef, sets: readonly string[]): SetsResult {
  let current: unknown = graph;
  for (const [index, text] of sets.entries()) {
    const a = parseSet(text);
    if (typeof a === 'string') return { ok: false, index, message: a };
    try {
      current = assign(current, a.path, 0, a.value);
    } catch (e) {
      return { ok: false, index, message: (e as Error).message };
    }
    const parsed = parseGraph(current);
    if (!parsed.ok) {
      const first = parsed.errors[0];
      const message = `${a.path.join('.')}=${JSON.stringify(a.value)} makes the graph invalid: ${first?.path ?? '$'}: ${first?.message ?? 'invalid'}`;
      return { ok: false, index, message };
    }
    current = parsed.graph;
  }
  return { ok: true, graph: current as GraphDef };
}
