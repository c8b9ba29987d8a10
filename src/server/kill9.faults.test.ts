// kill -9 during saves and runs: a real `statewire serve` takes a stream of ~1 MB graph saves
// (several files at once) while a run steps, and is SIGKILLed at a random moment, again and again.
// After each kill:
// - every graph file is one COMPLETE version — the last acknowledged one or one whose PUT was in
//   flight — that parses; never a truncated or mixed file; temps left by the killed saves are swept
//   by the next start;
// - the run lost no committed step: the next server finds it `interrupted` with exactly the steps
//   and events the database held at the kill, a gap-free log, and restores its last step.
// (recovery.test.ts covers one kill in depth: fork, resume, integrity_check; this one covers many.)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGraphText } from '../domain/graph/graph.parse.ts';
import { fullLog } from './test/liveClient.testutil.ts';
import {
  api,
  demoGraph,
  startServer,
  tempWorkspace,
  type ServerProcess,
} from './test/serverProcess.testutil.ts';

/** Each try costs a server start (~2 s): 5 keeps the file within the fault budget. */
const TRIES = 5;
const FILES = ['crash_a', 'crash_b', 'crash_c'];
/** ~500 KB per save, so write + fsync take long enough for a kill to land inside them. */
const PAD = 'x'.repeat(500_000);

let ws: ReturnType<typeof tempWorkspace>;
let srv: ServerProcess | undefined;
beforeAll(() => {
  ws = tempWorkspace();
});
afterAll(async () => {
  await srv?.stop();
  ws.cleanup();
});

const version = (file: string, v: number) => ({
  ...demoGraph(),
  name: file,
  description: `v${v} ${PAD} v${v}`,
});
const graphsDir = () => join(ws.dir, 'graphs');
const tempsLeft = () => readdirSync(graphsDir()).filter((n) => n.endsWith('.tmp'));

/** The version a file holds: its description must be `v<N> <pad> v<N>` with the same N twice. */
function versionOnDisk(file: string): number {
  const text = readFileSync(join(graphsDir(), `${file}.json`), 'utf8');
  const r = parseGraphText(text, file);
  if (!r.ok) throw new Error(`${file}.json does not parse: ${r.errors[0]?.message}`);
  const m = /^v(\d+) x+ v(\d+)$/.exec(r.graph.description ?? '');
  if (!m || m[1] !== m[2]) throw new Error(`${file}.json holds a mixed or cut description`);
  return Number(m[1]);
}

/** What the killed process had committed for a run, read straight from the database file. */
function committed(runId: string): { steps: number; last_seq: number } {
  const db = new Database(join(ws.dir, '.statewire', 'runs.db'), { readonly: true });
  try {
    return db.prepare('SELECT steps, last_seq FROM runs WHERE id = ?').get(runId) as {
      steps: number;
      last_seq: number;
    };
  } finally {
    db.close();
  }
}

describe('kill -9 during saves and runs', () => {
  it(
    `${TRIES} kills at random moments: graph files always complete, no committed step lost`,
    { timeout: 120_000 },
    async () => {
      srv = await startServer(ws.dir);
      let v = 0;
      for (const f of FILES)
        expect((await api(srv.url, 'POST', '/api/graphs', version(f, v))).status).toBe(201);
      const acked = new Map(FILES.map((f) => [f, 0]));
      const stats = { saves: 0, inFlightKept: 0, sweptOnStart: 0, stepsAtKill: [] as number[] };

      for (let t = 0; t < TRIES; t++) {
        const base = srv.url;
        const run = await api(base, 'POST', '/api/navigate/run', {
          loop_definition: demoGraph(100_000),
          step_delay_ms: 5,
        });
        expect(run.status).toBe(200);
        const runId = run.body.execution_id as string;
        const inFlight = new Map<string, Set<number>>(FILES.map((f) => [f, new Set<number>()]));
        let killed = false;
        let firstAck: () => void = () => undefined;
        const saving = new Promise<void>((r) => (firstAck = r));
        // One save loop per file: PUT the next version, note it acknowledged, repeat until the kill.
        const loops = FILES.map(async (f) => {
          while (!killed) {
            const mine = ++v;
            inFlight.get(f)!.add(mine);
            try {
              const res = await api(base, 'PUT', `/api/graphs/${f}`, version(f, mine));
              if (res.status !== 200) throw new Error(`PUT ${f} → ${res.status}`);
              acked.set(f, mine);
              inFlight.get(f)!.delete(mine);
              stats.saves++;
              firstAck();
            } catch (err) {
              if (!killed) throw err;
            }
          }
        });
        // Saves are flowing (one was acknowledged); the kill lands at a random moment among them.
        await saving;
        await new Promise((r) => setTimeout(r, Math.random() * 300));
        killed = true;
        await srv.kill9();
        await Promise.all(loops);

        for (const f of FILES) {
          const onDisk = versionOnDisk(f);
          // Either the last version the server acknowledged or one it was writing when it died.
          expect(onDisk === acked.get(f) || inFlight.get(f)!.has(onDisk)).toBe(true);
          if (onDisk !== acked.get(f)) {
            stats.inFlightKept++;
            acked.set(f, onDisk);
          }
        }
        const atKill = committed(runId);
        stats.stepsAtKill.push(atKill.steps);
        const temps = tempsLeft().length;

        srv = await startServer(ws.dir);
        expect(tempsLeft()).toEqual([]); // swept at startup
        stats.sweptOnStart += temps;
        if (temps > 0) expect(srv.output()).toMatch(/removed \d+ temp file\(s\) left by an interrupted save/);

        const row = (await api(srv.url, 'GET', `/api/runs/${runId}`)).body;
        expect(row).toMatchObject({ status: 'interrupted', steps: atKill.steps, last_seq: atKill.last_seq });
        expect(row.checkpoints).toEqual(Array.from({ length: atKill.steps }, (_, i) => i + 1));
        const log = await fullLog(srv.url, runId);
        expect(log.map((e) => e.seq)).toEqual(Array.from({ length: atKill.last_seq }, (_, i) => i + 1));
        if (atKill.steps > 0) {
          const restored = await api(srv.url, 'POST', `/api/runs/${runId}/restore`, { step: atKill.steps });
          expect(restored.body).toMatchObject({ ok: true, restored_to: atKill.steps });
        }
      }
      for (const f of FILES) {
        const got = await api(srv.url, 'GET', `/api/graphs/${f}`);
        expect(got.status).toBe(200);
        expect(got.body._error).toBeUndefined();
      }
      console.info(`kill9.faults: ${JSON.stringify({ tries: TRIES, files: FILES.length, ...stats })}`);
      expect(stats.stepsAtKill.some((n) => n > 0)).toBe(true); // …and among committed steps
    },
  );
});
