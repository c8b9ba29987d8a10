// Checks a run bundle (bundleFormat.ts) before anything of it is written (bundleImport.ts writes
// it): gzip integrity (CRC and length trailer; inflated on the thread pool), magic and version,
// every record's schema, blob hashes, seq contiguity from 1 to the run's `last_seq`, checkpoint
// order, the end record's counts, the graph, and every event and checkpoint decoded from the
// bundle's blob table: against the protocol's zod schemas, every blob it references present, no
// blob containing itself, and its size once expanded (shared parts repeated) within the value limit
// (valueLimits.ts: a 3 KB bundle can otherwise hold a value of 2^30 leaves), and every recorded
// call (version 2) decoded and checked against its schema. It works in time
// slices (timeSlices.ts), so a 1,000,000-event bundle never holds the server's one thread long.
import { promisify } from 'node:util';
import { gunzip as gunzipCallback } from 'node:zlib';
import type { z } from 'zod';
import {
  EVENT_DATA_SCHEMAS,
  EventEnvelopeSchema,
  type EventEnvelope,
  type EventType,
} from '../../domain/protocol/protocol.ts';
import {
  BundleCallPageSchema,
  BundleCallSchema,
  BundleCheckpointPageSchema,
  BundleEndSchema,
  BundleEventPageSchema,
  BundleHeaderSchema,
  type BundleCall,
  type BundleHeader,
} from '../../domain/protocol/runBundle.schema.ts';
import { jsonPath } from '../../domain/validate/issues.ts';
import { BlobStore } from '../db/blobStore.ts';
import type { Db } from '../db/database.ts';
import { describeBytes, oversizedPath, VALUE_LIMIT_HOW, ValueCycleError } from '../db/valueLimits.ts';
import { decodeGraph, describeErrors } from '../workspace/graphCodec.ts';
import {
  BundleError,
  containerVersion,
  readBlob,
  readContainer,
  readJson,
  RECORD,
  type RawRecord,
} from './bundleFormat.ts';
import type { TimeSlices } from './timeSlices.ts';

const gunzipAsync = promisify(gunzipCallback);

export type BundleEventPage = z.infer<typeof BundleEventPageSchema>;

