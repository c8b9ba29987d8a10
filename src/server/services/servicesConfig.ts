// `workspace/services.json` and `--service NAME=URL` flags: which node services exist and how to reach
// or start them. Each entry is validated on its own, so one bad entry is reported (with its JSON path)
// and the others still start.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { jsonPath } from '../../domain/validate/issues.ts';

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

const Common = {
  name: z.string().regex(NAME, 'a name of letters, digits, _ and - (it prefixes node types: name__fn)'),
  /** `msgpack` (the reference's default) or `json`. */
  encoding: z.enum(['msgpack', 'json']).default('msgpack'),
  /** Per-call timeout. */
  timeout_s: z.number().positive().max(3600).default(60),
  /** Largest answer accepted from one call, in MB (a bigger one fails the node, naming this key). */
  max_response_mb: z.number().positive().max(4096).default(64),
};

export const UrlServiceSchema = z
  .object({
    ...Common,
    url: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//.test(u), 'must be an http:// or https:// URL'),
  })
  .strict();

export const CommandServiceSchema = z
  .object({
    ...Common,
    command: z.array(z.string()).min(1, 'needs the program and its arguments'),
    /** Working directory, relative to the folder of the services file. */
    cwd: z.string().optional(),
    env: z.record(z.string(), z.string()).default({}),
    startup_timeout_s: z.number().positive().max(3600).default(60),
    /** One process per batch worker (used by batch runs); default one shared process. */
    per_worker: z.boolean().default(false),
  })
  .strict();

export type UrlService = z.infer<typeof UrlServiceSchema>;
export type CommandService = z.infer<typeof CommandServiceSchema> & { cwdAbs: string };
export type ServiceEntry = (UrlService & { kind: 'url' }) | (CommandService & { kind: 'command' });

export interface ConfigError {
  path: string;
  message: string;
}

export interface ServicesConfig {
  entries: ServiceEntry[];
  errors: ConfigError[];
  /** The file read, when there was one. */
  file: string | null;
}

function zodErrors(err: z.ZodError, base: string): ConfigError[] {
  return err.issues.map((i) => ({ path: jsonPath(i.path, base), message: i.message }));
}

/** Parses one entry (an object with `url` xor `command`) found at JSON path `at`. */
export function parseServiceEntry(
  raw: unknown,
  at: string,
  baseDir: string,
): { entry?: ServiceEntry; errors: ConfigError[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { errors: [{ path: at, message: 'must be an object with "name" and "url" or "command"' }] };
  const o = raw as Record<string, unknown>;
  if ('url' in o && 'command' in o)
    return {
      errors: [{ path: at, message: 'give either "url" (a running service) or "command", not both' }],
    };
  if ('url' in o) {
    const r = UrlServiceSchema.safeParse(o);
    return r.success ? { entry: { ...r.data, kind: 'url' }, errors: [] } : { errors: zodErrors(r.error, at) };
  }
  if ('command' in o) {
    const r = CommandServiceSchema.safeParse(o);
    if (!r.success) return { errors: zodErrors(r.error, at) };
    // The services file is the user's own local configuration (like workspace/nodes plugins), never
    // something a graph or a REST call can write, so its commands and folders are trusted as given.
    const cwdAbs = resolve(baseDir, r.data.cwd ?? '.');
    if (!existsSync(cwdAbs))
      return {
        errors: [{ path: `${at}.cwd`, message: `folder ${JSON.stringify(r.data.cwd)} does not exist` }],
      };
    return { entry: { ...r.data, cwdAbs, kind: 'command' }, errors: [] };
  }
  return {
    errors: [{ path: at, message: 'needs "url" (a running service) or "command" (started by Statewire)' }],
  };
}

/** `toy=http://127.0.0.1:9200` → an entry; errors name the flag. */
export function parseServiceFlag(flag: string, index: number, workspace: string) {
  const eq = flag.indexOf('=');
  const at = `--service[${index}]`;
  if (eq <= 0) return { errors: [{ path: at, message: `expected NAME=URL, got ${JSON.stringify(flag)}` }] };
  return parseServiceEntry({ name: flag.slice(0, eq), url: flag.slice(eq + 1) }, at, workspace);
}

/** One services file's entries; `at` prefixes its JSON paths (to tell two files apart). */
function readServicesFile(path: string, at = ''): { entries: ServiceEntry[]; errors: ConfigError[] } {
  const errors: ConfigError[] = [];
  const byName = new Map<string, ServiceEntry>();
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    return {
      entries: [],
      errors: [{ path: `${at}$`, message: `services file is not valid JSON: ${(e as Error).message}` }],
    };
  }
  const list = (doc as { services?: unknown } | null)?.services;
  if (typeof doc !== 'object' || doc === null || !Array.isArray(list))
    return { entries: [], errors: [{ path: `${at}$.services`, message: 'must be a list of services' }] };
  list.forEach((raw, i) => {
    const r = parseServiceEntry(raw, `${at}$.services[${i}]`, dirname(path));
    errors.push(...r.errors);
    if (!r.entry) return;
    if (byName.has(r.entry.name))
      errors.push({
        path: `${at}$.services[${i}].name`,
        message: `duplicate service name '${r.entry.name}'`,
      });
    else byName.set(r.entry.name, r.entry);
  });
  return { entries: [...byName.values()], errors };
}

/**
 * Reads `<workspace>/services.json` (or `file` instead) and the flags. Flags win over file entries of
 * the same name; a duplicated name within a file is an error on the later entry. With
 * `alsoWorkspaceFile` (the server: "Reload services" re-reads the workspace's file whatever it was
 * started with), `file` comes on top of the workspace's file, its entries winning, its errors' paths
 * prefixed with its name.
 */
export function loadServicesConfig(
  workspace: string,
  flags: string[] = [],
  file?: string,
  alsoWorkspaceFile = false,
): ServicesConfig {
  const own = join(workspace, 'services.json');
  const path = file ? resolve(file) : own;
  const errors: ConfigError[] = [];
  const byName = new Map<string, ServiceEntry>();
  const add = (r: { entries: ServiceEntry[]; errors: ConfigError[] }) => {
    errors.push(...r.errors);
    for (const e of r.entries) byName.set(e.name, e);
  };
  const both = alsoWorkspaceFile && path !== resolve(own) && existsSync(own);
  if (both) add(readServicesFile(own));
  let read: string | null = null;
  if (existsSync(path)) {
    read = path;
    add(readServicesFile(path, both ? `${file}: ` : ''));
  } else if (file) errors.push({ path: '$', message: `services file ${path} does not exist` });
  flags.forEach((flag, i) => {
    const r = parseServiceFlag(flag, i, workspace);
    errors.push(...r.errors);
    if (r.entry) byName.set(r.entry.name, r.entry);
  });
  return { entries: [...byName.values()], errors, file: read };
}
