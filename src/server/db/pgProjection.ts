// `RunLog.projectEvents` for PostgreSQL: events of one type of many runs, each reduced to a few
// paths inside its data, reading only the blobs on those paths. The database is a round trip away,
// so the walk goes breadth-first over every event at once (MerkleCodec.walk): one query per level of
// the DAG for all the blobs the walks need next, then one decode session for the values reached.
// A batch query over 1,000 episodes is a handful of queries per chunk of runs, not one per blob.
import type pg from 'pg';
import { valueAtKeys, type DataPath, type ProjectedEvent } from '../../domain/batch/query.ts';
import type { BlobRef, MerkleCodec, Walk } from './merkle.ts';

/** Runs per events query (their events and blob walks are held in memory together). */
const RUNS_PER_CHUNK = 100;

export interface PgProjectionDeps {
  pool: pg.Pool;
  codec: MerkleCodec;
  /** run id → rid, for the runs that exist. */
  rids(runIds: readonly string[]): Promise<Map<string, number>>;
  /** Fetches every blob the encoded nodes reach, then decodes them one by one. */
  decoder(nodes: unknown[]): Promise<(node: unknown) => unknown>;
}

interface Cursor {
  row: number;
  path: number;
  node: unknown;
  at: number;
  done?: Extract<Walk, { done: true }>;
}

interface Row {
  run: number;
  seq: number;
  enc: number;
  data: string;
}

async function fetchEncoded(
  pool: pg.Pool,
  refs: readonly string[],
  into: Map<string, unknown>,
): Promise<void> {
  const res = await pool.query<{ hash: Buffer; json: string | null }>({
    name: 'sw_project_blobs',
    text: 'SELECT hash, json FROM blobs WHERE hash = ANY($1::bytea[])',
    values: [refs.map((r) => Buffer.from(r, 'base64url'))],
  });
  for (const r of res.rows) if (r.json !== null) into.set(r.hash.toString('base64url'), JSON.parse(r.json));
  for (const ref of refs) if (!into.has(ref)) throw new Error(`blob ${ref} is missing from the database`);
}

/** Walks every cursor to its end, fetching the blobs they need level by level. */
async function walkAll(deps: PgProjectionDeps, cursors: Cursor[], paths: readonly DataPath[]): Promise<void> {
  const encoded = new Map<string, unknown>();
  const raw = (ref: BlobRef) => encoded.get(ref as string);
  let open = cursors;
  while (open.length > 0) {
    const need = new Set<string>();
    const next: Cursor[] = [];
    for (const c of open) {
      const w = deps.codec.walk(c.node, paths[c.path]!, raw, c.at);
      if (w.done) c.done = w;
      else {
        c.node = w.node;
        c.at = w.at;
        need.add(w.need as string);
        next.push(c);
      }
    }
    if (need.size > 0) await fetchEncoded(deps.pool, [...need], encoded);
    open = next;
  }
}

async function projectChunk(
  deps: PgProjectionDeps,
  rids: readonly number[],
  type: string,
  paths: readonly DataPath[],
): Promise<Map<number, ProjectedEvent[]>> {
  const res = await deps.pool.query<Row>({
    name: 'sw_project_events',
    text: 'SELECT run, seq, enc, data FROM events WHERE run = ANY($1::bigint[]) AND type = $2 ORDER BY run, seq',
    values: [rids, type],
  });
  const rows = res.rows;
  const values: unknown[][] = rows.map(() => new Array<unknown>(paths.length));
  const cursors: Cursor[] = [];
  rows.forEach((r, row) => {
    const data = JSON.parse(r.data) as unknown;
    paths.forEach((path, p) => {
      // enc 0: plain JSON, nothing to walk.
      if (r.enc === 1) cursors.push({ row, path: p, node: data, at: 0 });
      else values[row]![p] = valueAtKeys(data, path);
    });
  });
  await walkAll(deps, cursors, paths);
  const decode = await deps.decoder(cursors.map((c) => c.done!.node));
  for (const c of cursors) values[c.row]![c.path] = valueAtKeys(decode(c.done!.node), c.done!.rest);
  const out = new Map<number, ProjectedEvent[]>();
  rows.forEach((r, i) => {
    const list = out.get(r.run) ?? [];
    list.push({ seq: r.seq, values: values[i]! });
    out.set(r.run, list);
  });
  return out;
}

export async function projectPgEvents(
  deps: PgProjectionDeps,
  runIds: readonly string[],
  type: string,
  paths: readonly DataPath[],
): Promise<Map<string, ProjectedEvent[]>> {
  const rids = await deps.rids(runIds);
  const out = new Map<string, ProjectedEvent[]>(runIds.map((id) => [id, []]));
  const known = runIds.filter((id) => rids.has(id));
  for (let i = 0; i < known.length; i += RUNS_PER_CHUNK) {
    const ids = known.slice(i, i + RUNS_PER_CHUNK);
    const byRid = await projectChunk(
      deps,
      ids.map((id) => rids.get(id)!),
      type,
      paths,
    );
    for (const id of ids) out.set(id, byRid.get(rids.get(id)!) ?? []);
  }
  return out;
}
