// HTTP client for one node service (NODE-SERVICES.md): /health, /manifest, /call/{fn},
// /containers/evict. Every failure becomes a ServiceError whose message names the service, what was
// asked and what the service said — the node error a user reads.
import { ServiceManifestSchema, type ServiceManifest } from '../../domain/services/manifest.ts';
import { jsonPath } from '../../domain/validate/issues.ts';
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
  _exec?: { execution_id: string; grants: string[]; node_id?: string; step?: number; executor_url?: string };
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

export class ServiceClient {
  constructor(
    readonly name: string,
    readonly baseUrl: string,
    readonly encoding: Encoding,
    readonly timeoutMs: number,
  ) {}

  private url(path: string) {
    return `${this.baseUrl.replace(/\/$/, '')}${path}`;
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
    let res: Response;
    const headers: Record<string, string> = { accept: CONTENT_TYPE[encoding] };
    let payload: BodyInit | undefined;
    if (body !== undefined) {
      headers['content-type'] = CONTENT_TYPE[encoding];
      payload = encoding === 'msgpack' ? Buffer.from(encodeMsgpack(body)) : JSON.stringify(body);
    }
    try {
      res = await fetch(this.url(path), {
        method,
        headers,
        body: payload,
        signal: cancel
          ? AbortSignal.any([AbortSignal.timeout(timeoutMs), cancel])
          : AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const err = e as Error & { cause?: { code?: string; message?: string } };
      if (cancel?.aborted)
        throw new ServiceError(`service '${this.name}' ${what}: cancelled (the run was stopped)`);
      if (err.name === 'TimeoutError')
        throw new ServiceError(`service '${this.name}' ${what}: no answer within ${timeoutMs / 1000} s`);
      const cause = err.cause?.code ?? err.cause?.message ?? err.message;
      throw new ServiceError(`service '${this.name}' ${what}: cannot reach ${this.baseUrl} (${cause})`);
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    let decoded: unknown;
    let raw = '';
    try {
      if (type.includes('msgpack')) decoded = decodeMsgpack(bytes);
      else {
        raw = Buffer.from(bytes).toString('utf8');
        decoded = raw ? fromJsonWire(JSON.parse(raw)) : undefined;
      }
    } catch (e) {
      if (res.ok)
        throw new ServiceError(`service '${this.name}' ${what}: unreadable answer (${(e as Error).message})`);
    }
    if (!res.ok)
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

  async manifest(): Promise<ServiceManifest> {
    const r = await this.request('GET', '/manifest', undefined, 'json', 10_000, 'manifest');
    const parsed = ServiceManifestSchema.safeParse(r);
    if (!parsed.success) {
      const i = parsed.error.issues[0]!;
      throw new ServiceError(`service '${this.name}' manifest: ${jsonPath(i.path, '$')}: ${i.message}`);
    }
    return parsed.data;
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
      body = {
        ...req,
        inputs: Object.fromEntries(
          Object.entries(req.inputs).map(([k, v]) => [k, toJsonWire(v, imageInputs.has(k))]),
        ),
        config: toJsonWire(req.config),
      };
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
        if (typeof out[port] === 'string' && (out[port] as string).length > 16)
          try {
            out[port] = pngStringToArray(out[port] as string);
          } catch (e) {
            throw new ServiceError(
              `service '${this.name}' ${what}: output '${port}' is not a base64 PNG (${(e as Error).message})`,
            );
          }
    return { outputs: out, containers: o.containers as CallAnswer['containers'] };
  }

  async evict(key: string): Promise<void> {
    await this.request('POST', '/containers/evict', { key }, 'json', 10_000, `evict '${key}'`);
  }
}
