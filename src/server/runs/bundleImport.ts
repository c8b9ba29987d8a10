// Reads a run bundle (bundleFormat.ts) and stores it as a new, read-only run — all or nothing, and
// without holding the server's one thread: every pass works in time slices (timeSlices.ts), so a
// 1,000,000-event bundle imports while `/api/health`, live runs and viewers keep being answered.
// Pass 1 checks everything that can be checked without the database: gzip integrity (CRC and
// length trailer; inflated on the thread pool), magic and version, every record's schema, blob
// hashes, seq contiguity from 1 to the run's `last_seq`, checkpoint order, the end record's counts,
// the graph. Pass 2 decodes every event and checkpoint from the bundle's blob table and checks it:
// against the protocol's zod schemas, every blob it references present, no blob containing itself,
// and its size once expanded (shared parts repeated) within the value limit (valueLimits.ts: a 3 KB
// bundle can otherwise hold a value of 2^30 leaves). The run's parent chain must not loop back to
// it. Nothing is written until all of that passed. Pass 3 writes in slices, each its own
// transaction: the run row first, in status `importing` (hidden from every reader, runStore.ts),
// then the events and checkpoints, and last — in one transaction — its real status, counters and
// the imported-run mark. A write that fails (a full disk) deletes the half-written run; a server
// stopped meanwhile deletes it at its next start.
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip as gunzipCallback } from 'node:zlib';
import type { z } from 'zod';
import {
  EVENT_DATA_SCHEMAS,
  EventEnvelopeSchema,
  type EventEnvelope,
  type EventType,
  type RunStatus,
} from '../../domain/protocol/protocol.ts';
import {
  BundleCheckpointPageSchema,
  BundleEndSchema,
  BundleEventPageSchema,
  BundleHeaderSchema,
  type BundleHeader,
  type BundleImportResult,
} from '../../domain/protocol/runBundle.schema.ts';
import { jsonPath } from '../../domain/validate/issues.ts';
import { BlobStore } from '../db/blobStore.ts';
import { closeDatabase, openDatabase, type Db } from '../db/database.ts';
import { IMPORTING, type RunStore } from '../db/runStore.ts';
import { describeBytes, oversizedPath, VALUE_LIMIT_HOW, ValueCycleError } from '../db/valueLimits.ts';
import { decodeGraph, describeErrors } from '../workspace/graphCodec.ts';
import { BundleError, readBlob, readContainer, readJson, RECORD, type RawRecord } from './bundleFormat.ts';
import { TimeSlices } from './timeSlices.ts';

const gunzipAsync = promisify(gunzipCallback);

/**
 * Which runs came from a bundle (read-only). Kept in its own table, created on first use, so the
 * run schema and its migrations stay untouched; `CREATE … IF NOT EXISTS` makes it idempotent.
 */
export class ImportedRuns {
  private readonly insert;
  private readonly select;

  constructor(db: Db) {
    db.exec(`CREATE TABLE IF NOT EXISTS run_imports (
      run_id TEXT PRIMARY KEY,
      original_run_id TEXT NOT NULL,
      exported_at TEXT NOT NULL,
      imported_at TEXT NOT NULL
    ) WITHOUT ROWID`);
    this.insert = db.prepare(
      'INSERT INTO run_imports (run_id, original_run_id, exported_at, imported_at) VALUES (?, ?, ?, ?)',
    );
    this.select = db.prepare<[string], { run_id: string }>('SELECT run_id FROM run_imports WHERE run_id = ?');
  }

  has(runId: string): boolean {
    return this.select.get(runId) !== undefined;
  }

  add(runId: string, originalRunId: string, exportedAt: string, importedAt: string): void {
    this.insert.run(runId, originalRunId, exportedAt, importedAt);
  }
}

export interface ImportOptions {
  /** Bytes the decompressed container may have (a gzip bomb stops here): 413 beyond. */
  maxUncompressed: number;
  /** Bytes of JSON one event's data or one checkpoint may expand to: 413 `value-too-large` beyond. */
  maxValueBytes: number;
  now?: () => Date;
  /** How long a slice of work runs before the event loop gets a turn (default 20 ms). */
  sliceMs?: number;
}

/** Events written per transaction in pass 3 (and between two looks at the clock). */
const WRITE_PAGE = 500;

