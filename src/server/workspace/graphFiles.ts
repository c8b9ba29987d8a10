// The graphs folder, the embedded mode's GraphStore (ports/graphStore.ts; distributed mode: pgGraphStore.ts).
// Graph files under `<workspace>/graphs`: list/get/create/update/delete/move and folder ops with the
// reference's shapes (docs/reference-system.md §1.16). Every client path goes through resolveInside; writes are
// atomic; create never overwrites unless asked; each file carries an etag (content hash) and mtime
// so the editor can detect a stale save (PUT with `If-Match` / `expected_etag` → 409). A file that
// does not read as a graph (a typo, a truncated write) is never overwritten by a save unless the
// request says `replace_unreadable: true`: its text is the user's work, and a save from an editor that
// could not read it would replace it with whatever that editor had (an empty graph, before the fix).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { ApiError, badRequest, conflict, notFound } from '../errors/errors.ts';
import { storageApiError } from '../errors/storageErrors.ts';
import type {
  FetchedGraph,
  GraphFileMeta,
  GraphStore,
  GraphSummary,
  GraphsWatch,
  GraphVersionInfo,
  ListedGraph,
  SavedRef,
} from '../ports/graphStore.ts';
import { sweepOrphanTemps, writeFileAtomic } from './atomicWrite.ts';
import { GRAPH_TEST_SUFFIX } from '../../domain/graphtest/graphTest.schema.ts';
import { encodeGraph } from './graphCodec.ts';
import {
  assertReplaceable,
  BoundedSet,
  etagOf,
  graphFromText,
  isTestBase,
  staleError,
  summarizeText,
  testFileError,
} from './graphText.ts';
import { checkRelative, resolveInside, slugify } from './safePath.ts';
import { watchGraphs } from './watchGraphs.ts';


const toPosix = (p: string) => p.split(sep).join('/');

export class GraphFiles implements GraphStore {
  constructor(readonly root: string) {
    mkdirSync(root, { recursive: true });
    // A save killed between open and rename leaves `.<name>.<pid>.<hex>.tmp`; nothing else will.
    const swept = sweepOrphanTemps(root);
    if (swept.length > 0)
      console.error(`statewire: removed ${swept.length} temp file(s) left by an interrupted save`);
  }

  private fileOf(id: string): string {
    const segs = checkRelative(id);
    if (segs.length === 0) throw badRequest('invalid-id', 'graph id is empty');
    if (isTestBase(segs[segs.length - 1]!)) throw testFileError(segs.join('/'));
    return resolveInside(this.root, `${segs.join('/')}.json`);
  }

  /** A file's id (its path under the root without `.json`) and folder. */
  private idOf(abs: string): { _id: string; folder: string } {
    const rel = toPosix(relative(this.root, abs)).replace(/\.json$/, '');
    const slash = rel.lastIndexOf('/');
    return { _id: rel, folder: slash < 0 ? '' : rel.slice(0, slash) };
  }

  private metaOf(abs: string, text: string): GraphFileMeta {
    return { ...this.idOf(abs), _path: abs, _etag: etagOf(text), _mtime: statSync(abs).mtimeMs };
  }

  private readAbs(abs: string, withText = false): FetchedGraph {
    const text = readFileSync(abs, 'utf8');
    return graphFromText(text, this.metaOf(abs, text), withText, this.readable);
  }

  /** Etags of texts known to read as graphs: what this server wrote or read without error (graphText.ts). */
  private readonly readable = new BoundedSet(4096);

  get location(): string {
    return resolve(this.root);
  }

  watch(notify: () => void): GraphsWatch {
    return watchGraphs(this.root, notify);
  }

  versions(): GraphVersionInfo[] {
    throw notFound(
      'graph versions are kept only when graphs live in PostgreSQL (distributed mode, docs/scaling-out.md); the graphs folder keeps the latest file',
      'no-versions',
    );
  }

  version(): GraphVersionInfo & { graph: GraphDef } {
    return this.versions() as never;
  }

