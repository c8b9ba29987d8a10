import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadServicesConfig } from './servicesConfig.ts';

let dir = '';
const ws = (file?: unknown) => {
  dir = mkdtempSync(join(tmpdir(), 'sw-services-'));
  mkdirSync(join(dir, 'services', 'sim'), { recursive: true });
  if (file !== undefined)
    writeFileSync(join(dir, 'services.json'), typeof file === 'string' ? file : JSON.stringify(file));
  return dir;
};
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('services.json', () => {
  it('reads url and command entries with defaults', () => {
    const w = ws({
      services: [
        { name: 'toy', url: 'http://127.0.0.1:9200' },
        {
          name: 'sim',
          command: ['python3', 'sim.py', '--port', '{port}'],
          cwd: 'services/sim',
          env: { A: '1' },
        },
      ],
    });
    const cfg = loadServicesConfig(w);
    expect(cfg.errors).toEqual([]);
    expect(cfg.entries.map((e) => [e.name, e.kind, e.encoding, e.timeout_s])).toEqual([
      ['toy', 'url', 'msgpack', 60],
      ['sim', 'command', 'msgpack', 60],
    ]);
    const sim = cfg.entries[1]!;
    expect(sim.kind === 'command' && sim.cwdAbs).toBe(join(w, 'services', 'sim'));
  });

  it('reports each bad entry with its JSON path and keeps the good ones', () => {
    const w = ws({
      services: [
        { name: 'ok', url: 'http://127.0.0.1:1' },
        { name: 'bad name!', url: 'http://x' },
        { name: 'both', url: 'http://a', command: ['x'] },
        { name: 'nocmd', command: [] },
        { name: 'typo', url: 'http://127.0.0.1:2', timeout: 5 },
        { name: 'ok', url: 'http://127.0.0.1:3' },
        { name: 'gone', command: ['x'], cwd: 'nope' },
        7,
      ],
    });
    const cfg = loadServicesConfig(w);
    expect(cfg.entries.map((e) => e.name)).toEqual(['ok']);
    const paths = cfg.errors.map((e) => e.path);
    expect(paths).toEqual([
      '$.services[1].name',
      '$.services[2]',
      '$.services[3].command',
      '$.services[4]',
      '$.services[5].name',
      '$.services[6].cwd',
      '$.services[7]',
    ]);
    expect(cfg.errors[4]!.message).toMatch(/duplicate service name 'ok'/);
    expect(cfg.errors[3]!.message).toMatch(/timeout/);
  });

  it('says when the file is not JSON, and --service flags add or replace entries', () => {
    const w = ws('{ nope');
    const cfg = loadServicesConfig(w, ['toy=http://127.0.0.1:9200', 'broken']);
    expect(cfg.errors[0]).toMatchObject({ path: '$' });
    expect(cfg.errors[0]!.message).toMatch(/not valid JSON/);
    expect(cfg.errors[1]).toMatchObject({ path: '--service[1]' });
    expect(cfg.entries).toMatchObject([{ name: 'toy', kind: 'url', url: 'http://127.0.0.1:9200' }]);
  });

  it('no file is no services, not an error; a named file that is missing is one', () => {
    const w = ws();
    expect(loadServicesConfig(w)).toMatchObject({ entries: [], errors: [], file: null });
    expect(loadServicesConfig(w, [], join(w, 'missing.json')).errors[0]!.message).toMatch(/does not exist/);
  });

  it('the server reads the workspace file under --services FILE, whose entries win; errors say which file', () => {
    const w = ws({
      services: [
        { name: 'mine', url: 'http://127.0.0.1:1' },
        { name: 'both', url: 'http://127.0.0.1:2' },
      ],
    });
    const other = join(w, 'services', 'other.json');
    writeFileSync(
      other,
      JSON.stringify({
        services: [
          { name: 'both', url: 'http://127.0.0.1:3' },
          { name: 'bad name!', url: 'http://x' },
        ],
      }),
    );
    const served = loadServicesConfig(w, [], other, true);
    expect(served.entries.map((e) => [e.name, e.kind === 'url' && e.url])).toEqual([
      ['mine', 'http://127.0.0.1:1'],
      ['both', 'http://127.0.0.1:3'],
    ]);
    expect(served.errors.map((e) => e.path)).toEqual([`${other}: $.services[1].name`]);
    // Headless commands: --services FILE replaces the workspace's file.
    expect(loadServicesConfig(w, [], other).entries.map((e) => e.name)).toEqual(['both']);
  });
});
