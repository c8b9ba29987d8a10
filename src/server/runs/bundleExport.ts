// Writes a stored run as a bundle (format: bundleFormat.ts), page by page, so memory stays bounded
// by the run's distinct values rather than by its log. Values are re-encoded through a BlobStore
// over a private in-memory database: the bundle gets the same Merkle-DAG sharing as the run
// database (a value unchanged for 50 steps is in the bundle once), its own blob ids (1…n, each
// written before the first record that uses it), and only the blobs this run's events, checkpoints
// and recorded calls reach — never another run's.
// Recorded calls (version 2): the answered LLM and node-service calls the run can be replayed from
// (runCalls): its own, and those of the runs it was forked from after its fork point (a fork answers
// from its parent's record while its calls are unchanged).
// The export is a snapshot at its first read: events and checkpoints after the run's `last_seq` at
// that moment are left out (a live run keeps appending while the file streams).
import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  type BundleEnd,
  type BundleHeader,
} from '../../domain/protocol/runBundle.schema.ts';
import { BlobStore } from '../db/blobStore.ts';
import { closeDatabase, openDatabase } from '../db/database.ts';
import { recordedCalls, type RecordedCall } from '../db/effectStore.ts';
import type { RunStore, StoredRun } from '../db/runStore.ts';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { blobRecord, containerStart, jsonRecord, RECORD } from './bundleFormat.ts';

const EVENT_PAGE = 500;
const CHECKPOINT_PAGE = 50;
const CALL_PAGE = 200;

/**
 * The answered calls a replay of `runId` may need: those the run recorded itself, and those of its
 * ancestors (fork chain) at steps after the run's fork point, oldest first. Another fork's calls of
 * the same lineage are left out.
 */
export function runCalls(store: RunStore, runId: string): RecordedCall[] {
  const run = store.getRun(runId);
  if (!run) return [];
  const ancestors = new Set<string>();
  for (let at = run.parent_run_id; at !== null && !ancestors.has(at);) {
    ancestors.add(at);
    at = store.getRun(at)?.parent_run_id ?? null;
  }
  const from = run.parent_step ?? -1;
  return recordedCalls(store.db, store.blobs, run.lineage).filter(
    (c) => c.response !== undefined && (c.run_id === runId || (ancestors.has(c.run_id) && c.step > from)),
  );
}

/**
 * Where a bundle's run is read from: this server's store (storeSource), or PostgreSQL for a run
 * another instance wrote (distributed/remoteRuns.plugin.ts). Read lazily, page by page.
 */
export interface BundleSource {
  run(): Promise<StoredRun | undefined>;
  graph(): Promise<unknown>;
  events(after: number, limit: number): Promise<EventEnvelope[]>;
  /** The checkpoints up to `maxSeq`, oldest first; each state read when the bundle reaches it. */
  checkpoints(maxSeq: number): Promise<{ seq: number; step: number; state: () => Promise<unknown> }[]>;
  calls(): Promise<RecordedCall[]>;
}

/** A run of this server's store as a bundle source. */
export function storeSource(store: RunStore, runId: string): BundleSource {
  return {
    run: async () => store.getRun(runId),
    graph: async () => store.graphOf(runId),
    events: async (after, limit) => store.events(runId, after, limit),
    checkpoints: async (maxSeq) =>
      store
        .checkpointList(runId, maxSeq)
        .map((c) => ({ seq: c.seq, step: c.step, state: async () => store.blobs.get(c.root) })),
    calls: async () => runCalls(store, runId),
  };
}

/** The uncompressed container, chunk by chunk. */
export async function* bundleChunks(
  source: BundleSource,
  runId: string,
  now = new Date(),
): AsyncGenerator<Buffer> {
  const run = await source.run();
  if (!run) throw new Error(`no run ${runId}`);
  const lastSeq = run.last_seq;
  const mem = openDatabase(':memory:');
  try {
    const blobs = new BlobStore(mem);
    const fresh = mem.prepare<[number], { id: number; json: string | Buffer }>(
      'SELECT id, json FROM blobs WHERE id > ? ORDER BY id',
    );
    let written = 0;
    let blobCount = 0;
    /** Encodes values into the bundle's blob table; returns the records of the blobs that are new. */
    const encode = <T>(fn: (put: (v: unknown) => unknown) => T): { value: T; blobRecords: Buffer[] } => {
      const value = mem.transaction(() => fn((v) => JSON.parse(blobs.put(v)) as unknown))();
      const rows = fresh.all(written);
      written = rows[rows.length - 1]?.id ?? written;
      blobCount += rows.length;
      return { value, blobRecords: rows.map((b) => blobRecord(b.id, b.json)) };
    };
    const header: BundleHeader = {
      format: BUNDLE_FORMAT,
      version: BUNDLE_VERSION,
      exported_at: now.toISOString(),
      run: { ...run, status: run.status as BundleHeader['run']['status'] },
      graph: await source.graph(),
    };
    yield Buffer.concat([containerStart(), jsonRecord(RECORD.header, header)]);

    const end: BundleEnd = { events: 0, checkpoints: 0, blobs: 0, calls: 0 };
    for (let after = 0; after < lastSeq;) {
      const page = (await source.events(after, EVENT_PAGE)).filter((e) => e.seq <= lastSeq);
      const last = page[page.length - 1];
      if (!last) break;
      const { value, blobRecords } = encode((put) => page.map((e) => [e.seq, e.type, e.ts, put(e.data)]));
      yield Buffer.concat([...blobRecords, jsonRecord(RECORD.events, value)]);
      end.events += page.length;
      after = last.seq;
    }
    const checkpoints = await source.checkpoints(lastSeq);
    for (let i = 0; i < checkpoints.length; i += CHECKPOINT_PAGE) {
      const page = checkpoints.slice(i, i + CHECKPOINT_PAGE);
      const states = await Promise.all(page.map((c) => c.state()));
      const { value, blobRecords } = encode((put) => page.map((c, j) => [c.seq, c.step, put(states[j])]));
      yield Buffer.concat([...blobRecords, jsonRecord(RECORD.checkpoints, value)]);
      end.checkpoints += page.length;
    }
    const calls = await source.calls();
    for (let i = 0; i < calls.length; i += CALL_PAGE) {
      const page = calls.slice(i, i + CALL_PAGE);
      const { value, blobRecords } = encode((put) => page.map((c) => put(c)));
      yield Buffer.concat([...blobRecords, jsonRecord(RECORD.calls, value)]);
    }
    end.calls = calls.length;
    end.blobs = blobCount;
    yield jsonRecord(RECORD.end, end);
  } finally {
    closeDatabase(mem);
  }
}

/** The gzip-compressed bundle as a stream (pulled lazily: a slow client does not make it buffer). */
export function bundleStream(source: BundleSource, runId: string): Readable {
  // pipeline: a failure while reading destroys the response stream (the client sees a cut-off file,
  // which an import refuses) instead of leaving it open.
  return pipeline(Readable.from(bundleChunks(source, runId)), createGzip(), () => undefined);
}

/** `<graph>-<runid>.swrun`, with anything but `[A-Za-z0-9._-]` replaced (it goes in a header). */
export function bundleFileName(graphName: string, runId: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100);
  return `${safe(graphName || 'run')}-${safe(runId)}.swrun`;
}