  /** The current text of a file about to be replaced, or null when there is none. */
  private currentText(abs: string): string | null {
    this.assertFileOrAbsent(abs);
    try {
      return readFileSync(abs, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /** Every graph file under the root, folders walked in name order (hidden and test files skipped). */
  private graphPaths(): string[] {
    const out: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (e.name.startsWith('.')) continue;
        const abs = join(dir, e.name);
        if (e.isDirectory()) walk(abs);
        else if (e.isFile() && e.name.endsWith('.json') && !e.name.endsWith(GRAPH_TEST_SUFFIX)) out.push(abs);
      }
    };
    walk(this.root);
    return out;
  }

  list(): ListedGraph[] {
    return this.graphPaths().map((abs) => this.readAbs(abs));
  }

  /**
   * The list without the graphs. A file is read again only when its size or mtime changed (the
   * explorer refetches the list after every save), and only JSON-parsed: the full validation runs
   * just to explain a file that is not JSON at all.
   */
  summaries(): GraphSummary[] {
    const seen = new Set<string>();
    const out = this.graphPaths().map((abs) => {
      seen.add(abs);
      const st = statSync(abs);
      const hit = this.summaryCache.get(abs);
      if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.summary;
      const summary = this.summarize(abs, readFileSync(abs, 'utf8'), st.mtimeMs);
      this.summaryCache.set(abs, { mtimeMs: st.mtimeMs, size: st.size, summary });
      return summary;
    });
    for (const abs of this.summaryCache.keys()) if (!seen.has(abs)) this.summaryCache.delete(abs);
    return out;
  }

  private readonly summaryCache = new Map<string, { mtimeMs: number; size: number; summary: GraphSummary }>();

  private summarize(abs: string, text: string, mtimeMs: number): GraphSummary {
    return summarizeText(text, { ...this.idOf(abs), _mtime: mtimeMs });
  }

  get(id: string): FetchedGraph {
    const abs = this.fileOf(id);
    if (!existsSync(abs) || !statSync(abs).isFile()) throw notFound(`graph ${JSON.stringify(id)} not found`);
    return this.readAbs(abs, true);
  }

  /** `graph "a/b"` for messages: the id relative to the graphs folder, never an absolute path. */
  private label(abs: string): string {
    return `graph ${JSON.stringify(toPosix(relative(this.root, abs)).replace(/\.json$/, ''))}`;
  }

  /** 400 when the target exists but is not a regular file (a folder named `x.json`, a FIFO…). */
  private assertFileOrAbsent(abs: string): void {
    let st;
    try {
      st = statSync(abs);
    } catch {
      return;
    }
    if (!st.isFile())
      throw badRequest(
        'not-a-file',
        `${this.label(abs)} cannot be written: ${st.isDirectory() ? 'a folder' : 'something that is not a file'} has that name`,
      );
  }

  private write(abs: string, graph: GraphDef): SavedRef {
    const text = encodeGraph(graph);
    this.assertFileOrAbsent(abs);
    try {
      writeFileAtomic(abs, text);
    } catch (err) {
      // Full disk → 507; the old file is untouched (the temp file was removed).
      throw storageApiError(err, `${this.label(abs)} was not saved`) ?? err;
    }
    const meta = this.metaOf(abs, text);
    this.readable.add(meta._etag);
    return { id: meta._id, path: abs, etag: meta._etag, mtime: meta._mtime };
  }

  create(graph: GraphDef, folder: string, overwrite: boolean, replaceUnreadable = false): SavedRef {
    if (graph.name.trim() === '') throw badRequest('invalid-body', 'name must not be blank', '$.name');
    const slug = slugify(graph.name);
    if (slug === '') throw badRequest('invalid-body', `name ${JSON.stringify(graph.name)} has no usable characters for a file name`, '$.name');
    if (isTestBase(slug)) throw testFileError(slug, '$.name');
    const dir = resolveInside(this.root, folder);
    const abs = resolveInside(this.root, [...checkRelative(folder), `${slug}.json`].join('/'));
    const existing = this.currentText(abs);
    if (existing !== null && !overwrite)
      throw new ApiError(409, 'exists', `a graph file ${JSON.stringify(toPosix(relative(this.root, abs)))} already exists (send overwrite: true to replace it)`);
    if (existing !== null) assertReplaceable(this.idOf(abs)._id, existing, replaceUnreadable, this.readable);
    mkdirSync(dir, { recursive: true });
    return this.write(abs, graph);
  }

  update(id: string, graph: GraphDef, expectedEtag?: string, replaceUnreadable = false): SavedRef {
    const abs = this.fileOf(id);
    const text = this.currentText(abs);
    if (text === null) throw notFound(`graph ${JSON.stringify(id)} not found`);
    if (expectedEtag !== undefined) {
      const current = etagOf(text);
      if (current !== expectedEtag) throw staleError(id, current, expectedEtag);
    }
    assertReplaceable(this.idOf(abs)._id, text, replaceUnreadable, this.readable);
    return this.write(abs, graph);
  }

  delete(id: string): { deleted: string } {
    const abs = this.fileOf(id);
    if (!existsSync(abs)) throw notFound(`graph ${JSON.stringify(id)} not found`);
    this.assertFileOrAbsent(abs);
    unlinkSync(abs);
    return { deleted: id };
  }

  move(id: string, destFolder: string, newName?: string): SavedRef {
    const src = this.fileOf(id);
    if (!existsSync(src)) throw notFound(`graph ${JSON.stringify(id)} not found`);
    this.assertFileOrAbsent(src);
    const base = newName === undefined ? (id.split('/').pop() ?? id) : slugify(newName);
    if (base === '') throw badRequest('invalid-body', 'new_name has no usable characters', '$.new_name');
    if (isTestBase(base)) throw testFileError(base, '$.new_name');
    const dest = resolveInside(this.root, [...checkRelative(destFolder), `${base}.json`].join('/'));
    if (existsSync(dest)) throw conflict(`target ${JSON.stringify(toPosix(relative(this.root, dest)))} already exists`, 'exists');
    mkdirSync(resolveInside(this.root, destFolder), { recursive: true });
    if (newName === undefined) {
      renameSync(src, dest);
      const text = readFileSync(dest, 'utf8');
      const meta = this.metaOf(dest, text);
      return { id: meta._id, path: dest, etag: meta._etag, mtime: meta._mtime };
    }
    const current = this.readAbs(src);
    if (current._error) throw badRequest('invalid-graph-file', `cannot rename an unreadable graph: ${current._error}`);
    const saved = this.write(dest, { ...stripMeta(current), name: newName });
    unlinkSync(src);
    return saved;
  }

  folders(): string[] {
    const out: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.name.startsWith('.') || !e.isDirectory()) continue;
        const abs = join(dir, e.name);
        out.push(toPosix(relative(this.root, abs)));
        walk(abs);
      }
    };
    walk(this.root);
    return out.sort();
  }

  createFolder(path: string): { path: string } {
    if (checkRelative(path).length === 0) throw badRequest('invalid-path', 'folder path is empty', '$.path');
    const abs = resolveInside(this.root, path);
    if (existsSync(abs)) throw conflict(`folder ${JSON.stringify(path)} already exists`, 'exists');
    mkdirSync(abs, { recursive: true });
    return { path: toPosix(relative(this.root, abs)) };
  }

  renameFolder(path: string, newPath: string): { path: string } {
    if (checkRelative(path).length === 0 || checkRelative(newPath).length === 0)
      throw badRequest('invalid-path', 'folder paths must not be empty');
    const src = resolveInside(this.root, path);
    const dest = resolveInside(this.root, newPath);
    if (!existsSync(src) || !statSync(src).isDirectory()) throw notFound(`folder ${JSON.stringify(path)} not found`);
    if (existsSync(dest)) throw conflict(`folder ${JSON.stringify(newPath)} already exists`, 'exists');
    if (dest.startsWith(src + sep)) throw badRequest('invalid-path', 'cannot move a folder into itself');
    mkdirSync(resolveInside(this.root, checkRelative(newPath).slice(0, -1).join('/')), { recursive: true });
    renameSync(src, dest);
    return { path: toPosix(relative(this.root, dest)) };
  }

  deleteFolder(path: string, recursive: boolean): { deleted: string } {
    if (checkRelative(path).length === 0) throw badRequest('invalid-path', 'refusing to delete the graphs root');
    const abs = resolveInside(this.root, path);
    if (!existsSync(abs) || !statSync(abs).isDirectory()) throw notFound(`folder ${JSON.stringify(path)} not found`);
    if (recursive) rmSync(abs, { recursive: true });
    else if (readdirSync(abs).length > 0) throw conflict(`folder ${JSON.stringify(path)} is not empty (pass recursive=true)`, 'not-empty');
    else rmdirSync(abs);
    return { deleted: path };
  }
}

/** The graph without the listing's file metadata. */
function stripMeta(g: ListedGraph): GraphDef {
  const out: Record<string, unknown> = { ...g };
  for (const k of ['_id', '_path', 'folder', '_etag', '_mtime', '_error']) delete out[k];
  return out as unknown as GraphDef;
}
