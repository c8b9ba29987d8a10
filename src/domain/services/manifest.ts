// Node services (NODE-SERVICES.md): what a service's `/manifest` says, what the server reports about
// each service (`GET /api/services`), and how a manifest function becomes a catalog entry. Pure: the
// server fetches and validates, the app shows, both read the same shapes.
import { z } from 'zod';
import type { NodeSpecInput } from '../catalog/catalog.schema.ts';

export const ServicePortSchema = z.object({
  name: z.string().min(1),
  wire_type: z.string().default('ANY'),
  description: z.string().default(''),
  optional: z.boolean().default(false),
});

export const ServiceFunctionSchema = z.object({
  name: z.string().min(1),
  description: z.string().default(''),
  input_ports: z.array(ServicePortSchema).default([]),
  output_ports: z.array(ServicePortSchema).default([]),
  config_schema: z.record(z.string(), z.unknown()).default({}),
  ui_config: z.record(z.string(), z.unknown()).default({}),
});
export type ServiceFunction = z.infer<typeof ServiceFunctionSchema>;

/** A service-owned container as declared (the graph format's ContainerDef shape, kept loose). */
export const ServiceContainerSchema = z
  .object({
    id: z.string().min(1),
    label: z.string().optional(),
    states: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  })
  .catchall(z.unknown());
export type ServiceContainer = z.infer<typeof ServiceContainerSchema>;

export const ServiceManifestSchema = z.object({
  name: z.string().min(1),
  version: z.string().default(''),
  description: z.string().default(''),
  functions: z.array(ServiceFunctionSchema).default([]),
  containers: z.array(ServiceContainerSchema).default([]),
});
export type ServiceManifest = z.infer<typeof ServiceManifestSchema>;

export const SERVICE_STATES = ['starting', 'up', 'down'] as const;
export type ServiceState = (typeof SERVICE_STATES)[number];

/** One service as `GET /api/services` reports it. */
export const ServiceStatusSchema = z.object({
  name: z.string(),
  /** Base URL (for a managed service: once its port is known). */
  url: z.string().nullable(),
  managed: z.boolean(),
  encoding: z.enum(['msgpack', 'json']),
  state: z.enum(SERVICE_STATES),
  /** The last error (failed start, failed health check, bad manifest, process exit). */
  error: z.string().nullable(),
  version: z.string(),
  description: z.string(),
  /** Node types this service registered (`<nodeset>__<fn>`). */
  types: z.array(z.string()),
  containers: z.array(ServiceContainerSchema),
  restarts: z.number().int(),
  /** Process id of a managed service while it runs. */
  pid: z.number().int().nullable(),
});
export type ServiceStatus = z.infer<typeof ServiceStatusSchema>;

export const ServicesReportSchema = z.object({
  services: z.array(ServiceStatusSchema),
  /** Problems in services.json / --service flags, each with a JSON path. */
  config_errors: z.array(z.object({ path: z.string(), message: z.string() })),
});
export type ServicesReport = z.infer<typeof ServicesReportSchema>;

/** Catalog category of a service's node types (the reference uses `server:<name>`). */
export const serviceCategory = (service: string) => `server:${service}`;
export const serviceOfCategory = (category: string): string | null =>
  category.startsWith('server:') ? category.slice('server:'.length) : null;

/** The nodeset a node type names (`habitat__env_step` → `habitat`); null for built-ins. */
export function nodesetOfType(type: string): string | null {
  const i = type.indexOf('__');
  return i > 0 ? type.slice(0, i) : null;
}

/** One catalog entry per manifest function, with its typed ports and config form. */
export function serviceFunctionSpec(service: string, fn: ServiceFunction): NodeSpecInput {
  const ui = fn.ui_config;
  const display =
    typeof ui.display_name === 'string' && ui.display_name
      ? ui.display_name
      : (fn.name.includes('__') ? fn.name.slice(fn.name.indexOf('__') + 2) : fn.name).replace(/_/g, ' ');
  const props = (fn.config_schema.properties ?? {}) as Record<string, { default?: unknown }>;
  const defaults = Object.fromEntries(
    Object.entries(props)
      .filter(([, p]) => p && typeof p === 'object' && 'default' in p)
      .map(([k, p]) => [k, p.default]),
  );
  return {
    type: fn.name,
    display_name: display,
    description: fn.description,
    category: serviceCategory(service),
    icon: typeof ui.icon === 'string' ? ui.icon : 'server',
    kind: 'service',
    config_schema: fn.config_schema,
    default_config: defaults,
    ui_config: {
      color: typeof ui.color === 'string' ? ui.color : '#6366f1',
      layout: 'block',
      config_fields: Object.keys(props),
      display_fields: [],
    },
    input_ports: fn.input_ports,
    output_ports: fn.output_ports,
    docs: `${fn.description}\n\nServed by the node service **${service}** (\`POST /call/${fn.name}\`).`,
  };
}
