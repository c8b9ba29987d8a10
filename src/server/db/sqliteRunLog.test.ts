// The shared RunLog suite against the embedded SQLite store: a database file of its own per test
// (WAL mode, as the server opens it), removed afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runLogSuite } from './runLog.suite.ts';
import { SqliteRunLog } from './sqliteRunLog.ts';

const dir = mkdtempSync(join(tmpdir(), 'statewire-runlog-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runLogSuite('sqlite', async () => SqliteRunLog.open(join(dir, `runs-${++n}.db`)));
