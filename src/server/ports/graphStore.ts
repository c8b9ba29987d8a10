// GraphStore: where the workspace's graphs live, as the graph routes (workspace/graphs.routes.ts)
// need it. Two implementations: the graphs folder (workspace/graphFiles.ts, the embedded default)
// and PostgreSQL (workspace/pgGraphStore.ts, distributed mode: every server instance shares one set
// of graphs and every saved version is kept). app.ts picks one (distributed/distributedMode.ts makes
// the PostgreSQL one). Both answer with the same shapes, ids (`folder/name`, the path under graphs/
// without `.json`), etags (a hash of the saved text) and errors (404, 409 `stale` with the current
// etag, 409 `exists`, 400 `unsafe-path`…), so the editor cannot tell them apart.
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { Issue } from '../../domain/validate/issues.ts';

export interface GraphFileMeta {
  _id: string;
  /** The folder store: the file's absolute path; PostgreSQL: `<id>.json`. */
  _path: string;
  folder: string;
  _etag: string;
  _mtime: number;
}
export type ListedGraph = GraphDef & GraphFileMeta & { _error?: string };

/**
 * What `GET /api/graphs/{id}` adds for a file that does not read as a graph (besides `_error` and an
 * empty graph, the listing's shape): every parse error with its line and column, and the file's text
 * (the first MAX_UNREADABLE_TEXT characters) so the editor can show it read-only.
 */
export interface UnreadableFile {
  issues: Issue[];
  text: string;
  text_truncated: boolean;
}
export type FetchedGraph = ListedGraph & { _unreadable?: UnreadableFile };

/** A listed graph without its body (`GET /api/graphs?view=summary`). */
export interface GraphSummary {
  _id: string;
  folder: string;
  name: string;
  kind: 'graph' | 'node';
  description: string;
  _mtime: number;
  /** Why the file does not read as a graph (it is listed all the same, as the full list does). */
  _error?: string;
}

export interface SavedRef {
  id: string;
  path: string;
  etag: string;
  mtime: number;
}

/** One kept version of a graph (PostgreSQL store; `GET /api/graph-versions/{id}`). */
export interface GraphVersionInfo {
  version: number;
  /** SHA-256 of the canonical save form: the graph version runs and batches record (runs/graphVersion.ts). */
  sha256: string;
  etag: string;
  /** The path the graph had when this version was saved. */
  path: string;
  saved_at: string;
  saved_by: string | null;
}

/** Change notices: `poke` schedules one (after this server's own write), `close` stops watching. */
export interface GraphsWatch {
  poke(): void;
  close(): void;
  /** Settles once the watch is in place (the PostgreSQL store's first LISTEN), if that takes a while. */
  ready?: Promise<void>;
}

type Awaitable<T> = T | Promise<T>;

export interface GraphStore {
  /** Where the graphs are, as `statewire serve` prints it and the Graphs panel shows it. */
  readonly location: string;
  list(): Awaitable<ListedGraph[]>;
  summaries(): Awaitable<GraphSummary[]>;
  get(id: string): Awaitable<FetchedGraph>;
  create(
    graph: GraphDef,
    folder: string,
    overwrite: boolean,
    replaceUnreadable?: boolean,
  ): Awaitable<SavedRef>;
  /** 409 `stale` (details: the current etag) when `expectedEtag` is given and is not the current one. */
  update(
    id: string,
    graph: GraphDef,
    expectedEtag?: string,
    replaceUnreadable?: boolean,
  ): Awaitable<SavedRef>;
  delete(id: string): Awaitable<{ deleted: string }>;
  move(id: string, destFolder: string, newName?: string): Awaitable<SavedRef>;
  folders(): Awaitable<string[]>;
  createFolder(path: string): Awaitable<{ path: string }>;
  renameFolder(path: string, newPath: string): Awaitable<{ path: string }>;
  deleteFolder(path: string, recursive: boolean): Awaitable<{ deleted: string }>;
  /** Every kept version of a graph, oldest first (404 when the store keeps no versions). */
  versions(id: string): Awaitable<GraphVersionInfo[]>;
  /** One kept version with its graph. */
  version(id: string, version: number): Awaitable<GraphVersionInfo & { graph: GraphDef }>;
  /** Calls `notify` (debounced) whenever the graphs change, by this server or any other writer. */
  watch(notify: () => void): GraphsWatch;
}
