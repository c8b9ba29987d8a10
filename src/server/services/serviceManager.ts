// All node services of one server (or one `statewire run`): connects to `url` entries, starts and
// supervises `command` entries (restarted once if they die), fetches manifests and registers one node
// type per function in the engine registry. A service that is down keeps its types registered (their
// handler says the service is unavailable), so graphs still validate and a run fails with a node error
// naming the service rather than "unknown type". Nothing here throws at the caller: every problem is
// a status with its last error.
import {
  serviceFunctionSpec,
  type ServiceManifest,
  type ServicesReport,
  type ServiceStatus,
} from '../../domain/services/manifest.ts';
import type { NodeRegistry } from '../../engine/registry.ts';
import { ServiceClient, ServiceError } from './serviceClient.ts';
import { ActiveCalls, serviceNodeHandler } from './serviceNode.ts';
import { freePort, ServiceProcess } from './serviceProcess.ts';
import type { ConfigError, ServiceEntry } from './servicesConfig.ts';

type Previews = Record<string, { label?: string; states?: Record<string, unknown> }>;

interface Runtime {
  entry: ServiceEntry;
  state: ServiceStatus['state'];
  error: string | null;
  url: string | null;
  client: ServiceClient | null;
  manifest: ServiceManifest | null;
  process: ServiceProcess | null;
  restarts: number;
  types: string[];
  previews: Previews;
  /** Bumped on every (re)connect, so a stale health poll cannot flip a newer state. */
  epoch: number;
}

export interface ServiceManagerOptions {
  /** The executor's base URL, passed to managed services (known once the server listens). */
  executorUrl?: () => string | undefined;
  /** Status or catalog changed. */
  onChange?: (report: ServicesReport) => void;
  /** A line a managed service printed. */
  onLine?: (service: string, stream: 'stdout' | 'stderr', line: string) => void;
}

const HEALTH_POLL_MS = 150;

export class ServiceManager {
  private runtimes = new Map<string, Runtime>();
  readonly active = new ActiveCalls();
  private closed = false;

  constructor(
    private readonly registry: NodeRegistry,
    private entries: ServiceEntry[],
    private configErrors: ConfigError[],
    private readonly opts: ServiceManagerOptions = {},
  ) {}

  /** The configured entries (as last loaded or reloaded). */
  get configured(): readonly ServiceEntry[] {
    return this.entries;
  }

  /** Connects or starts every service; resolves when each is up or down (never rejects). */
  async start(): Promise<void> {
    for (const e of this.entries) this.runtimes.set(e.name, this.newRuntime(e));
    this.changed();
    await Promise.all([...this.runtimes.values()].map((rt) => this.connect(rt)));
  }

  /** Re-reads the given configuration: stops removed services, starts new ones, refetches manifests. */
  async reload(entries: ServiceEntry[], configErrors: ConfigError[]): Promise<void> {
    this.entries = entries;
    this.configErrors = configErrors;
    const keep = new Set(entries.map((e) => e.name));
    for (const [name, rt] of this.runtimes)
      if (
        !keep.has(name) ||
        JSON.stringify(rt.entry) !== JSON.stringify(entries.find((e) => e.name === name))
      ) {
        await rt.process?.stop();
        for (const t of rt.types) this.registry.unregister(t);
        this.runtimes.delete(name);
      }
    const todo: Runtime[] = [];
    for (const e of entries) {
      const rt = this.runtimes.get(e.name);
      if (rt) todo.push(rt);
      else {
        const fresh = this.newRuntime(e);
        this.runtimes.set(e.name, fresh);
        todo.push(fresh);
      }
    }
    this.changed();
    await Promise.all(
      todo.map((rt) => (rt.process && rt.state === 'up' ? this.refetch(rt) : this.connect(rt))),
    );
  }

  report(): ServicesReport {
    return {
      services: [...this.runtimes.values()].map((rt) => ({
        name: rt.entry.name,
        url: rt.url,
        managed: rt.entry.kind === 'command',
        encoding: rt.entry.encoding,
        state: rt.state,
        error: rt.error,
        version: rt.manifest?.version ?? '',
        description: rt.manifest?.description ?? '',
        types: rt.types,
        containers: rt.manifest?.containers ?? [],
        restarts: rt.restarts,
        pid: rt.process?.pid ?? null,
      })),
      config_errors: this.configErrors,
    };
  }

