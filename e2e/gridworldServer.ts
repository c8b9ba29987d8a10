// A real `statewire serve` whose workspace holds the Python demo graph and a services.json that
// starts the SDK's gridworld example (its venv is set up on first use), serving the built editor.
import { cpSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { PY_GRAPH_FILE, writeGridworldServices } from '../src/server/test/pythonService.testutil.ts';
import {
  REPO,
  startServer,
  tempWorkspace,
  type ServerProcess,
} from '../src/server/test/serverProcess.testutil.ts';

export async function startGridworldServer(): Promise<{ server: ServerProcess; stop(): Promise<void> }> {
  const ws = tempWorkspace();
  let server: ServerProcess | undefined;
  try {
    rmSync(join(ws.dir, 'dist'), { recursive: true, force: true });
    symlinkSync(join(REPO, 'dist'), join(ws.dir, 'dist'));
    cpSync(PY_GRAPH_FILE, join(ws.dir, 'graphs', 'python_gridworld.json'));
    writeGridworldServices(ws.dir);
    server = await startServer(ws.dir);
  } catch (e) {
    ws.cleanup();
    throw e;
  }
  const started = server;
  return {
    server: started,
    stop: async () => {
      await started.stop();
      ws.cleanup();
    },
  };
}
