// `statewire import-graphs DIR` / `statewire export-graphs DIR` as a user runs them (the real binary)
// against a REAL PostgreSQL: a folder of graphs in, the latest versions out, byte for byte the
// canonical form of what went in; a second import of unchanged files adds no version, a changed file
// adds one; files that are not graphs are named on stderr and skipped (exit 1); no database URL is a
// clear error (exit 2).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatGraph } from '../../domain/graph/graph.format.ts';
import { parseGraphText } from '../../domain/graph/graph.parse.ts';
import { PgRunLog } from '../db/pgRunLog.ts';
import { exportGraphsCommand, importGraphsCommand } from './graphsTransfer.ts';
import { runStatewire } from '../test/cli.testutil.ts';
import { hasPostgres, startPostgres, type PgServer } from '../test/pgServer.ts';
import { DEMO_GRAPH_FILE } from '../test/serverProcess.testutil.ts';
import { PgGraphStore } from '../workspace/pgGraphStore.ts';

const canonical = (text: string) => {
  const r = parseGraphText(text, 'test');
  if (!r.ok) throw new Error('not a graph');
  return formatGraph(r.graph);
};

describe.skipIf(!hasPostgres())('statewire import-graphs / export-graphs', () => {
  let pg: PgServer;
  let dir: string;
  const env = () => ({ STATEWIRE_DATABASE_URL: pg.url, STATEWIRE_REDIS_URL: undefined });

  beforeAll(async () => {
    pg = await startPostgres();
    dir = mkdtempSync(join(tmpdir(), 'statewire-graphs-cli-'));
  }, 120_000);
  afterAll(async () => {
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('round trip: import a folder, export it, byte for byte canonical; re-import adds versions only for changes', async () => {
    const src = join(dir, 'src');
    mkdirSync(join(src, 'team', 'deep'), { recursive: true });
    mkdirSync(join(src, '.hidden'), { recursive: true });
    const demo = JSON.parse(readFileSync(DEMO_GRAPH_FILE, 'utf8')) as Record<string, unknown>;
    cpSync(DEMO_GRAPH_FILE, join(src, 'grid_navigator.json'));
    // Not in canonical form (one line, keys reordered): stored and exported canonically.
    const { nodes, ...rest } = demo;
    writeFileSync(join(src, 'team', 'alpha.json'), JSON.stringify({ nodes, ...rest, name: 'Alpha' }));
    writeFileSync(
      join(src, 'team', 'deep', 'beta.json'),
      JSON.stringify({ ...demo, name: 'Beta', step_budget: 9 }, null, 4),
    );
    writeFileSync(join(src, 'team', 'broken.json'), '{ "name": "Broken", ');
    writeFileSync(join(src, 'wrong.json'), '{"name": "w", "nodes": [{"id": "a", "type": 5}]}');
    writeFileSync(join(src, 'suite.test.json'), '{"graph": "grid_navigator.json", "expect": []}');
    writeFileSync(join(src, '.hidden', 'x.json'), JSON.stringify(demo));
    writeFileSync(join(src, 'notes.txt'), 'not json');

    const imported = await runStatewire(['import-graphs', src], dir, env());
    expect(imported.code).toBe(1);
    expect(imported.stderr).toContain(`statewire import-graphs: ${join(src, 'team', 'broken.json')}: `);
    expect(imported.stderr).toContain(`statewire import-graphs: ${join(src, 'wrong.json')}: $.nodes[0].type`);
    expect(imported.stderr.trim().split('\n')).toHaveLength(2);
    expect(imported.stdout).toContain('grid_navigator: created (version 1)');
    expect(imported.stdout).toContain('team/alpha: created (version 1)');
    expect(imported.stdout).toContain('team/deep/beta: created (version 1)');
    expect(imported.stdout).toContain('import-graphs: 3 created, 0 updated, 0 unchanged, 2 failed');

    const out = join(dir, 'out');
    const exported = await runStatewire(['export-graphs', out], dir, env());
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('export-graphs: 3 graph(s) written');
    for (const rel of ['grid_navigator.json', 'team/alpha.json', 'team/deep/beta.json'])
      expect(readFileSync(join(out, rel), 'utf8')).toBe(canonical(readFileSync(join(src, rel), 'utf8')));
    for (const rel of ['team/broken.json', 'wrong.json', 'suite.test.json', '.hidden/x.json'])
      expect(existsSync(join(out, rel))).toBe(false);

    // The exported folder imports as unchanged; one edited file is a new version.
    const again = await runStatewire(['import-graphs', out], dir, env());
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('import-graphs: 0 created, 0 updated, 3 unchanged, 0 failed');
    const edited = {
      ...(JSON.parse(readFileSync(join(out, 'team/alpha.json'), 'utf8')) as object),
      step_budget: 77,
    };
    writeFileSync(join(out, 'team/alpha.json'), JSON.stringify(edited));
    const third = await runStatewire(['import-graphs', out], dir, env());
    expect(third.code).toBe(0);
    expect(third.stdout).toContain('team/alpha: updated (version 2)');
    expect(third.stdout).toContain('import-graphs: 0 created, 1 updated, 2 unchanged, 0 failed');

    const out2 = join(dir, 'out2');
    expect((await runStatewire(['export-graphs', out2], dir, env())).code).toBe(0);
    expect(readFileSync(join(out2, 'team/alpha.json'), 'utf8')).toBe(canonical(JSON.stringify(edited)));
    expect(readFileSync(join(out2, 'grid_navigator.json'), 'utf8')).toBe(
      readFileSync(join(out, 'grid_navigator.json'), 'utf8'),
    );

    // Both versions are kept, each with the imported text.
    const log = await PgRunLog.connect(pg.url);
    try {
      const store = new PgGraphStore(log.pool, { location: 'test' });
      const versions = await store.versions('team/alpha');
      expect(versions.map((v) => [v.version, v.saved_by])).toEqual([
        [1, 'statewire import-graphs'],
        [2, 'statewire import-graphs'],
      ]);
      expect((await store.version('team/alpha', 1)).graph.step_budget).toBe(demo.step_budget);
      expect((await store.version('team/alpha', 2)).graph.step_budget).toBe(77);
    } finally {
      await log.close();
    }
  }, 180_000);

  it('without STATEWIRE_DATABASE_URL: a clear error, exit 2; a missing folder too; --help lists the commands', async () => {
    // In-process (the same functions the binary dispatches to), stderr captured.
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const said = () => stderr.mock.calls.map((c) => String(c[0])).join('');
    try {
      expect(await importGraphsCommand([dir], {})).toBe(2);
      expect(said()).toContain('statewire import-graphs: STATEWIRE_DATABASE_URL is not set');
      expect(await exportGraphsCommand([dir], { STATEWIRE_DATABASE_URL: ' ' })).toBe(2);
      expect(said()).toContain('statewire export-graphs: STATEWIRE_DATABASE_URL is not set');
      expect(await importGraphsCommand([dir], { STATEWIRE_DATABASE_URL: 'redis://127.0.0.1:6379' })).toBe(2);
      expect(said()).toContain('expected a postgres:// URL');
      expect(await importGraphsCommand([join(dir, 'nope')], env())).toBe(2);
      expect(said()).toContain(`${join(dir, 'nope')} is not a folder`);
      expect(await exportGraphsCommand([], env())).toBe(2);
      expect(said()).toContain('statewire export-graphs: expected DIR');
    } finally {
      stderr.mockRestore();
    }
    const help = await runStatewire(['--help'], dir);
    expect(help.stdout).toMatch(/import-graphs +save every \*\.json graph under DIR/);
    expect(help.stdout).toMatch(/export-graphs +write the latest version/);
  }, 60_000);
});
