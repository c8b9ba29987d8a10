// The executor's callback endpoints for a headless run (`statewire run`/`check`/`test`, batch
// episode workers): a loopback-only fastify with just the internal routes (container
// read/write/evict, pushed events). Our SDK's services learn its URL from each call's
// `_exec.executor_url`; the reference's services read only AGENTCANVAS_EXECUTOR_URL from their
// environment, so a service started by hand needs a port known in advance (`--executor-port`).
import Fastify from 'fastify';
import { installErrorHandling, installJsonParser } from '../errors/errors.ts';
import { serviceCallbacksPlugin } from './callbacks.plugin.ts';
import type { ServiceManager } from './serviceManager.ts';

export async function startExecutorEndpoints(
  services: ServiceManager,
  port = 0,
): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  installErrorHandling(app);
  installJsonParser(app, 64 * 1024 * 1024);
  await app.register(serviceCallbacksPlugin, { services });
  try {
    await app.listen({ host: '127.0.0.1', port });
  } catch (e) {
    await app.close();
    throw e;
  }
  const addr = app.server.address();
  const bound = typeof addr === 'object' && addr ? addr.port : port;
  return { url: `http://127.0.0.1:${bound}`, close: () => app.close() };
}
