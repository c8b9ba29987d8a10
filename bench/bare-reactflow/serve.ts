// Builds the bare React Flow page (index.html + main.tsx) with vite's JS API into a temp dir and
// serves it on a loopback port; `/api/graphs/*` is fetched from the given statewire server, so the
// baseline downloads exactly the bytes the app downloads.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import react from '@vitejs/plugin-react';

const here = dirname(fileURLToPath(import.meta.url));
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
};

export interface BarePage {
  url: string;
  stop(): Promise<void>;
}

export async function startBarePage(apiOrigin: string): Promise<BarePage> {
  const outDir = mkdtempSync(join(tmpdir(), 'bare-reactflow-'));
  await build({
    root: here,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  });
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path.startsWith('/api/graphs/')) {
      void fetch(apiOrigin + req.url)
        .then(async (r) => {
          res.writeHead(r.status, { 'content-type': 'application/json' });
          res.end(Buffer.from(await r.arrayBuffer()));
        })
        .catch(() => res.writeHead(502).end());
      return;
    }
    const file = normalize(join(outDir, path === '/' ? 'index.html' : path));
    if (!file.startsWith(outDir) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await new Promise((r) => server.close(r));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
