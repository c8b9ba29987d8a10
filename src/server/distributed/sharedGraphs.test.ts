// Graphs shared by every server instance (distributed mode): two in-process servers A and B against
// one REAL PostgreSQL (and Redis, which distributed mode needs for the rest). A graph saved on A is
// listed and read on B and B's editors hear of it (graphs_changed, through LISTEN/NOTIFY); two saves
// based on the same etag, one on A and one on B at the same moment, are decided exactly once (the
// other gets 409 `stale` with the winner's etag); every saved version is kept with the SHA-256 runs
// record, an identical re-save adds none; folders, moves and deletes behave as the folder store's.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { graphVersionOf } from '../runs/graphVersion.ts';
import { hasPostgres } from '../test/pgServer.ts';
import { hasRedis } from '../test/redisServer.ts';
import { api, demoGraph, waitFor } from '../test/serverProcess.testutil.ts';
import { startTeam, type Team } from '../test/teamServers.testutil.ts';
import { redactUrl } from './config.ts';

describe.skipIf(!hasRedis() || !hasPostgres())('graphs shared by server instances (PostgreSQL)', () => {
  let team: Team;
  const sockets: Socket[] = [];
  let a: string;
  let b: string;

  /** A socket.io client counting `graphs_changed` notices. */
  const noticesOn = async (url: string) => {
    const socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    const seen = { count: 0 };
    socket.on('graphs_changed', () => seen.count++);
    await new Promise<void>((res, rej) => {
      socket.once('connect', () => res());
      socket.once('connect_error', rej);
    });
    return seen;
  };

  const graph = (name: string, stepBudget: number): GraphDef => ({ ...demoGraph(stepBudget), name });

  beforeAll(async () => {
    team = await startTeam(['a', 'b']);
    for (const { server } of team.instances)
      expect(server.graphs).toBe(`${redactUrl(team.pg.url)} (table graphs)`);
    [a, b] = team.instances.map((i) => i.url) as [string, string];
  }, 120_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await team?.close();
  }, 120_000);

  it('a graph saved on A is listed and read on B, and B’s editors are told', async () => {
    const onB = await noticesOn(b);
    const created = await api(a, 'POST', '/api/graphs', { ...graph('Shared Nav', 40), folder: 'team/nav' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'team/nav/shared_nav', path: 'team/nav/shared_nav.json' });
    expect(created.body.etag).toMatch(/^[0-9a-f]{16}$/);

    const listed = await api(b, 'GET', '/api/graphs');
    expect(listed.status).toBe(200);
    const row = listed.body.find((g: { _id: string }) => g._id === 'team/nav/shared_nav');
    expect(row).toMatchObject({
      name: 'Shared Nav',
      folder: 'team/nav',
      _etag: created.body.etag,
      step_budget: 40,
    });
    const summary = await api(b, 'GET', '/api/graphs?view=summary');
    expect(summary.body).toContainEqual({
      _id: 'team/nav/shared_nav',
      folder: 'team/nav',
      name: 'Shared Nav',
      kind: 'graph',
      description: expect.any(String),
      _mtime: created.body.mtime,
    });
    const read = await api(b, 'GET', '/api/graphs/team/nav/shared_nav');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      ...graph('Shared Nav', 40),
      _id: 'team/nav/shared_nav',
      _etag: created.body.etag,
    });
    expect((await api(b, 'GET', '/api/graphs/folders')).body).toEqual({
      folders: ['team', 'team/nav'],
      root: `${redactUrl(team.pg.url)} (table graphs)`,
    });
    await waitFor(() => onB.count > 0, 10_000, 'graphs_changed on B');
    // Nothing went to either instance's graphs folder: the database is the one place.
    for (const { dir } of team.instances) expect(readdirSync(join(dir, 'graphs'))).toEqual([]);
    // A second create of the same name is refused on the other instance too.
    const again = await api(b, 'POST', '/api/graphs', { ...graph('Shared Nav', 41), folder: 'team/nav' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('exists');
  });

  it('two saves with the same etag on A and B at once: exactly one wins, the other gets 409 stale with the current etag', async () => {
    const created = await api(a, 'POST', '/api/graphs', graph('Race', 10));
    expect(created.status).toBe(201);
    let etag = created.body.etag as string;
    for (let round = 0; round < 6; round++) {
      const [onA, onB] = await Promise.all([
        api(a, 'PUT', '/api/graphs/race', { ...graph('Race', 100 + round), expected_etag: etag }),
        api(b, 'PUT', '/api/graphs/race', { ...graph('Race', 200 + round), expected_etag: etag }),
      ]);
      const statuses = [onA.status, onB.status].sort();
      expect(statuses).toEqual([200, 409]);
      const [won, lost] = onA.status === 200 ? [onA, onB] : [onB, onA];
      expect(lost.body.error).toMatchObject({ code: 'stale', etag: won.body.etag });
      expect(lost.body.error.message).toContain(`expected ${etag}`);
      // Both instances now read the winner's graph.
      const budget = onA.status === 200 ? 100 + round : 200 + round;
      for (const url of [a, b]) {
        const now = await api(url, 'GET', '/api/graphs/race');
        expect(now.body).toMatchObject({ _etag: won.body.etag, step_budget: budget });
      }
      etag = won.body.etag as string;
    }
    // A stale etag is refused on any instance, also by If-Match.
    const stale = await api(b, 'PUT', '/api/graphs/race', {
      ...graph('Race', 7),
      expected_etag: created.body.etag,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'stale', etag });
    // 1 create + 6 winning saves: 7 versions.
    const versions = await api(a, 'GET', '/api/graph-versions/race');
    expect(versions.body.versions.map((v: { version: number }) => v.version)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('keeps every saved version (an identical re-save adds none), with the SHA-256 runs record', async () => {
    const saves = [graph('Versioned', 11), graph('Versioned', 12), graph('Versioned', 13)];
    const first = await api(a, 'POST', '/api/graphs', { ...saves[0], folder: 'v' });
    expect(first.status).toBe(201);
    let etag = first.body.etag as string;
    for (const [i, g] of saves.slice(1).entries()) {
      const put = await api(i % 2 === 0 ? b : a, 'PUT', '/api/graphs/v/versioned', {
        ...g,
        expected_etag: etag,
      });
      expect(put.status).toBe(200);
      etag = put.body.etag as string;
    }
    // The same graph again (and again): same etag, no new version.
    for (const url of [a, b]) {
      const same = await api(url, 'PUT', '/api/graphs/v/versioned', { ...saves[2], expected_etag: etag });
      expect(same.status).toBe(200);
      expect(same.body.etag).toBe(etag);
    }
    const list = await api(b, 'GET', '/api/graph-versions/v/versioned');
    expect(list.status).toBe(200);
    expect(list.body.id).toBe('v/versioned');
    expect(list.body.versions).toHaveLength(3);
    list.body.versions.forEach((v: Record<string, unknown>, i: number) => {
      expect(v).toMatchObject({
        version: i + 1,
        path: 'v/versioned',
        saved_by: expect.stringMatching(/^serve@/),
      });
      expect(v.sha256).toBe(graphVersionOf(saves[i]));
      expect(Date.parse(v.saved_at as string)).not.toBeNaN();
    });
    const one = await api(a, 'GET', '/api/graph-versions/v/versioned?version=2');
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      version: 2,
      sha256: graphVersionOf(saves[1]),
      graph: { name: 'Versioned', step_budget: 12 },
    });
    const missing = await api(a, 'GET', '/api/graph-versions/v/versioned?version=9');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain('1 to 3');
    expect((await api(a, 'GET', '/api/graph-versions/v/versioned?version=0')).status).toBe(400);
  });

  it('moves, renames, deletes and folders as the folder store does; history follows a moved graph', async () => {
    const created = await api(a, 'POST', '/api/graphs', { ...graph('Mover', 5), folder: 'src' });
    expect(created.status).toBe(201);
    const moved = await api(b, 'POST', '/api/graphs/src/mover/move', { dest_folder: 'dst' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: 'dst/mover', etag: created.body.etag });
    expect((await api(a, 'GET', '/api/graphs/src/mover')).status).toBe(404);
    // The emptied folder stays listed, as an empty folder on disk does.
    expect((await api(a, 'GET', '/api/graphs/folders')).body.folders).toEqual(
      expect.arrayContaining(['src', 'dst']),
    );
    const renamed = await api(a, 'POST', '/api/graphs/dst/mover/move', {
      dest_folder: 'dst',
      new_name: 'Mover Two',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.id).toBe('dst/mover_two');
    expect((await api(b, 'GET', '/api/graphs/dst/mover_two')).body.name).toBe('Mover Two');
    const history = await api(b, 'GET', '/api/graph-versions/dst/mover_two');
    expect(history.body.versions.map((v: { path: string }) => v.path)).toEqual([
      'src/mover',
      'dst/mover_two',
    ]);
    // A move onto an existing graph is refused.
    await api(a, 'POST', '/api/graphs', { ...graph('Mover Two', 6), folder: 'src' });
    const clash = await api(b, 'POST', '/api/graphs/src/mover_two/move', { dest_folder: 'dst' });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('exists');

    // Folders: create, rename (graphs inside follow), delete (refused while not empty unless recursive).
    expect((await api(a, 'POST', '/api/graphs/folders', { path: 'empty/inner' })).status).toBe(200);
    expect((await api(b, 'POST', '/api/graphs/folders', { path: 'empty/inner' })).body.error.code).toBe(
      'exists',
    );
    expect(
      (await api(b, 'POST', '/api/graphs/folders/rename', { path: 'dst', new_path: 'final/dst' })).status,
    ).toBe(200);
    expect((await api(a, 'GET', '/api/graphs/final/dst/mover_two')).status).toBe(200);
    expect(
      (await api(a, 'POST', '/api/graphs/folders/rename', { path: 'final', new_path: 'final/x' })).body.error
        .message,
    ).toContain('into itself');
    const notEmpty = await api(a, 'DELETE', '/api/graphs/folders?path=final');
    expect(notEmpty.status).toBe(409);
    expect(notEmpty.body.error.code).toBe('not-empty');
    expect((await api(b, 'DELETE', '/api/graphs/folders?path=final&recursive=true')).status).toBe(200);
    expect((await api(a, 'GET', '/api/graphs/final/dst/mover_two')).status).toBe(404);
    const folders = (await api(a, 'GET', '/api/graphs/folders')).body.folders as string[];
    expect(folders).toEqual(expect.arrayContaining(['empty', 'empty/inner', 'src']));
    expect(folders.some((f) => f.startsWith('final'))).toBe(false);

    // Delete; a graph created again at that path starts a new history.
    expect((await api(a, 'DELETE', '/api/graphs/src/mover_two')).body).toEqual({ deleted: 'src/mover_two' });
    expect((await api(b, 'DELETE', '/api/graphs/src/mover_two')).status).toBe(404);
    expect((await api(b, 'POST', '/api/graphs', { ...graph('Mover Two', 8), folder: 'src' })).status).toBe(
      201,
    );
    expect((await api(a, 'GET', '/api/graph-versions/src/mover_two')).body.versions).toHaveLength(1);
  });

  it('after PostgreSQL restarts, editors hear of writes again (the LISTEN connection is opened again)', async () => {
    const onB = await noticesOn(b);
    await team.pg.halt('fast');
    await team.pg.start();
    // Opened again, B tells its editors once (writes may have been missed while it was cut).
    await waitFor(() => onB.count > 0, 30_000, 'graphs_changed on B after the restart');
    await new Promise((r) => setTimeout(r, 400));
    const before = onB.count;
    const saved = await waitFor(
      async () => {
        const r = await api(a, 'POST', '/api/graphs', graph('After Restart', 4));
        return r.status === 201 ? r : undefined;
      },
      30_000,
      'a save on A once PostgreSQL is back',
    );
    expect(saved.body.id).toBe('after_restart');
    await waitFor(() => onB.count > before, 10_000, 'graphs_changed on B for the save on A');
  }, 90_000);

  it('refuses what the folder store refuses: unsafe paths, graph test files, unknown graphs', async () => {
    expect((await api(a, 'GET', '/api/graphs/a/..%2F..%2Fetc')).status).toBe(400);
    expect((await api(a, 'GET', '/api/graphs/.hidden/x')).body.error.code).toBe('unsafe-path');
    expect((await api(a, 'GET', '/api/graphs/suite.test')).body.error.code).toBe('graph-test-file');
    expect((await api(b, 'PUT', '/api/graphs/nope', graph('Nope', 3))).status).toBe(404);
    expect(
      (await api(b, 'POST', '/api/graphs', { ...graph('X', 3), folder: '../out' })).body.error.code,
    ).toBe('unsafe-path');
  });
});