/** 400 naming the first bad field (`$.header.run.status`, `$.events[3].data.step`…). */
function parseOrRefuse<S extends z.ZodType>(
  schema: S,
  value: unknown,
  base: string,
  what: string,
): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const path = jsonPath(issue?.path ?? [], base);
  throw new BundleError('invalid-bundle', `${what}: ${path}: ${issue?.message ?? 'invalid'}`, path);
}

/** Inflates on libuv's thread pool, not on the event loop. */
async function gunzip(body: Buffer, maxOutputLength: number): Promise<Buffer> {
  if (body.length < 2 || body[0] !== 0x1f || body[1] !== 0x8b)
    throw new BundleError('not-gzip', 'not a Statewire run bundle: the file is not gzip-compressed');
  try {
    return await gunzipAsync(body, { maxOutputLength });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ERR_BUFFER_TOO_LARGE')
      throw new BundleError(
        'bundle-too-large',
        `the bundle decompresses to more than ${maxOutputLength} bytes`,
        undefined,
        413,
      );
    throw new BundleError(
      'bad-gzip',
      `the bundle's compressed data is damaged or truncated (${err.message}); export the run again`,
    );
  }
}

interface Checked {
  header: BundleHeader;
  eventPages: RawRecord[];
  checkpoints: z.infer<typeof BundleCheckpointPageSchema>;
  events: number;
  blobs: number;
}

/** Pass 1: structure, schemas, hashes, contiguity. Blobs go into `mem` (the bundle's own ids). */
async function check(container: Buffer, mem: Db, slices: TimeSlices): Promise<Checked> {
  const insertBlob = mem.prepare('INSERT INTO blobs (id, hash, json) VALUES (?, ?, ?)');
  let header: BundleHeader | undefined;
  let end: z.infer<typeof BundleEndSchema> | undefined;
  const eventPages: RawRecord[] = [];
  const checkpoints: Checked['checkpoints'] = [];
  let nextSeq = 1;
  let blobs = 0;
  const seen = new Set<number>();
  for (const r of readContainer(container)) {
    await slices.due();
    if (end)
      throw new BundleError(
        'trailing-data',
        `record ${r.index} follows the end record`,
        `$.records[${r.index}]`,
      );
    if (!header && r.kind !== RECORD.header)
      throw new BundleError('bad-record', 'the bundle does not start with its header record', '$.records[0]');
    switch (r.kind) {
      case RECORD.header:
        if (header)
          throw new BundleError(
            'bad-record',
            `record ${r.index} is a second header`,
            `$.records[${r.index}]`,
          );
        header = parseOrRefuse(BundleHeaderSchema, readJson(r), '$.header', 'bad bundle header');
        break;
      case RECORD.jsonBlob:
      case RECORD.bytesBlob: {
        const { id, content } = readBlob(r);
        if (id === 0 || seen.has(id))
          throw new BundleError(
            'bad-record',
            `blob id ${id} is ${id === 0 ? 'invalid' : 'repeated'}`,
            `$.blobs[${id}]`,
          );
        seen.add(id);
        // The hash was checked above; the private table is keyed by id (its hash column just unique).
        insertBlob.run(id, Buffer.from(`${id}`), content);
        blobs++;
        break;
      }
      case RECORD.events: {
        const page = parseOrRefuse(BundleEventPageSchema, readJson(r), '$.events', 'bad event page');
        for (const [seq] of page) {
          if (seq !== nextSeq)
            throw new BundleError(
              'seq-gap',
              seq > nextSeq
                ? `the event log has a hole: seq ${seq} follows ${nextSeq - 1} (${nextSeq}…${seq - 1} missing)`
                : `the event log is out of order: seq ${seq} after ${nextSeq - 1}`,
              `$.events[${nextSeq - 1}]`,
            );
          nextSeq++;
        }
        eventPages.push(r);
        break;
      }
      case RECORD.checkpoints:
        checkpoints.push(
          ...parseOrRefuse(BundleCheckpointPageSchema, readJson(r), '$.checkpoints', 'bad checkpoint page'),
        );
        break;
      case RECORD.end:
        end = parseOrRefuse(BundleEndSchema, readJson(r), '$.end', 'bad end record');
        break;
      default:
        throw new BundleError(
          'bad-record',
          `record ${r.index} has an unknown kind ${r.kind}`,
          `$.records[${r.index}]`,
        );
    }
  }
  if (!header) throw new BundleError('truncated', 'the bundle holds no header');
  if (!end) throw new BundleError('truncated', 'the bundle ends before its end record (it was cut off)');
  const events = nextSeq - 1;
  if (events !== header.run.last_seq)
    throw new BundleError(
      'seq-gap',
      `the event log ends at seq ${events} but the run's last seq is ${header.run.last_seq}`,
      `$.events[${events}]`,
    );
  const counts = { events, checkpoints: checkpoints.length, blobs };
  for (const k of ['events', 'checkpoints', 'blobs'] as const)
    if (counts[k] !== end[k])
      throw new BundleError(
        'truncated',
        `the bundle holds ${counts[k]} ${k} but its end record says ${end[k]}`,
        `$.end.${k}`,
      );
  checkpoints.forEach(([seq], i) => {
    const prev = checkpoints[i - 1]?.[0] ?? -1;
    if (seq <= prev || seq > events)
      throw new BundleError(
        'invalid-bundle',
        `checkpoint ${i} has seq ${seq} (must increase and be at most ${events})`,
        `$.checkpoints[${i}][0]`,
      );
  });
  const g = decodeGraph(header.graph);
  if (!g.ok)
    throw new BundleError(
      'invalid-graph',
      `the bundle's graph: ${describeErrors(g.errors)}`,
      '$.header.graph',
    );
  return { header, eventPages, checkpoints, events, blobs };
}

