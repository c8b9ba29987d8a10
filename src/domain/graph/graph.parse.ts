// Tolerant parse of graph files (docs/reference-system.md §1.13, 2.1, §7): reads anything the reference backend
// loads, fills in its defaults, migrates legacy shapes, and reports every tolerated trait as a
// warning with a JSON path. Schema violations are errors with a path. Never throws on any input
// (except parseGraphOrThrow, which throws only GraphParseError).
import type { GraphDef } from './graph.schema.ts';
import { ParseCtx, typeName } from './graph.parse.fields.ts';
import { parseGraphObject } from './graph.parse.graph.ts';
import { findDuplicateKeys, locateJsonError, locateJsonPaths } from './graph.parse.json.ts';
import { duplicateKeyIssues } from './graph.parse.duplicates.ts';
import { synthesizeIterInPorts } from '../flow/loopPorts.ts';
import { loopView } from '../flow/loopView.ts';
import type { Issue } from '../validate/issues.ts';

/**
 * `warnings` are the load issues of a file that loaded: warnings and infos, plus `duplicate-state`
 * (severity error: a slot declared twice in one container, the first definition lost), which still
 * loads so the editor can show and fix it. Check them with `hasErrors` at a run boundary.
 */
export type ParseResult = { ok: true; graph: GraphDef; warnings: Issue[] } | { ok: false; errors: Issue[] };

/** Thrown by the *OrThrow APIs; carries every issue found (errors first). */
export class GraphParseError extends Error {
  override readonly name = 'GraphParseError';
  constructor(
    readonly errors: Issue[],
    readonly file?: string,
  ) {
    const first = errors[0];
    const where = first ? `${first.path}: ${first.message}` : 'invalid graph';
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    super(`${file ? `${file}: ` : ''}${where}${more}`);
  }
}

/**
 * Recomputes every iterIn's `config.ports` (never trusted from a file, docs/reference-system.md §1.9), recursing
 * into subgraphs; an info issue notes when the stored ports differed from the synthesized ones.
 */
function synthesizePorts(ctx: ParseCtx, graph: GraphDef, path: string): GraphDef {
  const view = loopView(graph);
  return {
    ...graph,
    nodes: graph.nodes.map((n, i) => {
      const p = `${path}.nodes[${i}]`; // index in the canonical file (legacy nodes removed)
      let next = n;
      if (n.type === 'iterIn') {
        const ports = synthesizeIterInPorts(view(n.id), n);
        if (n.config.ports !== undefined && JSON.stringify(n.config.ports) !== JSON.stringify(ports)) {
          ctx.info(
            'iterin-ports-recomputed',
            `${p}.config.ports`,
            `stored iterIn ports of '${n.id}' differ from the synthesized ones and were recomputed`,
            { nodeId: n.id },
          );
        }
        next = { ...n, config: { ...n.config, ports } };
      }
      if (n.subgraph) next = { ...next, subgraph: synthesizePorts(ctx, n.subgraph, `${p}.subgraph`) };
      return next;
    }),
  };
}

function finish(ctx: ParseCtx, graph: GraphDef | undefined): ParseResult {
  const errors = ctx.issues.filter((i) => i.severity === 'error');
  if (errors.length > 0) return { ok: false, errors };
  if (!graph) return failure('invalid-graph', 'the graph could not be read');
  const done = synthesizePorts(ctx, graph, '$');
  return { ok: true, graph: done, warnings: ctx.issues.filter((i) => i.severity !== 'error') };
}

/** A failed parse with one root-level error (bad JSON, wrong input type, a parser bug). */
function failure(code: string, message: string, at: Pick<Issue, 'line' | 'column'> = {}): ParseResult {
  return { ok: false, errors: [{ code, severity: 'error', path: '$', message, ...at }] };
}

function internalError(e: unknown): ParseResult {
  const message = e instanceof Error ? e.message : String(e);
  return failure('internal-error', `parser failed unexpectedly: ${message}`);
}

/** Parses an already-decoded JSON value (a file's content, a REST body, the editor's document). */
export function parseGraph(input: unknown): ParseResult {
  try {
    const ctx = new ParseCtx();
    return finish(ctx, parseGraphObject(ctx, input, '$', 0));
  } catch (e) {
    return internalError(e);
  }
}

/** Parses JSON text; invalid JSON is one `invalid-json` error with line and column. */
export function parseGraphText(text: string, file?: string): ParseResult {
  try {
    if (typeof text !== 'string') return failure('invalid-json', `expected JSON text, got ${typeName(text)}`);
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // editors on Windows add a BOM
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      const loc = locateJsonError(body) ?? { line: 1, column: 1, reason: 'not valid JSON' };
      const where = `${file ? `${file}:` : 'line '}${loc.line}:${loc.column}`;
      return failure('invalid-json', `invalid JSON at ${where}: ${loc.reason}`, {
        line: loc.line,
        column: loc.column,
      });
    }
    const result = parseGraph(value);
    if (!result.ok) return { ok: false, errors: withLocations(body, result.errors) };
    // JSON.parse keeps the last of two equal keys; say so rather than lose the first silently.
    const dups = duplicateKeyIssues(value, findDuplicateKeys(body), file);
    return dups.length > 0 ? { ...result, warnings: [...dups, ...result.warnings] } : result;
  } catch (e) {
    return internalError(e);
  }
}

/** Schema errors of a file that is valid JSON get the line and column of the value they name. */
function withLocations(text: string, errors: Issue[]): Issue[] {
  const placed = errors.slice(0, MAX_LOCATED);
  const at = locateJsonPaths(
    text,
    placed.map((e) => e.path),
  );
  return errors.map((e, k) => {
    const loc = k < MAX_LOCATED ? at.get(e.path) : undefined;
    return loc && e.line === undefined ? { ...e, ...loc } : e;
  });
}

/** The errors a reader looks at; a file with thousands of errors is not walked once per error. */
const MAX_LOCATED = 50;

export function parseGraphOrThrow(input: unknown): GraphDef {
  const r = parseGraph(input);
  if (!r.ok) throw new GraphParseError(r.errors);
  return r.graph;
}

export function parseGraphTextOrThrow(text: string, file?: string): GraphDef {
  const r = parseGraphText(text, file);
  if (!r.ok) throw new GraphParseError(r.errors, file);
  return r.graph;
}