  /**
   * Why `graph` cannot run with the services as they are (a node type of a service that is not
   * configured, not up, or does not serve it), or null. Checked at run start, so a run never begins
   * only to fail at its first service node.
   */
  unavailable(nodes: readonly { id: string; type: string }[]): string | null {
    const problems: string[] = [];
    for (const n of nodes) {
      const sep = n.type.indexOf('__');
      if (sep <= 0 || (this.registry.has(n.type) && !this.ownerOf(n.type))) continue;
      const name = n.type.slice(0, sep);
      const rt = this.runtimes.get(name);
      if (!rt)
        problems.push(
          `node '${n.id}' (type ${n.type}) needs node service '${name}', which is not configured (add it to workspace/services.json or pass --service ${name}=URL)`,
        );
      else if (rt.state !== 'up')
        problems.push(
          `node '${n.id}' (type ${n.type}) needs node service '${name}', which is ${rt.state}${rt.error ? `: ${rt.error}` : ''}`,
        );
      else if (!rt.types.includes(n.type))
        problems.push(
          `node '${n.id}' (type ${n.type}): service '${name}' serves no function '${n.type}' (it serves ${rt.types.join(', ') || 'none'})`,
        );
    }
    return problems.length ? problems.join('; ') : null;
  }

  /** Output lines of a managed service (the last 200). */
  logOf(name: string): string[] {
    return this.runtimes.get(name)?.process?.lines.slice() ?? [];
  }

  /** Service-owned container previews for the next nav_step, with `owner` = service name. */
  ownedPreviews(): Record<string, { label: string; owner: string; states: Record<string, unknown> }> {
    const out: Record<string, { label: string; owner: string; states: Record<string, unknown> }> = {};
    for (const rt of this.runtimes.values())
      for (const [cid, p] of Object.entries(rt.previews)) {
        // The reference's previews carry no `lifetime`; take it from the manifest (default forever).
        const declared = rt.manifest?.containers.find((c) => c.id === cid)?.states ?? {};
        const states: Record<string, unknown> = {};
        for (const [slot, st] of Object.entries(p.states ?? {})) {
          const s = (typeof st === 'object' && st !== null ? st : {}) as Record<string, unknown>;
          const lifetime = s.lifetime ?? declared[slot]?.lifetime ?? 'forever';
          states[slot] = {
            type: declared[slot]?.type ?? 'lastWrite',
            value_type: declared[slot]?.value_type ?? 'ANY',
            ...s,
            lifetime,
          };
        }
        out[cid] = { label: p.label ?? cid, owner: rt.entry.name, states };
      }
    return out;
  }

  hasOwnedContainers(): boolean {
    return [...this.runtimes.values()].some((rt) => (rt.manifest?.containers.length ?? 0) > 0);
  }