export interface CheckedBundle {
  header: BundleHeader;
  /** The event records, in seq order (their pages passed every check). */
  eventPages: RawRecord[];
  checkpoints: z.infer<typeof BundleCheckpointPageSchema>;
  events: number;
  blobs: number;
  /** The recorded calls, decoded (none from a version 1 bundle). */
  calls: BundleCall[];
  /** The bundle's blob table (its own ids), for decoding while writing. */
  blobStore: BlobStore;
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

/** Inflates on libuv's thread pool, not on the event loop. */
export async function gunzip(body: Buffer, maxOutputLength: number): Promise<Buffer> {
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

/**
 * Passes 1 and 2 over the container: structure, schemas, hashes, contiguity, and every event and
 * checkpoint decoded and checked (checkedEvent). Blobs go into `mem` (the bundle's own ids). An
 * event page is checked as soon as it is read when the blobs it references came before it (the
 * exporter writes them so); a page that references a later blob is checked once all are in.
 */
export async function checkBundle(
  container: Buffer,
  mem: Db,
  slices: TimeSlices,
  maxValueBytes: number,
): Promise<CheckedBundle> {
  const insertBlob = mem.prepare('INSERT INTO blobs (id, hash, json) VALUES (?, ?, ?)');
  let header: BundleHeader | undefined;
  let end: z.infer<typeof BundleEndSchema> | undefined;
  const eventPages: RawRecord[] = [];
  const deferred: { record: RawRecord; page: BundleEventPage; first: number }[] = [];
  const checkpoints: CheckedBundle['checkpoints'] = [];
  const callPages: unknown[][] = [];
  const blobStore = new BlobStore(mem);
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
        const first = nextSeq - 1;
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
        if (!checkPage(page, first, r, blobStore, maxValueBytes, true))
          deferred.push({ record: r, page, first });
        break;
      }
      case RECORD.checkpoints:
        checkpoints.push(
          ...parseOrRefuse(BundleCheckpointPageSchema, readJson(r), '$.checkpoints', 'bad checkpoint page'),
        );
        break;
      case RECORD.calls:
        callPages.push(parseOrRefuse(BundleCallPageSchema, readJson(r), '$.calls', 'bad call page'));
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
  for (const d of deferred) {
    await slices.due();
    checkPage(d.page, d.first, d.record, blobStore, maxValueBytes, false);
  }
  if (!end) throw new BundleError('truncated', 'the bundle ends before its end record (it was cut off)');
  const events = nextSeq - 1;
  if (events !== header.run.last_seq)
    throw new BundleError(
      'seq-gap',
      `the event log ends at seq ${events} but the run's last seq is ${header.run.last_seq}`,
      `$.events[${events}]`,
    );
  const version = containerVersion(container);
  if (header.version !== version)
    throw new BundleError(
      'invalid-bundle',
      `the header says format version ${header.version} but the container is version ${version}`,
      '$.header.version',
    );
  const callCount = callPages.reduce((n, p) => n + p.length, 0);
  if (version >= 2 && end.calls === undefined)
    throw new BundleError(
      'invalid-bundle',
      'the end record does not count the recorded calls',
      '$.end.calls',
    );
  const counts = { events, checkpoints: checkpoints.length, blobs, calls: callCount };
  for (const k of ['events', 'checkpoints', 'blobs', 'calls'] as const)
    if (counts[k] !== (end[k] ?? 0))
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
  for (const [i, [, , root]] of checkpoints.entries()) {
    await slices.due();
    decodeFrom(blobStore, root, `$.checkpoints[${i}]`, maxValueBytes);
  }
  const calls: BundleCall[] = [];
  for (const page of callPages)
    for (const encoded of page) {
      await slices.due();
      const path = `$.calls[${calls.length}]`;
      const call = decodeFrom(blobStore, encoded, path, maxValueBytes);
      calls.push(parseOrRefuse(BundleCallSchema, call, path, 'bad recorded call'));
    }
  return { header, eventPages, checkpoints, events, blobs, calls, blobStore };
}

/**
 * Checks the events of one page (`first`: the index of its first event). With `early`, a reference
 * to a blob not read yet returns false (the page is checked again once every blob is in).
 */
function checkPage(
  page: BundleEventPage,
  first: number,
  r: RawRecord,
  blobs: BlobStore,
  maxValueBytes: number,
  early: boolean,
): boolean {
  // No event's own text is longer than its page's: a page within the limit needs no measuring.
  const inline = r.payload.length;
  try {
    page.forEach((e, i) => checkedEvent(e, first + i, blobs, maxValueBytes, inline));
  } catch (e) {
    if (early && e instanceof BundleError && e.code === 'missing-blob') return false;
    throw e;
  }
  return true;
}

/**
 * Decodes a value against the bundle's blob table, refusing one that references a blob the bundle
 * lacks (400), contains itself (400) or expands past `maxValueBytes` (413, naming where the bulk is).
 * `inlineBound`: a known bound on the value's own text (its page's size), which spares measuring it.
 */
export function decodeFrom(
  blobs: BlobStore,
  encoded: unknown,
  path: string,
  maxValueBytes: number,
  inlineBound?: number,
): unknown {
  let decoded;
  try {
    decoded = blobs.decodeNode(encoded);
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
  if (maxValueBytes === Infinity) return decoded.value;
  let bytes = (inlineBound ?? JSON.stringify(encoded).length) + decoded.refBytes;
  if (bytes > maxValueBytes && inlineBound !== undefined)
    bytes = JSON.stringify(encoded).length + decoded.refBytes;
  if (bytes > maxValueBytes) {
    const where = oversizedPath(decoded.value, maxValueBytes, path);
    throw new BundleError(
      'value-too-large',
      `${where} expands to more than ${describeBytes(maxValueBytes)} of JSON (${path} as a whole: ` +
        `${describeBytes(bytes)}, its shared parts repeated); values are limited to ` +
        `${describeBytes(maxValueBytes)} (${VALUE_LIMIT_HOW})`,
      where,
      413,
    );
  }
  return decoded.value;
}

/** Checks one event of the bundle: its blobs and size, envelope and data schemas, timestamp. */
function checkedEvent(
  [seq, type, ts, encoded]: BundleEventPage[number],
  index: number,
  blobs: BlobStore,
  maxValueBytes: number,
  inlineBound: number,
): void {
  const path = `$.events[${index}]`;
  const data = decodeFrom(blobs, encoded, `${path}.data`, maxValueBytes, inlineBound);
  // The run id is the importer's to choose later; any id checks the envelope's shape.
  parseOrRefuse(EventEnvelopeSchema, { type, runId: 'bundle', seq, ts, data }, path, 'bad event');
  if (Number.isNaN(Date.parse(ts)))
    throw new BundleError('invalid-bundle', `bad event: ${path}.ts is not a timestamp`, `${path}.ts`);
  parseOrRefuse(EVENT_DATA_SCHEMAS[type as EventType], data, `${path}.data`, `bad ${type} event`);
}

/**
 * The events of a checked page as envelopes of `runId`, payloads decoded exactly as stored (not
 * zod's output: no defaults filled in).
 */
export function pageEnvelopes(r: RawRecord, runId: string, blobs: BlobStore): EventEnvelope[] {
  return (readJson(r) as BundleEventPage).map(([seq, type, ts, encoded]) => ({
    type: type as EventType,
    runId,
    seq,
    ts,
    data: decodeFrom(blobs, encoded, '$.events', Infinity) as EventEnvelope['data'],
  }));
}
