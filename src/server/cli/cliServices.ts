// Node services for the headless commands (`statewire run`, `check`, `test`): the same sources as
// `serve` — the workspace's services.json (the workspace of a graph file is the folder that holds its
// `graphs/` folder, else the parent of the file's folder), `--services FILE`, `--service NAME=URL` —
// started on the command's registry, with the executor endpoints services call back to (on
// `--executor-port N` when given, so a `url` service started by hand can be told the address
// beforehand). Nothing is started unless a graph needs a configured service.
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { nodesetOfType } from '../../domain/services/manifest.ts';
import type { NodeRegistry } from '../../engine/registry.ts';
import { startExecutorEndpoints } from '../services/executorEndpoints.ts';
import { allNodes } from '../services/serviceEvents.ts';
import { notConfigured, ServiceManager } from '../services/serviceManager.ts';
import { loadServicesConfig, type ServicesConfig } from '../services/servicesConfig.ts';

export interface ServiceOptions {
  /** `--service NAME=URL` flags. */
  flags: string[];
  /** `--services FILE`. */
  file?: string;
  /** `--executor-port N`. */
  executorPort?: number;
}

/** The workspace a graph file belongs to: the parent of the nearest `graphs` folder above it. */
export function workspaceOfFile(file: string): string {
  const dir = dirname(resolve(file));
  for (let d = dir; dirname(d) !== d; d = dirname(d)) if (basename(d) === 'graphs') return dirname(d);
  return dirname(dir);
}

/** Parses `--executor-port N` (1–65535). */
export function parseExecutorPort(v: string | undefined): number | string {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 && n <= 65535 ? n : '--executor-port needs a port number (1–65535)';
}

/** Whether the graph has a node of a configured service (composites included). */
export function needsServices(graph: GraphDef, cfg: ServicesConfig): boolean {
  const names = new Set(cfg.entries.map((e) => e.name));
  return names.size > 0 && allNodes(graph).some((n) => names.has(nodesetOfType(n.type) ?? ''));
}

export interface CliServices {
  services: ServiceManager;
  config: ServicesConfig;
  executorUrl: string | undefined;
  close(): Promise<void>;
}

/**
 * Starts the executor endpoints, then the configured services on `registry` without waiting for
 * them: a caller waits with `services.waitForStarting(nodes, say)` for those its graph needs, saying
 * so. `log` gets the services' output lines.
 */
export async function startCliServices(
  registry: NodeRegistry,
  config: ServicesConfig,
  opts: ServiceOptions,
  log: (line: string) => void,
): Promise<CliServices> {
  const endpoints: { url?: string; close?: () => Promise<void> } = {};
  const services = new ServiceManager(registry, config.entries, config.errors, {
    executorUrl: () => endpoints.url,
    onLine: (name, stream, line) => log(`[service ${name}${stream === 'stderr' ? ' stderr' : ''}] ${line}`),
  });
  try {
    if (config.entries.length || opts.executorPort !== undefined)
      Object.assign(endpoints, await startExecutorEndpoints(services, opts.executorPort));
  } catch (e) {
    await services.close();
    throw new Error(
      `cannot listen for service callbacks on 127.0.0.1:${opts.executorPort ?? 0}: ${(e as Error).message}`,
      { cause: e },
    );
  }
  const starting = services.start();
  return {
    services,
    config,
    executorUrl: endpoints.url,
    close: async () => {
      await services.close();
      await starting;
      await endpoints.close?.();
    },
  };
}

/** The services configuration a graph file is run with (its workspace's file, or `--services`). */
export function cliServicesConfig(graphFile: string, opts: ServiceOptions): ServicesConfig {
  const ws = workspaceOfFile(graphFile);
  const file = opts.file ?? (existsSync(join(ws, 'services.json')) ? join(ws, 'services.json') : undefined);
  return loadServicesConfig(ws, opts.flags, file);
}

/**
 * Services started once per configuration and registry, for commands that handle many graphs (check,
 * test): the first graph that needs one starts them; the others reuse them.
 */
export class CliServicesPool {
  private readonly started = new Map<NodeRegistry, Map<string, Promise<CliServices>>>();

  constructor(
    private readonly opts: ServiceOptions,
    private readonly log: (line: string) => void,
  ) {}

  /** The services for `graph` (of file `graphFile`) on `registry`, or null when it needs none. */
  async for(graph: GraphDef, graphFile: string, registry: NodeRegistry): Promise<CliServices | null> {
    const config = cliServicesConfig(graphFile, this.opts);
    if (!needsServices(graph, config)) return null;
    const key = config.file ?? '';
    let byFile = this.started.get(registry);
    if (!byFile) this.started.set(registry, (byFile = new Map()));
    let s = byFile.get(key);
    if (!s) {
      for (const e of config.errors) this.log(`services ${e.path}: ${e.message}`);
      byFile.set(key, (s = startCliServices(registry, config, this.opts, this.log)));
    }
    return s;
  }

  async close(): Promise<void> {
    const all = await Promise.allSettled([...this.started.values()].flatMap((m) => [...m.values()]));
    await Promise.all(all.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
  }
}

/**
 * Why `graph` cannot run here as far as node services go: a node of a `<nodeset>__<fn>` type that no
 * built-in, plugin or configured service provides (its service is not configured), or a configured
 * service that is not up or does not serve the type. Null when nothing is missing.
 */
export function serviceProblems(
  graph: GraphDef,
  registry: NodeRegistry,
  started: CliServices | null,
): string | null {
  const nodes = allNodes(graph);
  const configured = new Set(started?.config.entries.map((e) => e.name) ?? []);
  const unknown = nodes.flatMap((n) => {
    const ns = nodesetOfType(n.type);
    return ns && !configured.has(ns) && !registry.has(n.type) ? [notConfigured(n, ns)] : [];
  });
  const down = started?.services.unavailable(
    nodes.filter((n) => configured.has(nodesetOfType(n.type) ?? '')),
  );
  const all = [...unknown, ...(down ? [down] : [])];
  return all.length ? all.join('; ') : null;
}