  /** Per-episode cleanup of service-owned containers (`POST /containers/evict {key}`). */
  async evict(key: string): Promise<string[]> {
    const errors: string[] = [];
    await Promise.all(
      [...this.runtimes.values()]
        .filter((rt) => rt.client && rt.state === 'up' && (rt.manifest?.containers.length ?? 0) > 0)
        .map((rt) => rt.client!.evict(key).catch((e: Error) => void errors.push(e.message))),
    );
    return errors;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.runtimes.values()].map((rt) => rt.process?.stop()));
  }

  /** For a synchronous exit path: kill managed processes without waiting. */
  killAll(): void {
    for (const rt of this.runtimes.values()) rt.process?.killNow();
  }

  // ---- internals ----

  private newRuntime(entry: ServiceEntry): Runtime {
    return {
      entry,
      state: 'starting',
      error: null,
      url: entry.kind === 'url' ? entry.url : null,
      client: null,
      manifest: null,
      process: null,
      restarts: 0,
      types: [],
      previews: {},
      epoch: 0,
    };
  }

  private changed(): void {
    this.opts.onChange?.(this.report());
  }

  private down(rt: Runtime, error: string): void {
    rt.state = 'down';
    rt.error = error;
    this.changed();
  }

  private async connect(rt: Runtime): Promise<void> {
    const epoch = ++rt.epoch;
    rt.state = 'starting';
    rt.error = null;
    this.changed();
    const e = rt.entry;
    try {
      if (e.kind === 'command') {
        const port = await freePort();
        const exec = this.opts.executorUrl?.();
        const env: Record<string, string> = { ...e.env };
        if (exec) {
          env.STATEWIRE_EXECUTOR_URL = exec;
          env.AGENTCANVAS_EXECUTOR_URL = exec;
        }
        rt.process ??= new ServiceProcess(
          { name: e.name, command: e.command, cwd: e.cwdAbs, env },
          (stream, line) => this.opts.onLine?.(e.name, stream, line),
          (why) => void this.onProcessExit(rt, why),
        );
        await rt.process.start(port);
        rt.url = `http://127.0.0.1:${port}`;
      }
      rt.client = new ServiceClient(e.name, rt.url!, e.encoding, e.timeout_s * 1000);
      await this.waitHealthy(rt, epoch, e.kind === 'command' ? e.startup_timeout_s * 1000 : 3000);
      if (epoch !== rt.epoch || this.closed) return;
      await this.refetch(rt);
    } catch (err) {
      if (epoch !== rt.epoch) return;
      if (e.kind === 'command') await rt.process?.stop();
      this.down(rt, (err as Error).message);
    }
  }

  private async waitHealthy(rt: Runtime, epoch: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last: string;
    for (;;) {
      if (epoch !== rt.epoch || this.closed) return;
      try {
        const h = await rt.client!.health(Math.min(2000, Math.max(200, deadline - Date.now())));
        if (h.status === undefined || h.status === 'ok') return;
        last = `health status ${JSON.stringify(h.status)}`;
      } catch (e) {
        last = (e as Error).message;
      }
      if (rt.entry.kind === 'command' && !rt.process?.pid)
        throw new ServiceError(`service '${rt.entry.name}' process ended before it was healthy: ${tail(rt)}`);
      if (Date.now() >= deadline)
        throw new ServiceError(
          `service '${rt.entry.name}' not healthy within ${Math.round(timeoutMs / 1000)} s (${last})${rt.entry.kind === 'command' ? `: ${tail(rt)}` : ''}`,
        );
      await new Promise((r) => setTimeout(r, HEALTH_POLL_MS));
    }
  }

  /** Fetches the manifest and (re)registers the service's node types. */
  private async refetch(rt: Runtime): Promise<void> {
    try {
      const manifest = await rt.client!.manifest();
      for (const t of rt.types) this.registry.unregister(t);
      const types: string[] = [];
      const problems: string[] = [];
      for (const fn of manifest.functions) {
        const owner = this.ownerOf(fn.name);
        if (owner && owner !== rt.entry.name) {
          problems.push(`function '${fn.name}' is already served by '${owner}'`);
          continue;
        }
        if (this.registry.has(fn.name) && !rt.types.includes(fn.name)) {
          problems.push(`function '${fn.name}' would replace a built-in or plugin type`);
          continue;
        }
        const binding = {
          name: rt.entry.name,
          client: () =>
            rt.state === 'up' && rt.client ? rt.client : { down: rt.error ?? `state ${rt.state}` },
          executorUrl: () => this.opts.executorUrl?.(),
          onPreviews: (p: Previews) => {
            rt.previews = { ...rt.previews, ...p };
          },
        };
        this.registry.register(
          serviceFunctionSpec(rt.entry.name, fn),
          serviceNodeHandler(binding, fn, this.active),
        );
        types.push(fn.name);
      }
      rt.manifest = manifest;
      rt.types = types;
      rt.state = 'up';
      rt.error = problems.length ? problems.join('; ') : null;
      this.changed();
    } catch (e) {
      this.down(rt, (e as Error).message);
    }
  }

  private ownerOf(type: string): string | undefined {
    for (const rt of this.runtimes.values()) if (rt.types.includes(type)) return rt.entry.name;
    return undefined;
  }

  private async onProcessExit(rt: Runtime, why: string): Promise<void> {
    if (this.closed) return;
    const msg = `service '${rt.entry.name}' process ${why}`;
    if (rt.restarts >= 1)
      return this.down(rt, `${msg} (already restarted once; use Reload services): ${tail(rt)}`);
    rt.restarts += 1;
    rt.error = `${msg}; restarting`;
    await this.connect(rt);
  }
}

function tail(rt: Runtime): string {
  const lines = rt.process?.lines.filter((l) => l.trim()) ?? [];
  return lines.length ? lines.slice(-3).join(' | ') : '(no output)';
}
