// Node services (docs/node-services-protocol.md): what a service's `/manifest` says, what the server
// reports about each service (`GET /api/services`), and how a manifest function becomes a catalog
// entry. Pure: the server fetches and validates, the app shows, both read the same shapes.
// A manifest is read function by function: one malformed function (or container) is skipped with an
// issue naming it and its JSON path, and the rest of the service works.
import { z } from 'zod';
import type { NodeSpecInput } from '../catalog/catalog.schema.ts';
import { jsonPath } from '../validate/issues.ts';
import { configFormOf } from './configFields.ts';

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
  /** A JSON-Schema-like object, or a list of the reference's ConfigField objects (configFields.ts). */
  config_schema: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).default({}),
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
  /** The service answers `POST /snapshot` and `POST /restore` (time travel puts its state back). */
  snapshot: z.boolean().default(false),
});
export type ServiceManifest = z.infer<typeof ServiceManifestSchema>;

/** A part of a manifest that was left out (or a config field that was), and why. */
export const ManifestIssueSchema = z.object({
  /** JSON path in the manifest (`$.functions[3].input_ports[0].name`). */
  path: z.string(),
  message: z.string(),
  /** The function concerned, when known. */
  function: z.string().optional(),
});
export type ManifestIssue = z.infer<typeof ManifestIssueSchema>;

const ManifestHeadSchema = z.object({
  name: z.string().min(1),
  version: z.union([z.string(), z.number()]).default(''),
  description: z.string().default(''),
  functions: z.array(z.unknown()).default([]),
  containers: z.array(z.unknown()).default([]),
  // Only a literal `true` turns snapshots on; anything else (absent, "yes") leaves them off.
  snapshot: z.unknown().optional(),
});

const firstIssue = (err: z.ZodError, base: readonly PropertyKey[]) => {
  const i = err.issues[0]!;
  return { path: jsonPath([...base, ...i.path]), message: i.message };
};

/**
 * Reads a `/manifest` answer. Only a manifest without a name or with a non-list `functions` fails as
 * a whole (`error`); a function or container that does not fit is skipped with an issue, and a
 * config field that does not fit is left out of its function's form with an issue.
 */
export function parseServiceManifest(
  raw: unknown,
): { ok: true; manifest: ServiceManifest; issues: ManifestIssue[] } | { ok: false; error: string } {
  const head = ManifestHeadSchema.safeParse(raw);
  if (!head.success) {
    const i = firstIssue(head.error, []);
    return { ok: false, error: `${i.path}: ${i.message}` };
  }
  const issues: ManifestIssue[] = [];
  const functions: ServiceFunction[] = [];
  const seen = new Set<string>();
  head.data.functions.forEach((f, i) => {
    const name =
      typeof f === 'object' && f !== null && typeof (f as { name?: unknown }).name === 'string'
        ? (f as { name: string }).name
        : undefined;
    const r = ServiceFunctionSchema.safeParse(f);
    if (!r.success) {
      const at = firstIssue(r.error, ['functions', i]);
      issues.push({ ...at, message: `function skipped: ${at.message}`, ...(name ? { function: name } : {}) });
      return;
    }
    if (seen.has(r.data.name)) {
      issues.push({
        path: `$.functions[${i}].name`,
        message: `function skipped: '${r.data.name}' is listed twice`,
        function: r.data.name,
      });
      return;
    }
    seen.add(r.data.name);
    for (const fi of configFormOf(r.data.config_schema, r.data.ui_config.config_fields).issues)
      issues.push({
        path: fi.path.replace(/^\$/, `$.functions[${i}]`),
        message: `config field left out: ${fi.message}`,
        function: r.data.name,
      });
    functions.push(r.data);
  });
  const containers: ServiceContainer[] = [];
  head.data.containers.forEach((c, i) => {
    const r = ServiceContainerSchema.safeParse(c);
    if (r.success) containers.push(r.data);
    else {
      const at = firstIssue(r.error, ['containers', i]);
      issues.push({ ...at, message: `container skipped: ${at.message}` });
    }
  });
  return {
    ok: true,
    manifest: {
      name: head.data.name,
      version: String(head.data.version),
      description: head.data.description,
      functions,
      containers,
      snapshot: head.data.snapshot === true,
    },
    issues,
  };
}

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
  /** Parts of the manifest left out (a malformed function, a config field), each with its JSON path. */
  issues: z.array(ManifestIssueSchema).default([]),
  /** The answer-size cap per call (`max_response_mb` in services.json). */
  max_response_mb: z.number().optional(),
  /** Its manifest says `"snapshot": true`: restore and fork put its per-run state back. */
  snapshot: z.boolean().optional(),
});
export type ServiceStatus = z.infer<typeof ServiceStatusSchema>;

export const ServicesReportSchema = z.object({
  services: z.array(ServiceStatusSchema),
  /** Problems in services.json / --service flags, each with a JSON path. */
  config_errors: z.array(z.object({ path: z.string(), message: z.string() })),
  /**
   * Where services call back (container grants, pushed events): a `url` service started by hand
   * needs it as AGENTCANVAS_EXECUTOR_URL. Null until the server listens.
   */
  executor_url: z.string().nullable().default(null),
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

/** The reference's nodesets name their colours (Tailwind's palette, shade 500): `sky` → `#0ea5e9`. */
const NAMED_COLORS: Record<string, string> = {
  sky: '#0ea5e9',
  blue: '#3b82f6',
  indigo: '#6366f1',
  violet: '#8b5cf6',
  purple: '#a855f7',
  fuchsia: '#d946ef',
  pink: '#ec4899',
  rose: '#f43f5e',
  red: '#ef4444',
  orange: '#f97316',
  amber: '#f59e0b',
  yellow: '#eab308',
  lime: '#84cc16',
  green: '#22c55e',
  emerald: '#10b981',
  teal: '#14b8a6',
  cyan: '#06b6d4',
  slate: '#64748b',
  gray: '#6b7280',
  zinc: '#71717a',
  neutral: '#737373',
  stone: '#78716c',
};

/** One catalog entry per manifest function, with its typed ports and config form. */
export function serviceFunctionSpec(service: string, fn: ServiceFunction): NodeSpecInput {
  const ui = fn.ui_config;
  const display =
    typeof ui.display_name === 'string' && ui.display_name
      ? ui.display_name
      : (fn.name.includes('__') ? fn.name.slice(fn.name.indexOf('__') + 2) : fn.name).replace(/_/g, ' ');
  const form = configFormOf(fn.config_schema, ui.config_fields);
  return {
    type: fn.name,
    display_name: display,
    description: fn.description,
    category: serviceCategory(service),
    icon: typeof ui.icon === 'string' ? ui.icon : 'server',
    kind: 'service',
    config_schema: form.schema,
    default_config: form.defaults,
    ui_config: {
      color: typeof ui.color === 'string' && ui.color ? (NAMED_COLORS[ui.color] ?? ui.color) : '#6366f1',
      layout: 'block',
      config_fields: form.names,
      display_fields: [],
    },
    input_ports: fn.input_ports,
    output_ports: fn.output_ports,
    docs: `${fn.description}\n\nServed by the node service **${service}** (\`POST /call/${fn.name}\`).`,
  };
}
