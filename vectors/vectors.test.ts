// Runs every shared vector (vectors/*.json, described in vectors/README.md) against the TypeScript
// side: the domain's reducers, lifetimes and previews, the engine's containers and the server's wire
// codec. python/tests/test_vectors.py runs the same files against the Python SDK. A new file is picked
// up by its `kind`; a kind nobody runs fails here rather than being skipped.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ContainerDefSchema } from '../src/domain/graph/graph.schema.ts';
import { previewKeyed, previewValue } from '../src/domain/state/preview.ts';
import { deepEqual, initialValue, reduce } from '../src/domain/state/reducers.ts';
import { buildContainer } from '../src/engine/containers.build.ts';
import { snapshotContainer } from '../src/engine/snapshot.ts';
import {
  decodeMsgpack,
  encodeMsgpack,
  fromJsonWire,
  isPngPort,
  pngStringToArray,
  toJsonWire,
} from '../src/server/services/wireCodec.ts';
import { revive, same, shown } from './typedValues.ts';

type Case = Record<string, unknown> & { name: string };
interface VectorFile {
  kind: string;
  about: string;
  cases: Case[];
}

const DIR = dirname(fileURLToPath(import.meta.url));
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({ file: f, ...(JSON.parse(readFileSync(join(DIR, f), 'utf8')) as VectorFile) }));

function expectSame(actual: unknown, expected: unknown): void {
  if (!same(actual, expected)) expect(shown(actual)).toBe(shown(expected));
}

/** Runs `fn`, which must throw a message containing `error`. */
function expectError(fn: () => unknown, error: string): void {
  let message: string | null = null;
  try {
    fn();
  } catch (e) {
    message = (e as Error).message;
  }
  expect(message, 'expected an error').not.toBeNull();
  expect(message).toContain(error);
}

function runReduce(c: Case): void {
  const reducer = c.reducer as string;
  const config = revive(c.config ?? {}) as Record<string, unknown>;
  let cur = 'start' in c ? revive(c.start) : initialValue(reducer, config);
  const writes = c.writes as unknown[];
  writes.forEach((w, i) => {
    if (i === writes.length - 1 && typeof c.error === 'string')
      expectError(() => reduce(reducer, cur, revive(w), config), c.error);
    else cur = reduce(reducer, cur, revive(w), config);
  });
  if (c.error === undefined) expectSame(cur, revive(c.expected));
}

function runEqual(c: Case): void {
  const [a, b] = [revive(c.a), revive(c.b)];
  expect(deepEqual(a, b)).toBe(c.expected);
  expect(deepEqual(b, a)).toBe(c.expected);
}

type Op = Record<string, unknown> & { op: string };

