// HTTP client for one node service (docs/node-services-protocol.md): /health, /manifest, /call/{fn},
// /containers/evict, /snapshot and /restore. Every failure becomes a ServiceError whose message names the service, what was
// asked and what the service said — the node error a user reads. The transport (keep-alive, the
// answer-size cap, deadlines) is serviceHttp.ts.
import {
  parseServiceManifest,
  type ManifestIssue,
  type ServiceManifest,
} from '../../domain/services/manifest.ts';
import { ServiceTransport, TransportError } from './serviceHttp.ts';
import {
  CONTENT_TYPE,
  decodeMsgpack,
  encodeMsgpack,
  fromJsonWire,
  pngStringToArray,
  toJsonWire,
  type Encoding,
} from './wireCodec.ts';

export class ServiceError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface CallRequest {
  inputs: Record<string, unknown>;
  config: Record<string, unknown>;
  _exec?: {
    execution_id: string;
    grants: string[];
    node_id?: string;
    step?: number;
    /** The call's idempotency key (engine/effects.ts): the same key again means the same call, re-sent. */
    call_id?: string;
    executor_url?: string;
  };
}

export interface CallAnswer {
  outputs: Record<string, unknown>;
  containers?: Record<string, { label?: string; states?: Record<string, unknown> }>;
  firelist?: { specs: unknown[]; spawner_outputs?: Record<string, unknown>; aggregator?: unknown };
}

/** The service's own words from an error body: FastAPI's `detail`, our `{error:{message}}`, or text. */
function errorText(body: unknown, raw: string): string {
  if (typeof body === 'object' && body !== null) {
    const o = body as Record<string, unknown>;
    if (typeof o.detail === 'string') return o.detail;
    if (o.detail !== undefined) return JSON.stringify(o.detail);
    const e = o.error as Record<string, unknown> | string | undefined;
    if (typeof e === 'string') return e;
    if (e && typeof e.message === 'string') return e.message;
  }
  return raw.slice(0, 500) || '(empty body)';
}

/** Default cap on one answer's size (`max_response_mb` in services.json). */
export const DEFAULT_MAX_RESPONSE_MB = 64;

export class ServiceClient {
  private readonly transport: ServiceTransport;

  constructor(
    readonly name: string,
    readonly baseUrl: string,
    readonly encoding: Encoding,
    readonly timeoutMs: number,
    readonly maxResponseMb: number = DEFAULT_MAX_RESPONSE_MB,
  ) {
    this.transport = new ServiceTransport(baseUrl, maxResponseMb * 1024 * 1024);
  }

  /** Drops the kept-alive connections (the service is gone or replaced). */
  close(): void {
    this.transport.close();
  }

  private async request(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    encoding: Encoding,
    timeoutMs: number,
    what: string,
    /** The caller gave up (its run was stopped): the request is aborted at once. */
    cancel?: AbortSignal,
  ): Promise<unknown> {
    const headers: Record<string, string> = { accept: CONTENT_TYPE[encoding] };
    let payload: Uint8Array | undefined;
    if (body !== undefined) {
      headers['content-type'] = CONTENT_TYPE[encoding];
      payload = encoding === 'msgpack' ? encodeMsgpack(body) : Buffer.from(JSON.stringify(body));
    }
    let res;
    try {
      res = await this.transport.send(method, path, headers, payload, timeoutMs, cancel);
    } catch (e) {
      if (e instanceof TransportError) throw new ServiceError(`service '${this.name}' ${what}: ${e.message}`);
      throw e;
    }
    const ok = res.status >= 200 && res.status < 300;
    let decoded: unknown;
    let raw = '';
    try {
      if (res.contentType.includes('msgpack')) decoded = decodeMsgpack(res.body);
      else {
        raw = res.body.toString('utf8');
        decoded = raw ? fromJsonWire(JSON.parse(raw)) : undefined;
      }
    } catch (e) {
      if (ok)
        throw new ServiceError(`service '${this.name}' ${what}: unreadable answer (${(e as Error).message})`);
    }
    if (!ok)
      throw new ServiceError(
        `service '${this.name}' ${what}: HTTP ${res.status}: ${errorText(decoded, raw)}`,
        res.status,
      );
    return decoded;
  }

  async health(timeoutMs = 2000): Promise<{ status?: string; name?: string; version?: string }> {
    const r = await this.request('GET', '/health', undefined, 'json', timeoutMs, 'health check');
    return (typeof r === 'object' && r !== null ? r : {}) as { status?: string };
  }

