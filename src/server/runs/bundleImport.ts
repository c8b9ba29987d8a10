// Reads a run bundle (bundleFormat.ts) and stores it as a new, read-only run — all or nothing.
// Pass 1 checks everything that can be checked without the database: gzip integrity (CRC and
// length trailer), magic and version, every record's schema, blob hashes, seq contiguity from 1 to
// the run's `last_seq`, checkpoint order, the end record's counts, the graph. Pass 2 runs in ONE
// transaction: the run row, the events page by page (each decoded from the bundle's blob table and
// checked against the protocol's zod schemas), the checkpoints (each must decode: every blob it
// references present), the imported-run mark. Any failure rolls the whole transaction back.
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { z } from 'zod';
import {
  EVENT_DATA_SCHEMAS,
  EventEnvelopeSchema,
  type EventEnvelope,
  type EventType,
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
import type { RunStore } from '../db/runStore.ts';
import { decodeGraph, describeErrors } from '../workspace/graphCodec.ts';
import { BundleError, readBlob, readContainer, readJson, RECORD, type RawRecord } from './bundleFormat.ts';

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
  now?: () => Date;
}

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

function gunzip(body: Buffer, maxOutputLength: number): Buffer {
  if (body.length < 2 || body[0] !== 0x1f || body[1] !== 0x8b)
    throw new BundleError('not-gzip', 'not a Statewire run bundle: the file is not gzip-compressed');
  try {
    return gunzipSync(body, { maxOutputLength });
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
function check(container: Buffer, mem: Db): Checked {
  const insertBlob = mem.prepare('INSERT INTO blobs (id, hash, json) VALUES (?, ?, ?)');
  let header: BundleHeader | undefined;
  let end: z.infer<typeof BundleEndSchema> | undefined;
  const eventPages: RawRecord[] = [];
  const checkpoints: Checked['checkpoints'] = [];
  let nextSeq = 1;
  let blobs = 0;
  const seen = new Set<number>();
  for (const r of readContainer(container)) {
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

/** Decodes a value against the bundle's blob table; a reference to a blob it lacks → 400. */
function decodeFrom(blobs: BlobStore, encoded: unknown, path: string): unknown {
  try {
    return blobs.get(JSON.stringify(encoded));
  } catch (e) {
    const missing = /blob (\d+) is missing/.exec((e as Error).message);
    throw new BundleError(
      missing ? 'missing-blob' : 'bad-blob',
      missing
        ? `${path} references blob ${missing[1]}, which the bundle does not hold`
        : `${path} cannot be decoded: ${(e as Error).message}`,
      path,
    );
  }
}

const ACTIVE = new Set(['running', 'paused', 'idle']);

/**
 * Imports a bundle into `store`. The run keeps its id when free, else gets `import_<time>_<hex>`.
 * Throws BundleError (400/413) for a bad bundle; the database is then exactly as before.
 */
export function importBundle(
  store: RunStore,
  imported: ImportedRuns,
  body: Buffer,
  opts: ImportOptions,
): BundleImportResult {
  const now = opts.now ?? (() => new Date());
  const container = gunzip(body, opts.maxUncompressed);
  const mem = openDatabase(':memory:');
  try {
    const { header, eventPages, checkpoints, events, blobs: blobCount } = check(container, mem);
    const blobs = new BlobStore(mem);
    const src = header.run;
    const keptId = store.getRun(src.id) === undefined;
    const runId = keptId ? src.id : `import_${Date.now()}_${randomBytes(4).toString('hex').slice(0, 7)}`;
    store.transaction(() => {
      store.createRun({
        id: runId,
        graphName: src.graph_name,
        graph: header.graph,
        // A run that was live when exported cannot continue here: it is as good as interrupted.
        status: ACTIVE.has(src.status) ? 'interrupted' : src.status,
        startedAt: src.started_at,
        parentRunId: src.parent_run_id,
        parentStep: src.parent_step,
        lineage: src.lineage,
        freshEffects: src.fresh_effects,
        stepDelayMs: src.step_delay_ms,
      });
      let index = 0;
      for (const r of eventPages) {
        const page = BundleEventPageSchema.parse(readJson(r));
        const envelopes = page.map(([seq, type, ts, encoded]): EventEnvelope => {
          const path = `$.events[${index++}]`;
          const data = decodeFrom(blobs, encoded, `${path}.data`);
          const env = parseOrRefuse(EventEnvelopeSchema, { type, runId, seq, ts, data }, path, 'bad event');
          if (Number.isNaN(Date.parse(ts)))
            throw new BundleError('invalid-bundle', `bad event: ${path}.ts is not a timestamp`, `${path}.ts`);
          parseOrRefuse(EVENT_DATA_SCHEMAS[type as EventType], data, `${path}.data`, `bad ${type} event`);
          // The original data, not zod's output: the log is kept exactly (no defaults filled in).
          return { ...env, data };
        });
        store.commit(runId, { events: envelopes });
      }
      checkpoints.forEach(([seq, step, root], i) => {
        const state = decodeFrom(blobs, root, `$.checkpoints[${i}]`);
        store.putCheckpoint(runId, seq, { step, state });
      });
      store.commit(runId, {
        events: [],
        steps: src.steps,
        endedAt: src.ended_at ?? (ACTIVE.has(src.status) ? header.exported_at : null),
        error: src.error,
      });
      imported.add(runId, src.id, header.exported_at, now().toISOString());
    });
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