/**
 * Decodes a value against the bundle's blob table, refusing one that references a blob the bundle
 * lacks (400), contains itself (400) or expands past `maxValueBytes` (413, naming where the bulk is).
 */
function decodeFrom(blobs: BlobStore, encoded: unknown, path: string, maxValueBytes: number): unknown {
  let sized;
  try {
    sized = blobs.getSized(JSON.stringify(encoded));
  } catch (e) {
    if (e instanceof ValueCycleError)
      throw new BundleError(
        'blob-cycle',
        `${path} references blob ${e.blob}, which contains itself (a cycle): the bundle was made by hand or damaged`,
        `$.blobs[${e.blob}]`,
      );
    const missing = /blob (\d+) is missing/.exec((e as Error).message);
    throw new BundleError(
      missing ? 'missing-blob' : 'bad-blob',
      missing
        ? `${path} references blob ${missing[1]}, which the bundle does not hold`
        : `${path} cannot be decoded: ${(e as Error).message}`,
      path,
    );
  }
  if (sized.bytes > maxValueBytes) {
    const where = oversizedPath(sized.value, maxValueBytes, path);
    throw new BundleError(
      'value-too-large',
      `${where} expands to more than ${describeBytes(maxValueBytes)} of JSON (${path} as a whole: ` +
        `${describeBytes(sized.bytes)}, its shared parts repeated); values are limited to ` +
        `${describeBytes(maxValueBytes)} (${VALUE_LIMIT_HOW})`,
      where,
      413,
    );
  }
  return sized.value;
}

const ACTIVE = new Set(['running', 'paused', 'idle']);

/** An event of the bundle, checked: envelope and data schemas, timestamp, blobs, size. */
function checkedEvent(
  [seq, type, ts, encoded]: z.infer<typeof BundleEventPageSchema>[number],
  index: number,
  runId: string,
  blobs: BlobStore,
  maxValueBytes: number,
): EventEnvelope {
  const path = `$.events[${index}]`;
  const data = decodeFrom(blobs, encoded, `${path}.data`, maxValueBytes);
  const env = parseOrRefuse(EventEnvelopeSchema, { type, runId, seq, ts, data }, path, 'bad event');
  if (Number.isNaN(Date.parse(ts)))
    throw new BundleError('invalid-bundle', `bad event: ${path}.ts is not a timestamp`, `${path}.ts`);
  parseOrRefuse(EVENT_DATA_SCHEMAS[type as EventType], data, `${path}.data`, `bad ${type} event`);
  // The original data, not zod's output: the log is kept exactly (no defaults filled in).
  return { ...env, data };
}

/**
 * A parent chain that would lead back to the imported run (its own parent, or A → B → A with A
 * already here) would send every walk up the chain round forever: refused.
 */
