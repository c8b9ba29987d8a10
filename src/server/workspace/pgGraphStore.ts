// The workspace's graphs in PostgreSQL (distributed mode): every server instance lists, opens and
// saves the same graphs, and every saved version is kept (schema: db/pg/migrations/005_graph_store.sql).
// Same ids, shapes, etags and errors as the folder store (graphFiles.ts, GraphStore in
// ports/graphStore.ts); folders are the graphs' path prefixes plus the empty ones in `graph_folders`.
//
// Concurrency: every write is one transaction that first takes one transaction-scoped advisory lock,
// so writes from all instances are applied one after the other, and a save's UPDATE is conditional
// on the etag it was checked against. Two instances saving with the same etag: the first commits a
// new version, the second then reads the new etag and answers 409 `stale` with it.
//
// Change notices: each write sends NOTIFY on channel `statewire_graphs` inside its transaction (so it
// is delivered on commit, to every instance); `watch` LISTENs on a connection of its own and
// reconnects with backoff when it is cut, then sends one notice for what it may have missed.
import { hostname } from 'node:os';
import pg from 'pg';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { parseGraphText } from '../../domain/graph/graph.parse.ts';
import { ApiError, badRequest, conflict, notFound } from '../errors/errors.ts';
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
import { describeErrors, encodeGraph, versionHashOf } from './graphCodec.ts';
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
import { checkRelative, slugify } from './safePath.ts';

export const GRAPHS_CHANNEL = 'statewire_graphs';
/** pg_advisory_xact_lock key of graph writes (any fixed bigint; this one spells "SWgrph"). */
const WRITE_LOCK = '91637007172200';
const WHERE = 'in the database';

export interface PgGraphStoreOptions {
  /** Where the graphs are, for the Graphs panel's header (the database URL, password redacted). */
  location: string;
  /** The database URL `watch` LISTENs on (a connection of its own, not one of the pool's). */
  listenUrl?: string;
  /** Recorded with every version this store saves (default `serve@<host>:<pid>`). */
  savedBy?: string;
  /** Notice debounce (ms, default 150): a burst of writes is one notice. */
  debounceMs?: number;
}

/** The pool or one transaction's client. */
type Queryable = Pick<pg.Pool, 'query'>;

interface LiveRow {
  gid: string | number;
  path: string;
  version: number;
  etag: string;
  mtime: number;
}

/** What `put` did (`statewire import-graphs`). */
export type PutOutcome = { status: 'created' | 'updated' | 'unchanged'; version: number };

const LIVE = `SELECT gid, path, version, etag, (extract(epoch FROM updated_at) * 1000)::float8 AS mtime
  FROM graphs WHERE deleted_at IS NULL`;

const folderOf = (path: string) => {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
};

/** A client id (`a/b`, `.json` optional) checked as the folder store checks its paths. */
function graphPath(id: string): string {
  const segs = checkRelative(id.replace(/\.json$/, ''));
  if (segs.length === 0) throw badRequest('invalid-id', 'graph id is empty');
  if (isTestBase(segs[segs.length - 1]!)) throw testFileError(segs.join('/'));
  return segs.join('/');
}

const notFoundGraph = (id: string) => notFound(`graph ${JSON.stringify(id)} not found`);

export class PgGraphStore implements GraphStore {
  readonly location: string;
  private readonly savedBy: string;
  private readonly readable = new BoundedSet(4096);
  private readonly summaryCache = new Map<string, { version: number; summary: GraphSummary }>();

  constructor(
    readonly pool: pg.Pool,
    private readonly opts: PgGraphStoreOptions,
  ) {
    this.location = opts.location;
    this.savedBy = opts.savedBy ?? `serve@${hostname()}:${process.pid}`;
  }

  private meta(row: LiveRow): GraphFileMeta {
    return {
      _id: row.path,
      folder: folderOf(row.path),
      _path: `${row.path}.json`,
      _etag: row.etag,
      _mtime: row.mtime,
    };
  }

  private ref(row: LiveRow): SavedRef {
    return { id: row.path, path: `${row.path}.json`, etag: row.etag, mtime: row.mtime };
  }

