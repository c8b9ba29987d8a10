// Node services over REST as one fastify plugin (registered by app.ts):
// - `GET /api/services` → {services: [status…], config_errors}; `POST /api/services/reload` re-reads
//   services.json and refetches every manifest; `GET /api/services/{name}/log` → the last output lines;
// - the services' calls back into this server (`/api/internal/…`, callbacks.plugin.ts).
// The app-wide rules (origin guard, error shape, JSON parser and body limit) come from app.ts's root.
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { notFound, parseOr400 } from '../errors/errors.ts';
import { serviceCallbacksPlugin } from './callbacks.plugin.ts';
import type { ServiceManager } from './serviceManager.ts';
import type { ConfigError, ServiceEntry } from './servicesConfig.ts';

export interface ServicesPluginOptions {
  services: ServiceManager;
  /** Reads the services' configuration again (on "Reload services"). */
  reloadConfig: () => { entries: ServiceEntry[]; errors: ConfigError[] };
}

export const servicesPlugin: FastifyPluginAsync<ServicesPluginOptions> = async (app, opts) => {
  const { services } = opts;
  app.get('/api/services', async () => services.report());
  app.post('/api/services/reload', async () => {
    const cfg = opts.reloadConfig();
    await services.reload(cfg.entries, cfg.errors);
    return services.report();
  });
  app.get('/api/services/:name/log', async (req) => {
    const { name } = parseOr400(z.object({ name: z.string() }), req.params, 'params');
    if (!services.report().services.some((s) => s.name === name)) throw notFound(`no service '${name}'`);
    return { name, lines: services.logOf(name) };
  });

  await app.register(serviceCallbacksPlugin, { services });
};