function refuseParentCycle(store: RunStore, runId: string, parent: string | null): void {
  const chain = [runId];
  const seen = new Set<string>();
  for (let at = parent; at !== null; at = store.getRun(at)?.parent_run_id ?? null) {
    chain.push(at);
    if (at === runId)
      throw new BundleError(
        'parent-cycle',
        `the run's parent chain loops back to it (${chain.join(' → ')}); a run cannot descend from itself`,
        '$.header.run.parent_run_id',
      );
    if (seen.has(at)) return; // a loop among runs already here: not this run's to refuse
    seen.add(at);
  }
}

/**
 * Imports a bundle into `store`. The run keeps its id when free, else gets `import_<time>_<hex>`.
 * Throws BundleError (400/413) for a bad bundle; the database is then exactly as before.
 */
export async function importBundle(
  store: RunStore,
  imported: ImportedRuns,
  body: Buffer,
  opts: ImportOptions,
): Promise<BundleImportResult> {
  const now = opts.now ?? (() => new Date());
  const slices = new TimeSlices(opts.sliceMs);
  const container = await gunzip(body, opts.maxUncompressed);
  const mem = openDatabase(':memory:');
  try {
    const { header, eventPages, checkpoints, events, blobs: blobCount } = await check(container, mem, slices);
    const blobs = new BlobStore(mem);
    const src = header.run;
    const keptId = !store.hasRunId(src.id);
    const runId = keptId ? src.id : `import_${Date.now()}_${randomBytes(4).toString('hex').slice(0, 7)}`;
    refuseParentCycle(store, runId, src.parent_run_id);

    // Pass 2: every event and checkpoint decoded and checked; nothing is written yet.
    let index = 0;
    for (const r of eventPages) {
      await slices.due();
      for (const e of BundleEventPageSchema.parse(readJson(r)))
        checkedEvent(e, index++, runId, blobs, opts.maxValueBytes);
    }
    for (const [i, [, , root]] of checkpoints.entries()) {
      await slices.due();
      decodeFrom(blobs, root, `$.checkpoints[${i}]`, opts.maxValueBytes);
    }

    // Pass 3: written in slices under the hidden status; the last transaction makes it a run.
    // (No await between the id check above and this insert: the id cannot be taken meanwhile.)
    if (store.hasRunId(runId)) throw new Error(`run id ${runId} was taken during the import`);
    store.createRun({
      id: runId,
      graphName: src.graph_name,
      graph: header.graph,
      status: IMPORTING as RunStatus,
      startedAt: src.started_at,
      parentRunId: src.parent_run_id,
      parentStep: src.parent_step,
      lineage: src.lineage,
      freshEffects: src.fresh_effects,
      stepDelayMs: src.step_delay_ms,
    });
    try {
      index = 0;
      let batch: EventEnvelope[] = [];
      const flush = () => {
        if (batch.length > 0) store.commit(runId, { events: batch });
        batch = [];
      };
      for (const r of eventPages) {
        for (const e of BundleEventPageSchema.parse(readJson(r))) {
          batch.push(checkedEvent(e, index++, runId, blobs, opts.maxValueBytes));
          if (batch.length >= WRITE_PAGE) {
            flush();
            await slices.due();
          }
        }
      }
      flush();
      for (const [i, [seq, step, root]] of checkpoints.entries()) {
        await slices.due();
        const state = decodeFrom(blobs, root, `$.checkpoints[${i}]`, opts.maxValueBytes);
        store.putCheckpoint(runId, seq, { step, state });
      }
      store.transaction(() => {
        store.commit(runId, {
          events: [],
          steps: src.steps,
          // A run that was live when exported cannot continue here: it is as good as interrupted.
          status: ACTIVE.has(src.status) ? 'interrupted' : src.status,
          endedAt: src.ended_at ?? (ACTIVE.has(src.status) ? header.exported_at : null),
          error: src.error,
        });
        imported.add(runId, src.id, header.exported_at, now().toISOString());
      });
    } catch (err) {
      try {
        store.deleteRun(runId);
      } catch {
        // Still `importing`: removed at the next start (removeUnfinishedImports).
      }
      throw err;
    }
    return {
      ok: true,
      run_id: runId,
      original_run_id: src.id,
      kept_id: keptId,
      steps: src.steps,
      events,
      checkpoints: checkpoints.length,
      blobs: blobCount,
      read_only: true,
    };
  } finally {
    closeDatabase(mem);
  }
}
