// Run bundles on real `statewire serve` processes: a 50-step demo run is exported from one server and
// imported into a second, fresh one (same state at several steps, same events, same checkpoints);
// every kind of damaged bundle is refused with 400 and leaves the second server's runs unchanged.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_MEDIA_TYPE, BUNDLE_VERSION } from '../../domain/protocol/runBundle.schema.ts';
import {
  api,
  demoGraph,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from '../test/serverProcess.testutil.ts';
import { blobRecord, containerStart, readContainer, record, RECORD } from './bundleFormat.ts';

const STEPS = 50;
let first: ServerProcess;
let second: ServerProcess;
const workspaces: { dir: string; cleanup: () => void }[] = [];
let runId = '';
let bundle: Buffer;
let container: Buffer;

async function importBytes(base: string, body: Buffer, type = BUNDLE_MEDIA_TYPE) {
  const res = await fetch(`${base}/api/runs/import`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: new Uint8Array(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as any };
}

async function allEvents(base: string, id: string): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (let after = 0; ;) {
    const page = await api(base, 'GET', `/api/runs/${id}/events?after=${after}&limit=5000`);
    out.push(...page.body.events);
    if (page.body.events.length === 0) return out;
    after = page.body.next_after;
  }
}

/** Rebuilds the container from its records with `edit` applied, gzipped again. */
function rewrite(edit: (kind: number, payload: Buffer, index: number) => Buffer | null): Buffer {
  const parts = [container.subarray(0, 12)];
  for (const r of readContainer(container)) {
    const out = edit(r.kind, r.payload, r.index);
    if (out) parts.push(out);
  }
  return gzipSync(Buffer.concat(parts));
}
const keep = (kind: number, payload: Buffer) => record(kind, payload);
const json = (payload: Buffer) => JSON.parse(payload.toString('utf8')) as unknown;
/** The bundle with the first JSON record of `kind` changed in place by `edit`. */
function editFirst<T>(kind: number, edit: (value: T) => void): Buffer {
  let done = false;
  return rewrite((k, payload) => {
    if (k !== kind || done) return keep(k, payload);
    done = true;
    const value = json(payload) as T;
    edit(value);
    return record(k, Buffer.from(JSON.stringify(value)));
  });
}

beforeAll(async () => {
  for (let i = 0; i < 2; i++) workspaces.push(tempWorkspace());
  const servers = await Promise.all(workspaces.map((w) => startServer(w.dir)));
  first = servers[0]!;
  second = servers[1]!;
  const start = await api(first.url, 'POST', '/api/navigate/run', {
    loop_definition: demoGraph(STEPS),
    step_delay_ms: 0,
  });
  runId = start.body.execution_id as string;
  await waitFor(
    async () => (await api(first.url, 'GET', `/api/runs/${runId}`)).body.status === 'done',
    30_000,
    'the demo run to finish',
  );
  const res = await fetch(`${first.url}/api/runs/${runId}/bundle`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe(BUNDLE_MEDIA_TYPE);
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Grid_Navigator-${runId}.swrun"`);
  bundle = Buffer.from(await res.arrayBuffer());
  container = gunzipSync(bundle);
}, 60_000);

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  for (const w of workspaces) w.cleanup();
});

