// All node services of one server (or one `statewire run`): connects to `url` entries, starts and
// supervises `command` entries (restarted once if they die), fetches manifests and registers one node
// type per function in the engine registry. A service that is down keeps its types registered (their
// handler says the service is unavailable), so graphs still validate and a run fails with a node error
// naming the service rather than "unknown type". Nothing here throws at the caller: every problem is
// a status with its last error. While the services are in use, `/health` is polled so a killed or
// hung service shows as down within seconds, and a `url` service that comes back is reconnected.
// ~480 lines: the lifecycle (start, reload, health, process exit) reads and replaces one runtime per
// service, and its paths only make sense side by side.
import type { ErrorEnvelope } from '../../domain/protocol/protocol.ts';
import {
  serviceFunctionSpec,
  type ManifestIssue,
  type ServiceManifest,
  type ServicesReport,
  type ServiceStatus,
} from '../../domain/services/manifest.ts';
import type { NodeRegistry } from '../../engine/registry.ts';
import { ServiceClient, ServiceError } from './serviceClient.ts';
import { ActiveCalls, serviceNodeHandler } from './serviceNode.ts';
import { freePort, ServiceProcess } from './serviceProcess.ts';
import { resolvePythonCommand, sdkHint } from './pythonCommand.ts';
import type { RunEventTarget, RunFinder } from './pushedEvents.ts';
import { ownedContainerPreviews, RunPreviews, type OwnedPreview, type Previews } from './servicePreviews.ts';
import type { ConfigError, ServiceEntry } from './servicesConfig.ts';

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
  /** Parts of the manifest left out, and functions refused (already served, would replace a built-in). */
  issues: ManifestIssue[];
  previews: RunPreviews;
  /** Bumped on every (re)connect, so a stale health poll cannot flip a newer state. */
  epoch: number;
  /** Health checks failed in a row while up and idle. */
  healthFailures: number;
}

export interface ServiceManagerOptions {
  /** The executor's base URL, passed to managed services (known once the server listens). */
  executorUrl?: () => string | undefined;
  /** Status or catalog changed. */
  onChange?: (report: ServicesReport) => void;
  /** A line a managed service printed. */
  onLine?: (service: string, stream: 'stdout' | 'stderr', line: string) => void;
  /**
   * The run a pushed event belongs to (by execution id, or the only live run for null). Without it,
   * the runs this manager's services are called from (registered by the sink wrapper) are used.
   */
  findRun?: RunFinder;
  /** Whether anyone uses the services now (an editor connected, a run live): health is polled meanwhile. */
  inUse?: () => boolean;
  /** Interval of that health poll (default 1 s; two failures in a row while idle mean down). */
  healthPollMs?: number;
}

/** Poll interval while a service starts. */
const STARTUP_POLL_MS = 150;
const HEALTH_TIMEOUT_MS = 1500;

export class ServiceManager {
  private runtimes = new Map<string, Runtime>();
  /** Who wants to know which services each run calls or evicts in (serviceSnapshots.ts). */
  private readonly touchListeners: Array<(runId: string, service: string) => void> = [];
  readonly active = new ActiveCalls((runId, service) => this.touched(runId, service));
  /** Evictions still in flight per run: a snapshot of the run waits for them (`evictionsDone`). */
  private readonly evicting = new Map<string, Set<Promise<unknown>>>();
  private closed = false;
  private healthTimer: NodeJS.Timeout | undefined;
  /** Runs that called through the sink wrapper and have not ended (the default `findRun`). */
  private readonly liveRuns = new Map<string, RunEventTarget>();

  constructor(
    private readonly registry: NodeRegistry,
    private entries: ServiceEntry[],
    private configErrors: ConfigError[],
    private readonly opts: ServiceManagerOptions = {},
  ) {}

  /** The run of an execution id (or the only live one for null), for pushed events. */
  readonly findRun: RunFinder = (executionId) => {
    if (this.opts.findRun) return this.opts.findRun(executionId);
    if (executionId !== null) return this.liveRuns.get(executionId);
    return this.liveRuns.size === 1 ? this.liveRuns.values().next().value : undefined;
  };

  /** A run started (sink wrapper); returns what to call when it ends. */
  trackRun(target: RunEventTarget): () => void {
    this.liveRuns.set(target.runId, target);
    return () => {
      if (this.liveRuns.get(target.runId) === target) this.liveRuns.delete(target.runId);
    };
  }

  /** The configured entries (as last loaded or reloaded). */
  get configured(): readonly ServiceEntry[] {
    return this.entries;
  }

