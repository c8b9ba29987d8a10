// The byte layout of a run bundle (`.swrun`), before gzip:
//
//   magic "SWRUNBD\n" (8 bytes) · version u32 BE · records…
//   record = kind u8 · length u32 BE · payload (length bytes)
//     'H' header JSON (BundleHeaderSchema) — first
//     'B' JSON blob:   id u32 BE · sha1 (20 bytes) · the blob's JSON text (UTF-8)
//     'N' binary blob: id u32 BE · sha1 (20 bytes) · raw bytes (node-service arrays: no base64)
//     'E' a page of events JSON (BundleEventPageSchema), pages in seq order
//     'C' a page of checkpoints JSON (BundleCheckpointPageSchema)
//     'R' a page of recorded calls JSON (BundleCallPageSchema; version 2 on)
//     'Z' end JSON (BundleEndSchema) — last; nothing may follow it
//
// Blobs are written before the first record that references them; their ids are the bundle's own
// (1…n), not any database's. The sha1 is computed exactly as db/blobStore.ts does (JSON text, or
// "ndarray\0" + bytes), so a reader can check every blob against its content.
import { createHash } from 'node:crypto';
import { BUNDLE_MAGIC, BUNDLE_MIN_VERSION, BUNDLE_VERSION } from '../../domain/protocol/runBundle.schema.ts';

export const RECORD = {
  header: 0x48,
  jsonBlob: 0x42,
  bytesBlob: 0x4e,
  events: 0x45,
  checkpoints: 0x43,
  calls: 0x52,
  end: 0x5a,
} as const;

const MAGIC = Buffer.from(BUNDLE_MAGIC, 'latin1');
const HASH_BYTES = 20;

/** A refused bundle: becomes a 400 `{error:{code,message,path?}}`. */
export class BundleError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly path?: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export function blobHash(content: string | Buffer): Buffer {
  const h = createHash('sha1');
  if (typeof content === 'string') h.update(content);
  else h.update('ndarray\0').update(content);
  return h.digest();
}

export function containerStart(version = BUNDLE_VERSION): Buffer {
  const v = Buffer.alloc(4);
  v.writeUInt32BE(version);
  return Buffer.concat([MAGIC, v]);
}

export function record(kind: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt8(kind, 0);
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}

export const jsonRecord = (kind: number, value: unknown): Buffer =>
  record(kind, Buffer.from(JSON.stringify(value), 'utf8'));

export function blobRecord(id: number, content: string | Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(id);
  const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return record(
    typeof content === 'string' ? RECORD.jsonBlob : RECORD.bytesBlob,
    Buffer.concat([head, blobHash(content), body]),
  );
}

export interface RawRecord {
  kind: number;
  payload: Buffer;
  /** Index of the record in the container (for error paths). */
  index: number;
}

/** Checks magic and version, then yields the records; throws BundleError on a cut-off container. */
export function* readContainer(buf: Buffer): Generator<RawRecord> {
  if (buf.length < MAGIC.length || !buf.subarray(0, MAGIC.length).equals(MAGIC))
    throw new BundleError(
      'bad-magic',
      'not a Statewire run bundle (its content does not start with the bundle marker)',
    );
  if (buf.length < MAGIC.length + 4)
    throw new BundleError('truncated', 'the bundle ends inside its version number');
  const version = containerVersion(buf);
  if (version > BUNDLE_VERSION || version < BUNDLE_MIN_VERSION)
    throw new BundleError(
      'unsupported-version',
      version > BUNDLE_VERSION
        ? `bundle format version ${version} is newer than this Statewire reads (${BUNDLE_VERSION}); upgrade Statewire`
        : `bundle format version ${version} is not supported (this Statewire reads versions ${BUNDLE_MIN_VERSION}–${BUNDLE_VERSION})`,
      '$.version',
    );
  let at = MAGIC.length + 4;
  for (let index = 0; at < buf.length; index++) {
    if (at + 5 > buf.length)
      throw new BundleError(
        'truncated',
        `the bundle ends inside the head of record ${index}`,
        `$.records[${index}]`,
      );
    const kind = buf.readUInt8(at);
    const length = buf.readUInt32BE(at + 1);
    if (at + 5 + length > buf.length)
      throw new BundleError(
        'truncated',
        `record ${index} claims ${length} bytes but only ${buf.length - at - 5} remain`,
        `$.records[${index}]`,
      );
    yield { kind, payload: buf.subarray(at + 5, at + 5 + length), index };
    at += 5 + length;
  }
}

/** The container's format version (after its magic; readContainer checks both). */
export function containerVersion(buf: Buffer): number {
  return buf.readUInt32BE(MAGIC.length);
}

/** A blob record's parts; the hash is checked against the content. */
export function readBlob(r: RawRecord): { id: number; content: string | Buffer } {
  if (r.payload.length < 4 + HASH_BYTES)
    throw new BundleError('bad-record', `blob record ${r.index} is too short`, `$.records[${r.index}]`);
  const id = r.payload.readUInt32BE(0);
  const hash = r.payload.subarray(4, 4 + HASH_BYTES);
  const bytes = r.payload.subarray(4 + HASH_BYTES);
  const content = r.kind === RECORD.jsonBlob ? bytes.toString('utf8') : Buffer.from(bytes);
  if (!blobHash(content).equals(hash))
    throw new BundleError(
      'blob-hash-mismatch',
      `blob ${id} does not match its hash (the bundle was altered or damaged)`,
      `$.blobs[${id}]`,
    );
  return { id, content };
}

export function readJson(r: RawRecord): unknown {
  try {
    return JSON.parse(r.payload.toString('utf8'));
  } catch (e) {
    throw new BundleError(
      'bad-record',
      `record ${r.index} is not valid JSON: ${(e as Error).message}`,
      `$.records[${r.index}]`,
    );
  }
}