  /** One write transaction: the write lock first, NOTIFY with it, ROLLBACK on any failure. */
  private async write<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      await c.query('SELECT pg_advisory_xact_lock($1::bigint)', [WRITE_LOCK]);
      const out = await fn(c);
      await c.query('SELECT pg_notify($1, $2)', [GRAPHS_CHANNEL, '']);
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.release();
    }
  }

  private async live(c: Queryable, path: string): Promise<LiveRow | undefined> {
    return (await c.query<LiveRow>(`${LIVE} AND path = $1`, [path])).rows[0];
  }

  private async content(c: Queryable, row: Pick<LiveRow, 'gid' | 'version'>): Promise<string> {
    const r = await c.query<{ content: string }>(
      'SELECT content FROM graph_versions WHERE gid = $1 AND version = $2',
      [row.gid, row.version],
    );
    return r.rows[0]!.content;
  }

  /** Every live graph with its latest text, in path order. */
  private async liveWithContent(): Promise<(LiveRow & { content: string })[]> {
    const r = await this.pool.query<LiveRow & { content: string }>(
      `SELECT g.gid, g.path, g.version, g.etag, (extract(epoch FROM g.updated_at) * 1000)::float8 AS mtime, v.content
         FROM graphs g JOIN graph_versions v ON v.gid = g.gid AND v.version = g.version
        WHERE g.deleted_at IS NULL`,
    );
    return r.rows.sort((a, b) => a.path.localeCompare(b.path));
  }

  async list(): Promise<ListedGraph[]> {
    return (await this.liveWithContent()).map((row) => graphFromText(row.content, this.meta(row), false, this.readable));
  }

  /** The list without the graphs; a graph's text is read again only when its version changed. */
  async summaries(): Promise<GraphSummary[]> {
    const rows = (await this.pool.query<LiveRow>(LIVE)).rows.sort((a, b) => a.path.localeCompare(b.path));
    const key = (row: LiveRow) => String(row.gid);
    const stale = rows.filter((row) => this.summaryCache.get(key(row))?.version !== row.version);
    if (stale.length > 0) {
      const r = await this.pool.query<{ gid: string | number; version: number; content: string }>(
        `SELECT gid, version, content FROM graph_versions
          WHERE (gid, version) IN (SELECT * FROM unnest($1::bigint[], $2::int[]))`,
        [stale.map((row) => String(row.gid)), stale.map((row) => row.version)],
      );
      const texts = new Map(r.rows.map((v) => [`${String(v.gid)}:${v.version}`, v.content]));
      for (const row of stale) {
        const text = texts.get(`${key(row)}:${row.version}`) ?? '';
        const summary = summarizeText(text, { _id: row.path, folder: folderOf(row.path), _mtime: row.mtime });
        this.summaryCache.set(key(row), { version: row.version, summary });
      }
    }
    const seen = new Set(rows.map(key));
    for (const k of this.summaryCache.keys()) if (!seen.has(k)) this.summaryCache.delete(k);
    // A move keeps the gid and version: the path and mtime come from the row, not the cache.
    return rows.map((row) => ({
      ...this.summaryCache.get(key(row))!.summary,
      _id: row.path,
      folder: folderOf(row.path),
      _mtime: row.mtime,
    }));
  }

  async get(id: string): Promise<FetchedGraph> {
    const path = graphPath(id);
    const row = await this.live(this.pool, path);
    if (!row) throw notFoundGraph(id);
    return graphFromText(await this.content(this.pool, row), this.meta(row), true, this.readable);
  }

  /**
   * Saves `text` at `path` inside a write transaction: a new graph (version 1), a new version, or
   * nothing when the text is the latest version's (identical re-save: no new version).
   */
  private async save(
    c: Queryable,
    path: string,
    text: string,
    rules: { mustExist?: boolean; overwrite: boolean; expectedEtag?: string; replaceUnreadable: boolean },
  ): Promise<{ row: LiveRow; status: PutOutcome['status'] }> {
    const etag = etagOf(text);
    const row = await this.live(c, path);
    if (!row) {
      if (rules.mustExist) throw notFoundGraph(path);
      const inserted = await c.query<LiveRow>(
        `INSERT INTO graphs (path, version, etag) VALUES ($1, 1, $2)
         RETURNING gid, path, version, etag, (extract(epoch FROM updated_at) * 1000)::float8 AS mtime`,
        [path, etag],
      );
      await this.addVersion(c, inserted.rows[0]!, text);
      return { row: inserted.rows[0]!, status: 'created' };
    }
    if (!rules.overwrite)
      throw new ApiError(409, 'exists', `a graph file ${JSON.stringify(`${path}.json`)} already exists (send overwrite: true to replace it)`);
    if (rules.expectedEtag !== undefined && row.etag !== rules.expectedEtag)
      throw staleError(path, row.etag, rules.expectedEtag, WHERE);
    if (row.etag === etag) return { row, status: 'unchanged' };
    if (!rules.replaceUnreadable && !this.readable.has(row.etag))
      assertReplaceable(path, await this.content(c, row), false, this.readable, WHERE);
    // Conditional on the version just checked: with the write lock held it always matches, and
    // without it a concurrent save could still not slip in between.
    const updated = await c.query<LiveRow>(
      `UPDATE graphs SET version = version + 1, etag = $3, updated_at = now()
        WHERE gid = $1 AND etag = $2 AND deleted_at IS NULL
        RETURNING gid, path, version, etag, (extract(epoch FROM updated_at) * 1000)::float8 AS mtime`,
      [row.gid, row.etag, etag],
    );
    const next = updated.rows[0];
    if (!next) throw staleError(path, (await this.live(c, path))?.etag ?? '(deleted)', row.etag, WHERE);
    await this.addVersion(c, next, text);
    return { row: next, status: 'updated' };
  }

  private async addVersion(c: Queryable, row: LiveRow, text: string): Promise<void> {
    await c.query(
      `INSERT INTO graph_versions (gid, version, path, sha256, etag, content, saved_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [row.gid, row.version, row.path, versionHashOf(text), row.etag, text, this.savedBy],
    );
    this.readable.add(row.etag);
  }

  async create(graph: GraphDef, folder: string, overwrite: boolean, replaceUnreadable = false): Promise<SavedRef> {
    if (graph.name.trim() === '') throw badRequest('invalid-body', 'name must not be blank', '$.name');
    const slug = slugify(graph.name);
    if (slug === '')
      throw badRequest('invalid-body', `name ${JSON.stringify(graph.name)} has no usable characters for a file name`, '$.name');
    if (isTestBase(slug)) throw testFileError(slug, '$.name');
    const path = [...checkRelative(folder), slug].join('/');
    const text = encodeGraph(graph);
    return this.ref((await this.write((c) => this.save(c, path, text, { overwrite, replaceUnreadable }))).row);
  }

  async update(id: string, graph: GraphDef, expectedEtag?: string, replaceUnreadable = false): Promise<SavedRef> {
    const path = graphPath(id);
    const text = encodeGraph(graph);
    const saved = await this.write((c) =>
      this.save(c, path, text, { mustExist: true, overwrite: true, expectedEtag, replaceUnreadable }),
    );
    return this.ref(saved.row);
  }

  /**
   * Creates or updates the graph at `id` with `graph` whatever its current version (`statewire
   * import-graphs`): unchanged text adds no version.
   */
  async put(id: string, graph: GraphDef): Promise<PutOutcome> {
    const path = graphPath(id);
    const text = encodeGraph(graph);
    const saved = await this.write((c) => this.save(c, path, text, { overwrite: true, replaceUnreadable: true }));
    return { status: saved.status, version: saved.row.version };
  }

  /** The latest text of every graph, in path order (`statewire export-graphs`). */
  async latestTexts(): Promise<{ id: string; text: string; version: number }[]> {
    return (await this.liveWithContent()).map((r) => ({ id: r.path, text: r.content, version: r.version }));
  }

  /** Keeps a folder that a delete or move empties listed, as the folder store keeps the empty folder. */
  private async keepFolder(c: Queryable, folder: string): Promise<void> {
    if (folder !== '') await c.query('INSERT INTO graph_folders (path) VALUES ($1) ON CONFLICT DO NOTHING', [folder]);
  }

  async delete(id: string): Promise<{ deleted: string }> {
    const path = graphPath(id);
    await this.write(async (c) => {
      const r = await c.query('UPDATE graphs SET deleted_at = now() WHERE path = $1 AND deleted_at IS NULL', [path]);
      if (r.rowCount === 0) throw notFoundGraph(id);
      await this.keepFolder(c, folderOf(path));
    });
    return { deleted: id };
  }

  async move(id: string, destFolder: string, newName?: string): Promise<SavedRef> {
    const path = graphPath(id);
    const base = newName === undefined ? path.split('/').pop()! : slugify(newName);
    if (base === '') throw badRequest('invalid-body', 'new_name has no usable characters', '$.new_name');
    if (isTestBase(base)) throw testFileError(base, '$.new_name');
    const dest = [...checkRelative(destFolder), base].join('/');
    const row = await this.write(async (c) => {
      const src = await this.live(c, path);
      if (!src) throw notFoundGraph(id);
      if (await this.live(c, dest)) throw conflict(`target ${JSON.stringify(`${dest}.json`)} already exists`, 'exists');
      await this.keepFolder(c, folderOf(path));
      if (newName === undefined) {
        // The graph moves as it is (the folder store renames the file): same version, same etag.
        const r = await c.query<LiveRow>(
          `UPDATE graphs SET path = $2 WHERE gid = $1
           RETURNING gid, path, version, etag, (extract(epoch FROM updated_at) * 1000)::float8 AS mtime`,
          [src.gid, dest],
        );
        return r.rows[0]!;
      }
      const parsed = parseGraphText(await this.content(c, src), path);
      if (!parsed.ok)
        throw badRequest('invalid-graph-file', `cannot rename an unreadable graph: ${describeErrors(parsed.errors)}`);
      const text = encodeGraph({ ...parsed.graph, name: newName });
      const r = await c.query<LiveRow>(
        `UPDATE graphs SET path = $2, version = version + 1, etag = $3, updated_at = now() WHERE gid = $1
         RETURNING gid, path, version, etag, (extract(epoch FROM updated_at) * 1000)::float8 AS mtime`,
        [src.gid, dest, etagOf(text)],
      );
      await this.addVersion(c, r.rows[0]!, text);
      return r.rows[0]!;
    });
    return this.ref(row);
  }

  /** Every folder: the live graphs' path prefixes and the kept empty folders with theirs, sorted. */
  async folders(c: Queryable = this.pool): Promise<string[]> {
    const r = await c.query<{ path: string; graph: boolean }>(
      `SELECT path, true AS graph FROM graphs WHERE deleted_at IS NULL
       UNION ALL SELECT path, false AS graph FROM graph_folders`,
    );
    const out = new Set<string>();
    for (const { path, graph } of r.rows) {
      const segs = path.split('/');
      for (let i = 1; i <= segs.length - (graph ? 1 : 0); i++) out.add(segs.slice(0, i).join('/'));
    }
    return [...out].sort();
  }

  async createFolder(path: string): Promise<{ path: string }> {
    const segs = checkRelative(path);
    if (segs.length === 0) throw badRequest('invalid-path', 'folder path is empty', '$.path');
    const folder = segs.join('/');
    await this.write(async (c) => {
      if ((await this.folders(c)).includes(folder)) throw conflict(`folder ${JSON.stringify(path)} already exists`, 'exists');
      await c.query('INSERT INTO graph_folders (path) VALUES ($1)', [folder]);
    });
    return { path: folder };
  }

  async renameFolder(path: string, newPath: string): Promise<{ path: string }> {
    const from = checkRelative(path).join('/');
    const to = checkRelative(newPath).join('/');
    if (from === '' || to === '') throw badRequest('invalid-path', 'folder paths must not be empty');
    await this.write(async (c) => {
      const existing = await this.folders(c);
      if (!existing.includes(from)) throw notFound(`folder ${JSON.stringify(path)} not found`);
      if (existing.includes(to)) throw conflict(`folder ${JSON.stringify(newPath)} already exists`, 'exists');
      if (to.startsWith(`${from}/`)) throw badRequest('invalid-path', 'cannot move a folder into itself');
      // A graph at the new folder's path (`a/b.json` beside folder `a/b/`) does not clash: as on disk.
      await this.keepFolder(c, folderOf(from));
      const moved = `$2 || substr(path, length($1) + 1)`;
      const under = `(path = $1 OR starts_with(path, $1 || '/'))`;
      await c.query(`UPDATE graphs SET path = ${moved} WHERE deleted_at IS NULL AND starts_with(path, $1 || '/')`, [from, to]);
      await c.query(`UPDATE graph_folders SET path = ${moved} WHERE ${under}`, [from, to]);
    });
    return { path: to };
  }

  async deleteFolder(path: string, recursive: boolean): Promise<{ deleted: string }> {
    const folder = checkRelative(path).join('/');
    if (folder === '') throw badRequest('invalid-path', 'refusing to delete the graphs root');
    await this.write(async (c) => {
      const existing = await this.folders(c);
      if (!existing.includes(folder)) throw notFound(`folder ${JSON.stringify(path)} not found`);
      const inside = existing.some((f) => f.startsWith(`${folder}/`));
      const graphs = await c.query(
        `SELECT 1 FROM graphs WHERE deleted_at IS NULL AND starts_with(path, $1 || '/') LIMIT 1`,
        [folder],
      );
      if (!recursive && (inside || graphs.rowCount !== 0))
        throw conflict(`folder ${JSON.stringify(path)} is not empty (pass recursive=true)`, 'not-empty');
      // Deleted graphs keep their versions (deleted_at), as every saved version is kept.
      await c.query(`UPDATE graphs SET deleted_at = now() WHERE deleted_at IS NULL AND starts_with(path, $1 || '/')`, [folder]);
      await c.query(`DELETE FROM graph_folders WHERE path = $1 OR starts_with(path, $1 || '/')`, [folder]);
      await this.keepFolder(c, folderOf(folder));
    });
    return { deleted: path };
  }

  async versions(id: string): Promise<GraphVersionInfo[]> {
    const path = graphPath(id);
    const row = await this.live(this.pool, path);
    if (!row) throw notFoundGraph(id);
    const r = await this.pool.query<VersionRow>(`SELECT ${VERSION_FIELDS} FROM graph_versions WHERE gid = $1 ORDER BY version`, [
      row.gid,
    ]);
    return r.rows.map(versionInfo);
  }

  async version(id: string, version: number): Promise<GraphVersionInfo & { graph: GraphDef }> {
    const path = graphPath(id);
    const row = await this.live(this.pool, path);
    if (!row) throw notFoundGraph(id);
    const r = await this.pool.query<VersionRow & { content: string }>(
      `SELECT ${VERSION_FIELDS}, content FROM graph_versions WHERE gid = $1 AND version = $2`,
      [row.gid, version],
    );
    const v = r.rows[0];
    if (!v) throw notFound(`graph ${JSON.stringify(id)} has no version ${version} (it has 1 to ${row.version})`, 'no-version');
    const parsed = parseGraphText(v.content, path);
    if (!parsed.ok) throw badRequest('invalid-graph-file', `version ${version} does not read as a graph: ${describeErrors(parsed.errors)}`);
    return { ...versionInfo(v), graph: parsed.graph };
  }

  watch(notify: () => void): GraphsWatch & { ready: Promise<void> } {
    return listenForChanges(this.opts.listenUrl, notify, this.opts.debounceMs ?? 150);
  }
}

type VersionRow = Omit<GraphVersionInfo, 'saved_at'> & { saved_at: Date };
const VERSION_FIELDS = 'version, sha256, etag, path, saved_at, saved_by';
const versionInfo = (v: VersionRow): GraphVersionInfo => ({
  version: v.version,
  sha256: v.sha256,
  etag: v.etag,
  path: v.path,
  saved_at: v.saved_at.toISOString(),
  saved_by: v.saved_by,
});

/**
 * LISTEN on `url` for the graph writes of every instance; a cut connection is opened again (backoff
 * 250 ms doubling to 5 s), followed by one notice since writes may have been missed meanwhile.
 * `ready` settles once the first LISTEN succeeded or failed (a server starts either way).
 */
function listenForChanges(url: string | undefined, notify: () => void, debounceMs: number) {
  let timer: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let client: pg.Client | undefined;
  let closed = false;
  const poke = () => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(notify, debounceMs);
  };
  /** `afterLoss`: a connection was up before (notices may have been missed); `backoffMs`: the next wait. */
  const connect = async (afterLoss: boolean, backoffMs: number): Promise<void> => {
    if (closed || url === undefined) return;
    // A timeout so a database that accepts nothing (paused) cannot hold a server's start; keepAlive
    // so a connection cut without a FIN is noticed and opened again.
    const c = new pg.Client({
      connectionString: url,
      application_name: 'statewire-graphs-listen',
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    let up = false;
    let lost = false;
    const reconnect = () => {
      if (lost || closed) return;
      lost = true;
      client = undefined;
      c.end().catch(() => undefined);
      const wait = up ? 250 : backoffMs;
      retry = setTimeout(() => void connect(afterLoss || up, up ? 500 : Math.min(backoffMs * 2, 5000)), wait);
      retry.unref();
    };
    c.on('notification', poke);
    c.on('error', reconnect);
    c.on('end', reconnect);
    try {
      await c.connect();
      await c.query(`LISTEN ${GRAPHS_CHANNEL}`);
      if (closed) return void c.end().catch(() => undefined);
      up = true;
      client = c;
      if (afterLoss) poke();
    } catch {
      reconnect();
    }
  };
  const ready = connect(false, 250);
  return {
    ready,
    poke,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (retry) clearTimeout(retry);
      client?.end().catch(() => undefined);
    },
  };
}
