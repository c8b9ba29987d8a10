// `statewire serve --demo-run` (what `npm start` passes): the first launch on a workspace with no
// run history starts the demo graph running; a later launch starts nothing. Real server processes.
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, tempWorkspace } from '../test/serverProcess.testutil.ts';

const made: { cleanup: () => void }[] = [];
afterAll(() => made.forEach((w) => w.cleanup()));

async function runsOf(url: string): Promise<{ id: string; graph_name: string; status: string }[]> {
  return (await (await fetch(`${url}/api/runs`)).json()) as {
    id: string;
    graph_name: string;
    status: string;
  }[];
}

async function until<T>(probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('statewire serve --demo-run', () => {
  it('starts the demo graph on first launch, and nothing on the next launch', async () => {
    const ws = tempWorkspace();
    made.push(ws);
    const first = await startServer(ws.dir, ['--demo-run']);
    let firstId = '';
    try {
      const runs = await until(async () => {
        const r = await runsOf(first.url);
        return r.length > 0 ? r : undefined;
      });
      expect(runs).toHaveLength(1);
      expect(runs[0]!.graph_name).toBe('Grid Navigator');
      firstId = runs[0]!.id;
      const status = (await (await fetch(`${first.url}/api/navigate/run/status`)).json()) as {
        status: string;
        execution_id: string;
      };
      expect(status).toMatchObject({ status: 'running', execution_id: firstId });
      await until(async () => (first.output().includes(`demo run ${firstId} started`) ? true : undefined));
    } finally {
      expect(await first.stop()).toBe(0);
    }

    const second = await startServer(ws.dir, ['--demo-run']);
    try {
      await new Promise((r) => setTimeout(r, 1000));
      const runs = await runsOf(second.url);
      expect(runs.map((r) => r.id)).toEqual([firstId]);
      expect(second.output()).not.toMatch(/demo run .* started/);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });
});
