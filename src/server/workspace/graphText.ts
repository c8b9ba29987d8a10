// What both graph stores (graphFiles.ts: the folder; pgGraphStore.ts: PostgreSQL) do with a saved
// text the same way, so their answers cannot drift apart: its etag, reading it as a listed or fetched
// graph (an unreadable text is listed with `_error` and explained by GET, never thrown), its summary,
// the refusal to replace an unreadable text, and the rule that graph tests are not graphs.
import { createHash } from 'node:crypto';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { parseGraphText } from '../../domain/graph/graph.parse.ts';
import { GRAPH_TEST_SUFFIX } from '../../domain/graphtest/graphTest.schema.ts';
import type { FetchedGraph, GraphFileMeta, GraphSummary } from '../ports/graphStore.ts';
import { badRequest, conflict } from '../errors/errors.ts';
import { describeErrors } from './graphCodec.ts';

const MAX_UNREADABLE_TEXT = 1_000_000;

/** A saved text's etag: a content hash, so any instance and either store computes the same one. */
export const etagOf = (text: string) => createHash('sha1').update(text).digest('hex').slice(0, 16);

// `*.test.json` beside the graphs are graph tests (`statewire test`), not graphs: never listed or opened.
export const isTestBase = (base: string) => base.endsWith(GRAPH_TEST_SUFFIX.slice(0, -'.json'.length));
export const testFileError = (name: string, path?: string) =>
  badRequest(
    'graph-test-file',
    `${JSON.stringify(`${name}.json`)} is a graph test file (run it with \`statewire test\`), not a graph`,
    path,
  );

/** `graph "a/b"` for messages: the id, never an absolute path. */
export const graphLabel = (id: string) => `graph ${JSON.stringify(id)}`;

/**
 * A saved text as the API lists it (`withText`: as GET answers it, with the parse errors and the text
 * of an unreadable one). `readable` learns the etags of texts that read as graphs.
 */
export function graphFromText(
  text: string,
  meta: GraphFileMeta,
  withText: boolean,
  readable: BoundedSet,
): FetchedGraph {
  // The domain's text parser: invalid JSON is reported with line and column, and a slot declared
  // twice in one container (lost by a plain JSON.parse) is caught.
  const r = parseGraphText(text, meta._id);
  if (r.ok) {
    readable.add(meta._etag);
    return { ...r.graph, ...meta };
  }
  const unreadable = { ...emptyGraph(meta._id), ...meta, _error: describeErrors(r.errors) };
  if (!withText) return unreadable;
  return {
    ...unreadable,
    _unreadable: {
      issues: r.errors,
      text: text.slice(0, MAX_UNREADABLE_TEXT),
      text_truncated: text.length > MAX_UNREADABLE_TEXT,
    },
  };
}

/**
 * Refuses (409 `unreadable-file`) to replace a text that does not read as a graph, unless the request
 * said `replace_unreadable`. The answer carries the parse errors and the text's etag, so the editor can
 * show what is wrong and replace exactly the version it showed. `readable` (etags known to read as
 * graphs) spares the parse: a save usually follows the editor's GET of the same version, so the check
 * hashes the text instead of parsing it again (a 1,000-node graph: ~2 ms instead of ~160 ms).
 */
export function assertReplaceable(
  id: string,
  text: string,
  replaceUnreadable: boolean,
  readable: BoundedSet,
  where = 'on disk',
): void {
  const etag = etagOf(text);
  if (replaceUnreadable || readable.has(etag)) return;
  const r = parseGraphText(text, id);
  if (r.ok) return readable.add(etag);
  throw conflict(
    `${graphLabel(id)} ${where} does not read as a graph (${describeErrors(r.errors.slice(0, 1))}); it was not overwritten. Fix the file, or send replace_unreadable: true to replace it`,
    'unreadable-file',
    { etag, issues: r.errors.slice(0, 20) },
  );
}

/** 409 `stale`: the save was based on another version than the current one (details: the current etag). */
export function staleError(id: string, current: string, expected: string, where = 'on disk') {
  return conflict(
    `${graphLabel(id)} changed ${where} since it was loaded (etag ${current}, expected ${expected})`,
    'stale',
    { etag: current },
  );
}

/**
 * A text's summary (`?view=summary`): only JSON-parsed; the full validation runs just to explain a
 * text that is not JSON at all.
 */
export function summarizeText(
  text: string,
  base: Pick<GraphSummary, '_id' | 'folder' | '_mtime'>,
): GraphSummary {
  const out = { ...base, name: '', kind: 'graph' as const, description: '' };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    const r = parseGraphText(text, base._id);
    return { ...out, _error: r.ok ? 'not a graph' : describeErrors(r.errors) };
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    return { ...out, _error: 'the file is JSON but not a graph object' };
  // The defaults of the graph schema (GraphSchema): no name is '', no kind is a graph.
  const rec = doc as Record<string, unknown>;
  return {
    ...out,
    name: typeof rec.name === 'string' ? rec.name : '',
    kind: rec.kind === 'node' ? 'node' : 'graph',
    description: typeof rec.description === 'string' ? rec.description : '',
  };
}

/** A set that forgets everything once it holds `max` entries (a cache of facts, never a source of truth). */
export class BoundedSet {
  private readonly items = new Set<string>();
  constructor(private readonly max: number) {}
  has(v: string): boolean {
    return this.items.has(v);
  }
  add(v: string): void {
    if (this.items.size >= this.max) this.items.clear();
    this.items.add(v);
  }
}