function runContainer(c: Case): void {
  const states = Object.fromEntries(
    Object.entries(c.states as Record<string, Record<string, unknown>>).map(([name, s]) => [
      name,
      { ...s, config: revive(s.config ?? {}) },
    ]),
  );
  // Service-owned containers hold any value type, as the SDK's do.
  const box = buildContainer(ContainerDefSchema.parse({ id: 'c1', states }), { allowOpaque: true });
  const key = (op: Op) => op.key as string | undefined;
  for (const op of c.ops as Op[]) {
    const slot = op.slot as string;
    switch (op.op) {
      case 'write':
        if (typeof op.error === 'string')
          expectError(() => box.write(slot, revive(op.data), key(op)), op.error);
        else box.write(slot, revive(op.data), key(op));
        break;
      case 'read':
        if (typeof op.error === 'string') expectError(() => box.read(slot, key(op)), op.error);
        else expectSame(box.read(slot, key(op)), revive(op.expected));
        break;
      case 'evict': {
        const refs = box.evict(op.key as string);
        expect(refs.every((r) => r.container === 'c1' && r.key === op.key)).toBe(true);
        expect(refs.map((r) => r.slot)).toEqual(op.expected);
        break;
      }
      case 'signal': {
        const refs = box.onSignal(op.signal as string);
        expect(refs.every((r) => r.container === 'c1')).toBe(true);
        expect(refs.map(({ slot, key }) => (key === undefined ? { slot } : { slot, key }))).toEqual(
          op.expected,
        );
        break;
      }
      case 'keys':
        expect(Object.keys(box.state.keyed[slot] ?? {})).toEqual(op.expected);
        break;
      case 'clear':
        box.clear();
        break;
      case 'preview': {
        // A snapshot also carries the full value and the partitions; the preview shape (what a /call
        // answer carries) has `value` only for a finite number or a boolean.
        const states = Object.fromEntries(
          Object.entries(snapshotContainer(box).states).map(([name, s]) => {
            const { value, keyed: _keyed, ...rest } = s;
            const shown = (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean';
            const shape = { ...rest, ...(shown ? { value } : {}) };
            return [name, Object.fromEntries(Object.entries(shape).filter(([, x]) => x !== undefined))];
          }),
        );
        expectSame(states, op.expected);
        break;
      }
      default:
        throw new Error(`unknown container op '${op.op}'`);
    }
  }
}

function runPreview(c: Case): void {
  if ('keyed' in c) {
    const keyed: Record<string, unknown> = {};
    for (const [k, v] of c.keyed as [string, unknown][]) keyed[k] = revive(v);
    expectSame(previewKeyed(keyed), c.expected);
  } else expectSame(previewValue(revive(c.value)), c.expected);
}

const hex = (u: Uint8Array) => Buffer.from(u).toString('hex');

function runMsgpack(c: Case): void {
  const encoded = (c.encoded ?? {}) as Record<string, string>;
  if ('value' in c) expect(hex(encodeMsgpack(revive(c.value)))).toBe(encoded.ts ?? c.msgpack);
  // Every listed encoding (ours and the other side's) decodes to the same value.
  for (const bytes of [c.msgpack as string, ...Object.values(encoded)]) {
    const decode = () => decodeMsgpack(Buffer.from(bytes, 'hex'));
    if (typeof c.error === 'string') expectError(decode, c.error);
    else expectSame(decode(), revive('decoded' in c ? c.decoded : c.value));
  }
}

/** A JSON body's port value as the service client reads it: arrays revived, IMAGE strings as PNG. */
function fromJsonPort(json: unknown, imagePort: boolean): unknown {
  const v = fromJsonWire(json, 'value');
  return imagePort && typeof v === 'string' ? pngStringToArray(v) : v;
}

function runJsonWire(c: Case): void {
  const imagePort = typeof c.wire_type === 'string' && isPngPort(c.wire_type);
  const expected = () => revive('decoded' in c ? c.decoded : c.value);
  if ('value' in c) {
    const encode = () => toJsonWire(revive(c.value), imagePort, 'value');
    if (typeof c.error === 'string') expectError(encode, c.error);
    else if ('png' in c) {
      const out = encode();
      expect(typeof out).toBe('string');
      const png = Buffer.from(out as string, 'base64');
      const { width, height, color_type } = c.png as Record<string, number>;
      expect(png.subarray(0, 8).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
      expect([png.readUInt32BE(16), png.readUInt32BE(20), png[25]]).toEqual([width, height, color_type]);
      expectSame(fromJsonPort(out, imagePort), expected());
    } else {
      const out = encode();
      expectSame(JSON.parse(JSON.stringify(out)), c.json);
      expectSame(out, c.json);
    }
  }
  if ('json' in c) {
    if (typeof c.error === 'string' && !('value' in c))
      expectError(() => fromJsonPort(c.json, imagePort), c.error);
    else if (c.error === undefined) expectSame(fromJsonPort(c.json, imagePort), expected());
  }
}

const RUNNERS: Record<string, (c: Case) => void> = {
  reduce: runReduce,
  equal: runEqual,
  container: runContainer,
  preview: runPreview,
  msgpack: runMsgpack,
  'json-wire': runJsonWire,
};

describe('shared vectors', () => {
  it('every kind has cases and every file has a kind this runner knows', () => {
    const kinds = new Set(FILES.map((f) => f.kind));
    expect([...kinds].filter((k) => !RUNNERS[k])).toEqual([]);
    expect(Object.keys(RUNNERS).filter((k) => !kinds.has(k))).toEqual([]);
  });
});

for (const f of FILES) {
  describe(`${f.file} (${f.kind})`, () => {
    const run = RUNNERS[f.kind];
    it.each(f.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
      if (!run) throw new Error(`${f.file}: no runner for kind '${f.kind}'`);
      run(c);
    });
  });
}