  /** Connects or starts every service; resolves when each is up or down (never rejects). */
  async start(): Promise<void> {
    for (const e of this.entries) this.runtimes.set(e.name, this.newRuntime(e));
    this.changed();
    this.startHealthPoll();
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
        rt.epoch++;
        await rt.process?.stop();
        rt.client?.close();
        for (const t of rt.types) this.registry.unregister(t);
        this.runtimes.delete(name);
      }
    // Up: fetch the manifest again. Starting: its start is under way (a second would spawn a second
    // process). Down, or new: start or connect.
    const work: Promise<void>[] = [];
    for (const e of entries) {
      const rt = this.runtimes.get(e.name);
      if (!rt) {
        const fresh = this.newRuntime(e);
        this.runtimes.set(e.name, fresh);
        work.push(this.connect(fresh));
      } else
        work.push(
          rt.state === 'up'
            ? this.refetch(rt)
            : rt.state === 'starting'
              ? this.settled(rt)
              : this.connect(rt),
        );
    }
    this.changed();
    await Promise.all(work);
  }

  report(): ServicesReport {
    return {
      executor_url: this.opts.executorUrl?.() ?? null,
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
        issues: rt.issues,
        max_response_mb: rt.entry.max_response_mb,
        snapshot: rt.manifest?.snapshot ?? false,
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
    // Nodes whose service is not up are named together, once per service: a graph of twenty
    // nodes of one down service gets one sentence, not twenty.
    const waitingOn = new Map<Runtime, string[]>();
    for (const n of nodes) {
      const sep = n.type.indexOf('__');
      if (sep <= 0 || (this.registry.has(n.type) && !this.ownerOf(n.type))) continue;
      const name = n.type.slice(0, sep);
      const rt = this.runtimes.get(name);
      if (!rt) problems.push(notConfigured(n, name));
      else if (rt.state !== 'up') waitingOn.set(rt, [...(waitingOn.get(rt) ?? []), `'${n.id}'`]);
      else if (!rt.types.includes(n.type))
        problems.push(
          `node '${n.id}' (type ${n.type}): service '${name}' serves no function '${n.type}' (it serves ${rt.types.join(', ') || 'none'})`,
        );
    }
    for (const [rt, ids] of waitingOn)
      problems.push(
        `${ids.length === 1 ? `node ${ids[0]} needs` : `nodes ${ids.join(', ')} need`} node service '${rt.entry.name}', which is ${rt.state}${rt.error ? `: ${rt.error}` : ''}`,
      );
    return problems.length ? problems.join('; ') : null;
  }

  /**
   * Waits while a service `nodes` need is still starting (at most its startup timeout, plus the
   * manifest fetch), telling `onWaiting` once which ones it waits for. Resolves when none of them is
   * starting any more, whatever state they reached (`unavailable` then says what is wrong).
   */
  async waitForStarting(
    nodes: readonly { id: string; type: string }[],
    onWaiting: (services: string[]) => void = () => undefined,
  ): Promise<void> {
    const needed = new Set<Runtime>();
    for (const n of nodes) {
      const sep = n.type.indexOf('__');
      const rt = sep > 0 ? this.runtimes.get(n.type.slice(0, sep)) : undefined;
      if (rt && !(this.registry.has(n.type) && !this.ownerOf(n.type))) needed.add(rt);
    }
    const starting = () => [...needed].filter((rt) => rt.state === 'starting' && !this.closed);
    if (starting().length === 0) return;
    onWaiting(starting().map((rt) => rt.entry.name));
    const limit = Math.max(
      ...starting().map(
        (rt) => (rt.entry.kind === 'command' ? rt.entry.startup_timeout_s : 3) * 1000 + 15_000,
      ),
    );
    const deadline = Date.now() + limit;
    while (starting().length > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, STARTUP_POLL_MS));
  }

  /** Output lines of a managed service (the last 200). */
  logOf(name: string): string[] {
    return this.runtimes.get(name)?.process?.lines.slice() ?? [];
  }

  /** The service-owned container previews run `runId`'s calls answered with (`owner` = service). */
  ownedPreviews(runId: string): Record<string, OwnedPreview> {
    const out: Record<string, OwnedPreview> = {};
    for (const rt of this.runtimes.values())
      Object.assign(
        out,
        ownedContainerPreviews(rt.entry.name, rt.manifest?.containers ?? [], rt.previews.of(runId)),
      );
    return out;
  }

  hasOwnedContainers(): boolean {
    return [...this.runtimes.values()].some((rt) => (rt.manifest?.containers.length ?? 0) > 0);
  }

  /**
   * Per-episode cleanup of service-owned containers (`POST /containers/evict {key, execution_id}`):
   * with `runId`, only that run's partitions (services keep state per run) and the run's next
   * snapshot waits for it.
   */
  async evict(key: string, runId?: string): Promise<string[]> {
    const errors: string[] = [];
    const targets = [...this.runtimes.values()].filter(
      (rt) => rt.client && rt.state === 'up' && (rt.manifest?.containers.length ?? 0) > 0,
    );
    if (runId !== undefined) for (const rt of targets) this.touched(runId, rt.entry.name);
    const work = Promise.all(
      targets.map((rt) => rt.client!.evict(key, runId).catch((e: Error) => void errors.push(e.message))),
    );
    if (runId !== undefined) {
      const set = this.evicting.get(runId) ?? new Set<Promise<unknown>>();
      this.evicting.set(runId, set);
      set.add(work);
      void work.then(() => {
        set.delete(work);
        if (set.size === 0 && this.evicting.get(runId) === set) this.evicting.delete(runId);
      });
    }
    await work;
    return errors;
  }

  /** Resolves once the evictions run `runId` started have been answered. */
  async evictionsDone(runId: string): Promise<void> {
    const set = this.evicting.get(runId);
    if (set) await Promise.all(set);
  }

  /** `listener(runId, service)` on every call a run makes and every eviction in its name. */
  onTouch(listener: (runId: string, service: string) => void): void {
    this.touchListeners.push(listener);
  }

  private touched(runId: string, service: string): void {
    for (const l of this.touchListeners) l(runId, service);
  }

  /**
   * The client of a service that is up, and whether its manifest offers snapshots; or why there is
   * none (not configured, not up).
   */
  snapshotTarget(name: string): { client: ServiceClient; snapshot: boolean } | { down: string } {
    const rt = this.runtimes.get(name);
    if (!rt) return { down: 'it is no longer configured' };
    if (rt.state !== 'up' || !rt.client)
      return { down: `it is ${rt.state}${rt.error ? ` (${rt.error})` : ''}` };
    return { client: rt.client, snapshot: rt.manifest?.snapshot === true };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.healthTimer);
    await Promise.all([...this.runtimes.values()].map((rt) => rt.process?.stop()));
    for (const rt of this.runtimes.values()) rt.client?.close();
  }

  /** For a synchronous exit path: kill managed processes without waiting. */
  killAll(): void {
    clearInterval(this.healthTimer);
    for (const rt of this.runtimes.values()) rt.process?.killNow();
  }

  /** An event for `runId`'s log, from the server itself (e.g. "waiting for service X"). */
  emitTo(runId: string | null, event: ErrorEnvelope): boolean {
    const target = this.findRun(runId);
    target?.emit(event);
    return target !== undefined;
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
      issues: [],
      previews: new RunPreviews(),
      epoch: 0,
      healthFailures: 0,
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
          { name: e.name, command: resolvePythonCommand(e.command).argv, cwd: e.cwdAbs, env },
          (stream, line) => this.opts.onLine?.(e.name, stream, line),
          (why) => void this.onProcessExit(rt, why),
        );
        await rt.process.start(port);
        rt.url = `http://127.0.0.1:${port}`;
      }
      rt.client?.close();
      rt.client = new ServiceClient(e.name, rt.url!, e.encoding, e.timeout_s * 1000, e.max_response_mb);
      await this.waitHealthy(rt, epoch, e.kind === 'command' ? e.startup_timeout_s * 1000 : 3000);
      if (epoch !== rt.epoch || this.closed) return;
      await this.refetch(rt);
    } catch (err) {
      if (epoch !== rt.epoch) return;
      if (e.kind === 'command') await rt.process?.stop();
      this.down(rt, (err as Error).message);
    }
  }

  /** Resolves once `rt` is no longer starting (its start under way ends up or down). */
  private async settled(rt: Runtime): Promise<void> {
    while (rt.state === 'starting' && !this.closed) await new Promise((r) => setTimeout(r, STARTUP_POLL_MS));
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
      if (rt.entry.kind === 'command' && !rt.process?.pid) {
        const hint = sdkHint(rt.entry.command, rt.process?.lines ?? []);
        throw new ServiceError(
          `service '${rt.entry.name}' process ended before it was healthy: ${hint ?? tail(rt)}`,
        );
      }
      if (Date.now() >= deadline)
        throw new ServiceError(
          `service '${rt.entry.name}' not healthy within ${Math.round(timeoutMs / 1000)} s (${last})${rt.entry.kind === 'command' ? `: ${tail(rt)}` : ''}`,
        );
      await new Promise((r) => setTimeout(r, STARTUP_POLL_MS));
    }
  }

  /**
   * While the services are in use, each `url` service and each running `command` service is asked
   * for `/health`: two failures in a row while no call to it is in flight (a single-threaded service
   * may not answer while it computes) make it down; a down `url` service that answers again is
   * reconnected. A managed process that dies is seen at once by its exit (onProcessExit).
   */
  private startHealthPoll(): void {
    const every = this.opts.healthPollMs ?? 1000;
    this.healthTimer = setInterval(() => {
      if (this.closed || (this.opts.inUse && !this.opts.inUse())) return;
      for (const rt of this.runtimes.values()) void this.checkHealth(rt);
    }, every);
    this.healthTimer.unref();
  }

  private checking = new Set<Runtime>();

  private async checkHealth(rt: Runtime): Promise<void> {
    const idleDown = rt.state === 'down' && rt.entry.kind === 'url';
    if ((rt.state !== 'up' && !idleDown) || !rt.client || this.checking.has(rt)) return;
    this.checking.add(rt);
    const epoch = rt.epoch;
    try {
      await rt.client.health(HEALTH_TIMEOUT_MS);
      if (epoch !== rt.epoch) return;
      rt.healthFailures = 0;
      if (idleDown) void this.connect(rt);
    } catch (e) {
      if (epoch !== rt.epoch || rt.state !== 'up' || this.active.busy(rt.entry.name)) return;
      if (++rt.healthFailures >= 2) {
        rt.healthFailures = 0;
        this.down(rt, `health check failed: ${(e as Error).message}`);
      }
    } finally {
      this.checking.delete(rt);
    }
  }

  /** Fetches the manifest and (re)registers the service's node types. */
  private async refetch(rt: Runtime): Promise<void> {
    try {
      const { manifest, issues } = await rt.client!.manifest();
      for (const t of rt.types) this.registry.unregister(t);
      const types: string[] = [];
      const refused: ManifestIssue[] = [];
      manifest.functions.forEach((fn, i) => {
        const owner = this.ownerOf(fn.name);
        const refuse = (message: string) =>
          refused.push({
            path: `$.functions[${i}].name`,
            message: `function skipped: ${message}`,
            function: fn.name,
          });
        if (owner && owner !== rt.entry.name) return refuse(`'${fn.name}' is already served by '${owner}'`);
        if (this.registry.has(fn.name) && !rt.types.includes(fn.name))
          return refuse(`'${fn.name}' would replace a built-in or plugin type`);
        const binding = {
          name: rt.entry.name,
          client: () =>
            rt.state === 'up' && rt.client ? rt.client : { down: rt.error ?? `state ${rt.state}` },
          executorUrl: () => this.opts.executorUrl?.(),
          onPreviews: (runId: string, p: Previews) => rt.previews.merge(runId, p),
        };
        this.registry.register(
          serviceFunctionSpec(rt.entry.name, fn),
          serviceNodeHandler(binding, fn, this.active),
        );
        types.push(fn.name);
      });
      rt.manifest = manifest;
      rt.types = types;
      rt.issues = [...issues, ...refused].map((i) => ({
        ...i,
        message: `service '${rt.entry.name}'${i.function ? ` function '${i.function}'` : ''}: ${i.message}`,
      }));
      rt.state = 'up';
      rt.error = null;
      rt.healthFailures = 0;
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
    // Ended while starting: the startup wait reports it (with its output); restarting would fail alike.
    if (this.closed || rt.state === 'starting') return;
    const msg = `service '${rt.entry.name}' process ${why}`;
    if (rt.restarts >= 1)
      return this.down(rt, `${msg} (already restarted once; use Reload services): ${tail(rt)}`);
    rt.restarts += 1;
    // Down first (with why), so the report and the health dot show it; then starting again.
    this.down(rt, `${msg}; restarting`);
    await this.connect(rt);
  }
}

/** Why node `n` cannot run: its type's service is not configured at all. */
export function notConfigured(n: { id: string; type: string }, service: string): string {
  return `node '${n.id}' (type ${n.type}) needs node service '${service}', which is not configured (add it to workspace/services.json or pass --service ${service}=URL)`;
}

function tail(rt: Runtime): string {
  const lines = rt.process?.lines.filter((l) => l.trim()) ?? [];
  return lines.length ? lines.slice(-3).join(' | ') : '(no output)';
}
