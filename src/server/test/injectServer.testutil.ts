// An in-process server over a temp workspace, created on first request and driven by fastify's
// `inject` (no socket, no port): for route tests that only need REST answers.
import { join } from 'node:path';
import { createServer, type StatewireServer } from '../app.ts';

export interface InjectServer {
  /** GET `url`, or POST `payload` as JSON; the answer's status and parsed body. */
  req(url: string, payload?: object): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): Promise<void>;
}

export function injectServer(workspace: string): InjectServer {
  let server: StatewireServer | undefined;
  return {
    async req(url, payload) {
      server ??= await createServer({ workspace, distDir: join(workspace, 'no-dist') });
      const res = await server.app.inject(
        payload === undefined
          ? { method: 'GET', url }
          : { method: 'POST', url, payload, headers: { 'content-type': 'application/json' } },
      );
      return { status: res.statusCode, body: res.json() };
    },
    close: async () => server?.close(),
  };
}
