// The executor's callback endpoints for a headless `statewire run`: a loopback-only fastify with just
// the internal routes (container read/write/evict, pushed events). Services learn its URL from each
// call's `_exec.executor_url`, so a service that another Statewire started still calls back here.
import Fastify from 'fastify';
import { installErrorHandling, installJsonParser } from '../http/errors.ts';
import { registerInternalRoutes } from '../http/services.routes.ts';
import type { ServiceManager } from './serviceManager.ts';

export async function startExecutorEndpoints(
  services: ServiceManager,
): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  installErrorHandling(app);
  installJsonParser(app, 64 * 1024 * 1024);
  registerInternalRoutes(app, services);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}