  /** The manifest, with the parts left out (a malformed function…) as issues; throws only when unusable. */
  async manifest(): Promise<{ manifest: ServiceManifest; issues: ManifestIssue[] }> {
    const r = await this.request('GET', '/manifest', undefined, 'json', 10_000, 'manifest');
    const parsed = parseServiceManifest(r);
    if (!parsed.ok) throw new ServiceError(`service '${this.name}' manifest: ${parsed.error}`);
    return { manifest: parsed.manifest, issues: parsed.issues };
  }

  /**
   * Posts `/call/{fn}`. `imageInputs`/`imageOutputs` name the IMAGE ports, whose arrays travel as PNG in
   * the JSON encoding.
   */
  async call(
    fn: string,
    req: CallRequest,
    imageInputs: ReadonlySet<string>,
    imageOutputs: ReadonlySet<string>,
    cancel?: AbortSignal,
  ): Promise<CallAnswer> {
    const what = `function '${fn}'`;
    let body: unknown = req;
    if (this.encoding === 'json')
      try {
        body = {
          ...req,
          inputs: Object.fromEntries(
            Object.entries(req.inputs).map(([k, v]) => [k, toJsonWire(v, imageInputs.has(k), `inputs.${k}`)]),
          ),
          config: toJsonWire(req.config, false, 'config'),
        };
      } catch (e) {
        throw new ServiceError(`service '${this.name}' ${what}: ${(e as Error).message}`);
      }
    const r = await this.request(
      'POST',
      `/call/${encodeURIComponent(fn)}`,
      body,
      this.encoding,
      this.timeoutMs,
      what,
      cancel,
    );
    if (typeof r !== 'object' || r === null)
      throw new ServiceError(`service '${this.name}' ${what}: answer is not an object`);
    const o = r as Record<string, unknown>;
    if ('__firelist__' in o) {
      const fl = o.__firelist__ as CallAnswer['firelist'];
      if (!fl || !Array.isArray(fl.specs))
        throw new ServiceError(`service '${this.name}' ${what}: __firelist__ needs a "specs" list`);
      return { outputs: {}, firelist: fl, containers: o.containers as CallAnswer['containers'] };
    }
    const outputs = o.outputs;
    if (typeof outputs !== 'object' || outputs === null || Array.isArray(outputs))
      throw new ServiceError(`service '${this.name}' ${what}: answer has no "outputs" object`);
    const out = { ...(outputs as Record<string, unknown>) };
    if (this.encoding === 'json')
      for (const port of imageOutputs)
        if (typeof out[port] === 'string')
          try {
            out[port] = pngStringToArray(out[port] as string);
          } catch (e) {
            throw new ServiceError(
              `service '${this.name}' ${what}: output '${port}' is not a base64 PNG (${(e as Error).message})`,
            );
          }
    return { outputs: out, containers: o.containers as CallAnswer['containers'] };
  }

  /** `executionId`: the run whose partitions go (the SDK keeps state per run); absent, every run's. */
  async evict(key: string, executionId?: string): Promise<void> {
    const body = executionId === undefined ? { key } : { key, execution_id: executionId };
    await this.request('POST', '/containers/evict', body, 'json', 10_000, `evict '${key}'`);
  }

  /**
   * `POST /snapshot`: the opaque bytes of run `executionId`'s state in the service. Always msgpack
   * (the blob is binary whatever the service's encoding for calls).
   */
  async snapshot(executionId: string): Promise<Uint8Array> {
    const what = `snapshot of run ${executionId}`;
    const r = await this.request(
      'POST',
      '/snapshot',
      { execution_id: executionId },
      'msgpack',
      this.timeoutMs,
      what,
    );
    const blob = (r as { snapshot?: unknown } | null)?.snapshot;
    if (!(blob instanceof Uint8Array))
      throw new ServiceError(`service '${this.name}' ${what}: answer has no "snapshot" bytes`);
    return blob;
  }

  /** `POST /restore`: run `executionId`'s state becomes `snapshot` (null: fresh, as before its first call). */
  async restore(executionId: string, snapshot: Uint8Array | null): Promise<void> {
    await this.request(
      'POST',
      '/restore',
      { execution_id: executionId, snapshot },
      'msgpack',
      this.timeoutMs,
      `restore of run ${executionId}`,
    );
  }
}
