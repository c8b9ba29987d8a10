// The built editor (dist/) on the root instance, after every feature plugin: its files, the SPA
// fallback (any other GET answers index.html, so `/?run=…` and deep links load the app), and the
// API's 404 in the `{error:{code,message}}` shape for everything else (`/api/…`, `/socket.io…`, and
// any method but GET). On the root because the not-found handler must cover every plugin's paths.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ApiError, sendError } from '../errors/errors.ts';

export async function installBuiltApp(app: FastifyInstance, distDir: string): Promise<void> {
  // The app may be (re)built while the server runs, so index.html is looked up per request.
  if (existsSync(distDir))
    await app.register(fastifyStatic, { root: distDir, wildcard: true, index: ['index.html'] });
  const hasDist = () => existsSync(join(distDir, 'index.html'));
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    if (req.method !== 'GET' || path.startsWith('/api/') || path === '/api' || path.startsWith('/socket.io'))
      return sendError(reply, new ApiError(404, 'not-found', `no route ${req.method} ${path}`));
    if (!hasDist() || !reply.sendFile)
      return reply
        .type('text/html')
        .send('<p>The app is not built. Run <code>npm run build</code> (or <code>npm start</code>).</p>');
    return reply.sendFile('index.html');
  });
}
