// Run bundles made by hand for tests (the format: runs/bundleFormat.ts): a header around the demo
// graph, events and blobs given literally, so a test can build what no exporter writes — a blob
// DAG that expands to gigabytes, a blob that contains itself, a run that descends from itself, a
// million events.
import { gzipSync } from 'node:zlib';
import {
  BUNDLE_FORMAT,
  BUNDLE_MEDIA_TYPE,
  BUNDLE_VERSION,
  type BundleHeader,
  type BundleRun,
} from '../../domain/protocol/runBundle.schema.ts';
import { blobRecord, containerStart, jsonRecord, RECORD } from '../runs/bundleFormat.ts';
import { demoGraph } from './serverProcess.testutil.ts';

export type BundleEvent = [seq: number, type: string, ts: string, data: unknown];

export interface BundleParts {
  run?: Partial<BundleRun>;
  /** In seq order from 1; a function is called page by page (500 events) to spare memory. */
  events: BundleEvent[] | { count: number; event: (seq: number) => BundleEvent };
  blobs?: [id: number, json: string][];
  checkpoints?: [seq: number, step: number, root: unknown][];
}

export const TS = '2026-01-02T03:04:05.000Z';

/** The gzip-compressed `.swrun` bytes. */
export function makeBundle(p: BundleParts): Buffer {
  const count = Array.isArray(p.events) ? p.events.length : p.events.count;
  const eventAt = Array.isArray(p.events)
    ? (seq: number) => (p.events as BundleEvent[])[seq - 1]!
    : p.events.event;
  const header: BundleHeader = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    exported_at: TS,
    run: {
      id: 'hand_made',
      graph_name: 'Grid Navigator',
      status: 'done',
      steps: 1,
      last_seq: count,
      started_at: TS,
      ended_at: TS,
      parent_run_id: null,
      parent_step: null,
      lineage: 'hand_made',
      error: null,
      fresh_effects: false,
      step_delay_ms: 0,
      ...p.run,
    },
    graph: demoGraph(5),
  };
  const parts = [containerStart(), jsonRecord(RECORD.header, header)];
  for (const [id, json] of p.blobs ?? []) parts.push(blobRecord(id, json));
  for (let seq = 1; seq <= count; seq += 500) {
    const page: BundleEvent[] = [];
    for (let s = seq; s < Math.min(seq + 500, count + 1); s++) page.push(eventAt(s));
    parts.push(jsonRecord(RECORD.events, page));
  }
  if (p.checkpoints?.length) parts.push(jsonRecord(RECORD.checkpoints, p.checkpoints));
  parts.push(
    jsonRecord(RECORD.end, {
      events: count,
      checkpoints: p.checkpoints?.length ?? 0,
      blobs: p.blobs?.length ?? 0,
      calls: 0,
    }),
  );
  return gzipSync(Buffer.concat(parts));
}

/**
 * Blobs `first…first+levels-1` where blob k is `{"a": blob k+1, "b": blob k+1}` and the last is a
 * ~100-byte leaf: stored in a few KB, `levels` levels expand to 2^(levels-1) leaves.
 */
export function bombBlobs(levels: number, first = 1): [number, string][] {
  return Array.from({ length: levels }, (_, i) => {
    const id = first + i;
    return [
      id,
      i === levels - 1
        ? JSON.stringify({ leaf: 'x'.repeat(100) })
        : JSON.stringify({ a: { $sw: id + 1 }, b: { $sw: id + 1 } }),
    ];
  });
}

/** The same DAG as a value (frozen, shared: the blob store writes it as `levels` blobs). */
export function bombValue(levels: number): unknown {
  let v: unknown = Object.freeze({ leaf: 'x'.repeat(100) });
  for (let i = 1; i < levels; i++) v = Object.freeze({ a: v, b: v });
  return v;
}

/** A nav_step payload carrying `nodeStates` (a field the protocol leaves open). */
export const navStep = (step: number, nodeStates: Record<string, unknown>) => ({
  step,
  containers: {},
  nodeStates,
  features: {},
  cleared: [],
  outputs: {},
  done: false,
});

/** A small event every run has (for padding a log to a given length). */
export const nodeStatus = (seq: number): BundleEvent => [
  seq,
  'node_status',
  TS,
  { node_id: 'env', status: 'done', step: 1 },
];

/** `POST /api/runs/import` of `body`: the status and the parsed answer. */
export async function postBundle(
  base: string,
  body: Buffer,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/api/runs/import`, {
    method: 'POST',
    headers: { 'content-type': BUNDLE_MEDIA_TYPE },
    body: new Uint8Array(body),
    signal: AbortSignal.timeout(300_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}