describe('run bundles', () => {
  it('export → import into a fresh server: same run, events, checkpoints and state at every step', async () => {
    const src = (await api(first.url, 'GET', `/api/runs/${runId}`)).body;
    expect(src.steps).toBe(STEPS);

    const imported = await importBytes(second.url, bundle);
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({
      ok: true,
      run_id: runId,
      original_run_id: runId,
      kept_id: true,
      steps: STEPS,
      events: src.last_seq,
      read_only: true,
    });
    const copy = (await api(second.url, 'GET', `/api/runs/${runId}`)).body;
    expect(copy).toEqual(src);
    expect((await api(second.url, 'GET', `/api/runs/${runId}/graph`)).body).toEqual(
      (await api(first.url, 'GET', `/api/runs/${runId}/graph`)).body,
    );
    expect(await allEvents(second.url, runId)).toEqual(await allEvents(first.url, runId));
    for (const step of [1, 2, 7, 25, 49, STEPS]) {
      const [a, b] = await Promise.all(
        [first, second].map((s) => api(s.url, 'GET', `/api/runs/${runId}/state?step=${step}`)),
      );
      expect(a!.status).toBe(200);
      expect(b!.body).toEqual(a!.body);
    }

    // Sizes for the record (README / report): the bundle vs the source database.
    const db = join(workspaces[0]!.dir, '.statewire', 'runs.db');
    const dbBytes = statSync(db).size + (statSync(`${db}-wal`, { throwIfNoEntry: false })?.size ?? 0);
    console.log(
      `bundle of a ${STEPS}-step demo run: ${bundle.length} B gzip (${container.length} B uncompressed); ` +
        `source database ${dbBytes} B (runs.db + WAL, one run)`,
    );
    expect(bundle.length).toBeLessThan(dbBytes);
    // The figure the READMEs quote (100 KB, 678 KB uncompressed): a value stored unshared or
    // uncompressed again would be far past these bounds.
    expect(bundle.length).toBeLessThan(110 * 1024);
    expect(container.length).toBeLessThan(720 * 1024);
  });

  it('a second import gets a new id (the original is taken) and is read-only; fork is allowed', async () => {
    const again = await importBytes(second.url, bundle);
    expect(again.status).toBe(201);
    expect(again.body.kept_id).toBe(false);
    expect(again.body.run_id).toMatch(/^import_\d+_[0-9a-f]+$/);
    const events = await allEvents(second.url, again.body.run_id);
    expect(events.length).toBe(again.body.events);
    expect(events.every((e) => e.runId === again.body.run_id)).toBe(true);

    const restore = await api(second.url, 'POST', `/api/runs/${again.body.run_id}/restore`, { step: 3 });
    expect(restore.status).toBe(409);
    expect(restore.body.error.code).toBe('imported-read-only');
    expect(restore.body.error.message).toContain('read-only');

    const fork = await api(second.url, 'POST', `/api/runs/${runId}/fork`, { step: 10, paused: true });
    expect(fork.status).toBe(201);
    expect(fork.body.parent_run_id).toBe(runId);
    const forkState = await api(second.url, 'GET', `/api/runs/${fork.body.run_id}/state?step=10`);
    expect(forkState.body).toEqual((await api(first.url, 'GET', `/api/runs/${runId}/state?step=10`)).body);
    await api(second.url, 'POST', '/api/navigate/run/stop', {});
  });

  it('keeps binary blobs binary: the container is length-prefixed records, no base64', () => {
    const kinds = [...readContainer(container)].map((r) => r.kind);
    expect(kinds[0]).toBe(RECORD.header);
    expect(kinds[kinds.length - 1]).toBe(RECORD.end);
    expect(kinds.filter((k) => k === RECORD.jsonBlob).length).toBeGreaterThan(10);
    expect(kinds).toContain(RECORD.events);
    expect(kinds).toContain(RECORD.checkpoints);
  });

  describe('refuses a damaged bundle with 400 and changes nothing', () => {
    const cases: Array<[string, () => Buffer, number, string, string?]> = [
      ['truncated gzip', () => bundle.subarray(0, Math.floor(bundle.length * 0.6)), 400, 'bad-gzip'],
      ['not gzip at all', () => Buffer.from('{"hello":1}'), 400, 'not-gzip'],
      [
        'bad magic',
        () => gzipSync(Buffer.concat([Buffer.from('NOTARUN\n'), container.subarray(8)])),
        400,
        'bad-magic',
      ],
      [
        'a newer version',
        () => gzipSync(Buffer.concat([containerStart(BUNDLE_VERSION + 1), container.subarray(12)])),
        400,
        'unsupported-version',
        '$.version',
      ],
      [
        'a cut-off container (valid gzip)',
        () => gzipSync(container.subarray(0, container.length - 40)),
        400,
        'truncated',
      ],
      [
        'a hole in the seq',
        () => editFirst<unknown[]>(RECORD.events, (page) => page.splice(3, 1)),
        400,
        'seq-gap',
        '$.events[3]',
      ],
      [
        'a missing blob',
        () => {
          let dropped = false;
          return rewrite((kind, payload) => {
            // The last JSON blob before the checkpoints: a checkpoint (or event) root references it.
            if (kind === RECORD.jsonBlob && !dropped && payload.readUInt32BE(0) === 5) {
              dropped = true;
              return null;
            }
            if (kind === RECORD.end) {
              const end = json(payload) as { blobs: number };
              return record(kind, Buffer.from(JSON.stringify({ ...end, blobs: end.blobs - 1 })));
            }
            return keep(kind, payload);
          });
        },
        400,
        'missing-blob',
      ],
      [
        'a blob whose content does not match its hash',
        () =>
          rewrite((kind, payload) => {
            if (kind !== RECORD.jsonBlob || payload.readUInt32BE(0) !== 2) return keep(kind, payload);
            const bad = Buffer.from(payload);
            bad[bad.length - 2] = bad[bad.length - 2] === 0x31 ? 0x32 : 0x31;
            return record(kind, bad);
          }),
        400,
        'blob-hash-mismatch',
        '$.blobs[2]',
      ],
      [
        'a bad status in the header',
        () => editFirst<{ run: { status: string } }>(RECORD.header, (h) => (h.run.status = 'exploded')),
        400,
        'invalid-bundle',
        '$.header.run.status',
      ],
      [
        'an event of an unknown type',
        () => editFirst<unknown[][]>(RECORD.events, (page) => (page[0]![1] = 'not_an_event')),
        400,
        'invalid-bundle',
        '$.events[0].type',
      ],
      [
        'a record after the end',
        () => gzipSync(Buffer.concat([container, blobRecord(99_999, '{"x":1}')])),
        400,
        'trailing-data',
      ],
    ];

    for (const [what, make, status, code, path] of cases)
      it(what, async () => {
        const before = (await api(second.url, 'GET', '/api/runs')).body;
        const res = await importBytes(second.url, make());
        expect(res.status).toBe(status);
        expect(res.body.error.code).toBe(code);
        expect(res.body.error.message.length).toBeGreaterThan(10);
        if (path) expect(res.body.error.path).toBe(path);
        expect((await api(second.url, 'GET', '/api/runs')).body).toEqual(before);
      });

    it('a blob-hash failure inside a valid file leaves no half-imported run (the database is untouched)', async () => {
      const fresh = tempWorkspace();
      workspaces.push(fresh);
      const third = await startServer(fresh.dir);
      try {
        // The damage is in the LAST checkpoint page: the run row and every event would already be written.
        const checkpointPages = [...readContainer(container)].filter(
          (r) => r.kind === RECORD.checkpoints,
        ).length;
        let seen = 0;
        const bad = rewrite((kind, payload) => {
          if (kind !== RECORD.checkpoints || ++seen < checkpointPages) return keep(kind, payload);
          const page = json(payload) as unknown[][];
          page[page.length - 1]![2] = { $sw: 9_999_999 };
          return record(kind, Buffer.from(JSON.stringify(page)));
        });
        const res = await importBytes(third.url, bad);
        expect([res.status, res.body.error.code]).toEqual([400, 'missing-blob']);
        expect(res.body.error.path).toMatch(/^\$\.checkpoints\[\d+\]$/);
        expect((await api(third.url, 'GET', '/api/runs')).body).toEqual([]);
        expect((await api(third.url, 'GET', `/api/runs/${runId}`)).status).toBe(404);
        // And the same id imports cleanly afterwards (nothing stale was cached).
        const ok = await importBytes(third.url, bundle);
        expect([ok.status, ok.body.run_id]).toEqual([201, runId]);
        expect((await allEvents(third.url, runId)).length).toBe(ok.body.events);
      } finally {
        await third.stop();
      }
    });

    it('the wrong content type is 415, JSON included', async () => {
      const before = (await api(second.url, 'GET', '/api/runs')).body;
      const gz = await importBytes(second.url, bundle, 'application/gzip');
      expect([gz.status, gz.body.error.code]).toEqual([415, 'unsupported-media-type']);
      const asJson = await api(second.url, 'POST', '/api/runs/import', { bundle: 'x' });
      expect([asJson.status, asJson.body.error.code]).toEqual([415, 'unsupported-media-type']);
      expect(asJson.body.error.message).toContain(BUNDLE_MEDIA_TYPE);
      // The bundle type is accepted on the import route only.
      const elsewhere = await fetch(`${second.url}/api/graphs`, {
        method: 'POST',
        headers: { 'content-type': BUNDLE_MEDIA_TYPE },
        body: new Uint8Array(bundle),
      });
      expect(elsewhere.status).toBe(415);
      expect((await api(second.url, 'GET', '/api/runs')).body).toEqual(before);
    });
  });

  it('GET /api/runs/{id}/bundle of an unknown run is 404', async () => {
    const res = await api(first.url, 'GET', '/api/runs/nope/bundle');
    expect([res.status, res.body.error.code]).toEqual([404, 'not-found']);
  });
});
