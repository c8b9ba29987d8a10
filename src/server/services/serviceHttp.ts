// The transport under ServiceClient: one keep-alive agent per service (a run calls the same service
// thousands of times; a new TCP connection per call costs more than the call), a deadline for the
// whole exchange, and a cap on the answer's size that is enforced while it streams in (a service
// answering 500 MB must not take the server's memory with it). Every failure is a TransportError
// whose text says what happened in words a user can act on: unreachable, no answer in time, answer
// over the cap, answer cut off after N bytes.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export class TransportError extends Error {
  constructor(
    message: string,
    /**
     * `unreachable` before any answer, `timeout`, `too-large`, `broken` once the answer started,
     * `cancelled` when the caller gave up (its run was stopped).
     */
    readonly kind: 'unreachable' | 'timeout' | 'too-large' | 'broken' | 'cancelled',
  ) {
    super(message);
  }
}

export interface RawAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

const MB = 1024 * 1024;

/**
 * Idle keep-alive sockets are dropped after this long: below uvicorn's default keep-alive of 5 s, so
 * we close an idle connection before the service does (a request written onto a socket the peer is
 * closing fails with ECONNRESET; the one retry below covers the remaining race).
 */
const IDLE_SOCKET_MS = 4000;

export class ServiceTransport {
  private readonly agent: HttpAgent;
  private readonly base: URL;
  /** The base URL's path, ending in '/' (a service may live under a prefix). */
  private readonly basePath: string;
  private readonly hostname: string;

  constructor(
    baseUrl: string,
    /** Largest answer body accepted, in bytes. */
    readonly maxResponseBytes: number,
  ) {
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    this.basePath = this.base.pathname;
    this.hostname = this.base.hostname.replace(/^\[(.*)\]$/, '$1'); // an IPv6 literal without its brackets
    const opts = { keepAlive: true, maxSockets: 32, maxFreeSockets: 8, timeout: IDLE_SOCKET_MS };
    this.agent = this.base.protocol === 'https:' ? new HttpsAgent(opts) : new HttpAgent(opts);
  }

  /** Sends one request; resolves with the whole answer, whatever its status. */
  async send(
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body: Uint8Array | undefined,
    timeoutMs: number,
    /** Aborts the exchange at once (a stopped run does not wait for its call's timeout). */
    cancel?: AbortSignal,
  ): Promise<RawAnswer> {
    const deadline = Date.now() + timeoutMs;
    try {
      return await this.once(method, path, headers, body, deadline, timeoutMs, cancel);
    } catch (e) {
      // A kept-alive socket the service closed meanwhile: the request never reached it, send it again.
      if ((e as { staleSocket?: boolean }).staleSocket && Date.now() < deadline && !cancel?.aborted)
        return this.once(method, path, headers, body, deadline, timeoutMs, cancel);
      throw e;
    }
  }

  close(): void {
    this.agent.destroy();
  }

  private once(
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body: Uint8Array | undefined,
    deadline: number,
    timeoutMs: number,
    cancel: AbortSignal | undefined,
  ): Promise<RawAnswer> {
    const send = this.base.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<RawAnswer>((resolve, reject) => {
      let settled = false;
      let answered = false;
      let received = 0;
      const onCancel = () => fail(new TransportError('cancelled (the run was stopped)', 'cancelled'));
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        cancel?.removeEventListener('abort', onCancel);
        req.destroy();
        reject(err);
      };
      // Plain options, not a URL: Node turns a URL into these on every request.
      const req = send({
        protocol: this.base.protocol,
        hostname: this.hostname,
        port: this.base.port,
        path: this.basePath + path.replace(/^\//, ''),
        method,
        agent: this.agent,
        headers: body ? { ...headers, 'content-length': String(body.byteLength) } : headers,
      });
      const timer = setTimeout(
        () =>
          fail(
            new TransportError(
              answered
                ? `answer cut off: no more bytes within ${timeoutMs / 1000} s (${received} bytes received)`
                : `no answer within ${timeoutMs / 1000} s`,
              'timeout',
            ),
          ),
        Math.max(0, deadline - Date.now()),
      );
      if (cancel?.aborted) return onCancel();
      cancel?.addEventListener('abort', onCancel, { once: true });
      req.on('error', (e: NodeJS.ErrnoException) => {
        if (answered)
          return fail(
            new TransportError(`answer cut off after ${received} bytes (${e.code ?? e.message})`, 'broken'),
          );
        const err = new TransportError(
          `cannot reach ${this.base.origin} (${e.code ?? e.message})`,
          'unreachable',
        );
        if (req.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE'))
          Object.assign(err, { staleSocket: true });
        fail(err);
      });
      req.on('response', (res: IncomingMessage) => {
        answered = true;
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > this.maxResponseBytes)
          return fail(this.tooLarge(`it declares ${declared} bytes`));
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > this.maxResponseBytes)
            return fail(this.tooLarge(`more than ${received} bytes so far`));
          chunks.push(chunk);
        });
        res.on('aborted', () =>
          fail(
            new TransportError(
              `answer cut off after ${received} bytes (the service closed the connection)`,
              'broken',
            ),
          ),
        );
        res.on('error', (e: NodeJS.ErrnoException) =>
          fail(
            new TransportError(`answer cut off after ${received} bytes (${e.code ?? e.message})`, 'broken'),
          ),
        );
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          cancel?.removeEventListener('abort', onCancel);
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received),
          });
        });
      });
      req.end(body);
    });
  }

  private tooLarge(what: string): TransportError {
    const mb = this.maxResponseBytes / MB;
    return new TransportError(
      `answer larger than ${+mb.toFixed(3)} MB (${what}); raise "max_response_mb" for this service in services.json if that is expected`,
      'too-large',
    );
  }
}
