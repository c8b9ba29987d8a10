// Who may talk to this server. Three rules against other sites' pages in the user's own browser:
//   Host    every request (REST, the app, socket.io handshakes) must name this server: refuses a
//           DNS-rebinding page, which reaches 127.0.0.1 under the attacker's name (403 forbidden-host);
//   Origin  a state-changing request or a socket.io handshake that carries an Origin must come from
//           a page of this server: refuses another site's form/no-cors POST and its WebSocket, which
//           browsers send without a CORS preflight (403 forbidden-origin);
//   type    a state-changing request must say `Content-Type: application/json`: a cross-site page
//           cannot send that without a preflight, which this server never grants (415);
// plus a bearer token when the server is reachable from other machines (non-loopback bind) or
// `--token` was given (401 unauthorized). `--user-token NAME=TOKEN` adds tokens that also name their
// holder: the socket of whoever presents one is labelled NAME (`socket.data.tokenLabel`, shown to
// the others who have the same graph or run open: socket/presence.ts). The built app and its assets carry no data and are
// served without the token, so the page at `/?token=…` can load and keep it.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Server as SocketServer } from 'socket.io';
import {
  allowedHosts,
  isLoopback,
  parseHostHeader,
  parseHostPort,
  parseOrigin,
  type HostList,
  type HostPort,
} from './allowedHosts.ts';
import { ApiError, sendError } from '../errors/errors.ts';
import { BUNDLE_IMPORT_ROUTE, BUNDLE_MEDIA_TYPE } from '../../domain/protocol/runBundle.schema.ts';

export interface GuardOptions {
  /** `--allowed-host` entries: `name` (any port) or `name:port`. */
  allowedHosts?: readonly string[];
  /** `--token` / STATEWIRE_TOKEN; when set it is required even on loopback. */
  token?: string;
  /** `--user-token NAME=TOKEN`: more tokens, each naming whoever holds it. */
  userTokens?: readonly UserToken[];
}

/** A token that names its holder (`--user-token NAME=TOKEN`). */
export interface UserToken {
  label: string;
  token: string;
}

export const MIN_TOKEN_LENGTH = 16;

/** Validates `--allowed-host` entries; throws naming the bad one. */
export function parseAllowedHostEntries(entries: readonly string[]): HostPort[] {
  return entries.map((entry) => {
    const hp = parseHostPort(entry);
    if (!hp)
      throw new Error(
        `invalid --allowed-host ${JSON.stringify(entry)} (expected a host name or address, optionally :port, e.g. mybox.lan or [::1]:5177)`,
      );
    return hp;
  });
}

/** Why a token cannot be used, or undefined. It travels in URLs and headers: printable ASCII only. */
export function tokenProblem(token: string): string | undefined {
  if (token.length < MIN_TOKEN_LENGTH)
    return `must be at least ${MIN_TOKEN_LENGTH} characters (got ${token.length})`;
  if (!/^[\x21-\x7e]+$/.test(token)) return 'must be printable ASCII without spaces';
  return undefined;
}

const digest = (s: string) => createHash('sha256').update(s).digest();
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function bearer(authorization: string | undefined): string | undefined {
  const m = authorization === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return m?.[1];
}

export class OriginGuard {
  private hosts: HostList | undefined;
  private token: string | undefined;
  private readonly userTokens: readonly { label: string; digest: Buffer }[];
  private readonly extra: HostPort[];

  constructor(opts: GuardOptions = {}) {
    this.extra = parseAllowedHostEntries(opts.allowedHosts ?? []);
    if (opts.token !== undefined) {
      const problem = tokenProblem(opts.token);
      if (problem) throw new Error(`invalid token: ${problem}`);
    }
    this.token = opts.token;
    for (const u of opts.userTokens ?? []) {
      const problem = tokenProblem(u.token);
      if (problem) throw new Error(`invalid token of user ${JSON.stringify(u.label)}: ${problem}`);
    }
    this.userTokens = (opts.userTokens ?? []).map((u) => ({ label: u.label, digest: digest(u.token) }));
  }

  /**
   * Called once listening (the port of `--port 0` is known only then). Until then only in-process
   * `app.inject()` can reach the app, so the Host rule starts here. A non-loopback bind without a
   * token gets a random one. Returns the token in force (undefined = none required).
   */
  bind(address: string, port: number, configuredHost?: string): string | undefined {
    const interfaceAddresses = Object.values(networkInterfaces())
      .flat()
      .map((i) => i?.address)
      .filter((a): a is string => typeof a === 'string');
    this.hosts = allowedHosts({
      address,
      port,
      configuredHost,
      interfaceAddresses,
      hostname: hostname().toLowerCase(),
      extra: this.extra,
    });
    if (this.token === undefined && this.userTokens.length === 0 && !isLoopback(address))
      this.token = randomBytes(24).toString('base64url');
    return this.token;
  }

  get tokenRequired(): boolean {
    return this.token !== undefined || this.userTokens.length > 0;
  }

  hostError(host: string | undefined): ApiError | undefined {
    if (!this.hosts || this.hosts.allows(parseHostHeader(host))) return undefined;
    const name = host === undefined ? 'missing' : JSON.stringify(host);
    return new ApiError(
      403,
      'forbidden-host',
      `Host ${name} is not allowed: this server answers only to its bound address and localhost names` +
        ' (start it with --allowed-host NAME to accept another name)',
    );
  }

  originError(origin: string | undefined): ApiError | undefined {
    if (origin === undefined) return undefined; // curl, scripts, same-origin GETs: no Origin
    const hp = parseOrigin(origin);
    const ok = hp !== undefined && (this.hosts ? this.hosts.allows(hp) : isLoopback(hp.host));
    if (ok) return undefined;
    return new ApiError(
      403,
      'forbidden-origin',
      `Origin ${JSON.stringify(origin)} may not change anything here: only pages served by this server may`,
    );
  }

  tokenError(given: string | undefined): ApiError | undefined {
    return this.tokenHolder(given).error;
  }

  /** Whether `given` opens this server, and the label of the user token it is (if it is one). */
  tokenHolder(given: string | undefined): { error?: ApiError; label?: string } {
    if (!this.tokenRequired) return {};
    if (given !== undefined) {
      const d = digest(given);
      // Every token is compared (no early exit), so the time taken says nothing about which matched.
      let label: string | undefined;
      let ok = this.token !== undefined && timingSafeEqual(d, digest(this.token));
      for (const u of this.userTokens)
        if (timingSafeEqual(d, u.digest)) {
          ok = true;
          label ??= u.label;
        }
      if (ok) return label === undefined ? {} : { label };
    }
    return { error: this.unauthorized() };
  }

  private unauthorized(): ApiError {
    return new ApiError(
      401,
      'unauthorized',
      'this server requires a token: open the URL with ?token=… that `statewire serve` printed, or send Authorization: Bearer <token>',
    );
  }
}

// Node services call back on `/api/internal/…` with msgpack (docs/node-services-protocol.md "Calls back into Statewire"): not a type a
// cross-site page can send without a preflight either, so it is as safe as JSON there.
const INTERNAL = '/api/internal/';
const MSGPACK = new Set(['application/msgpack', 'application/x-msgpack']);

function contentTypeError(req: FastifyRequest, route: string | undefined): ApiError | undefined {
  const type = req.headers['content-type'];
  const mime = type?.split(';')[0]?.trim().toLowerCase();
  if (mime === 'application/json') return undefined;
  if (mime !== undefined && MSGPACK.has(mime) && route?.startsWith(INTERNAL)) return undefined;
  // A run bundle is uploaded as its own bytes: not a CORS-safelisted type either (a cross-site page
  // cannot send it without a preflight), so it is as safe as JSON — on the import route only.
  if (mime === BUNDLE_MEDIA_TYPE && route === BUNDLE_IMPORT_ROUTE) return undefined;
  const path = req.url.split('?')[0] ?? '';
  return new ApiError(
    415,
    'unsupported-media-type',
    `${req.method} ${path} needs Content-Type: application/json (got ${type === undefined ? 'none' : JSON.stringify(type)})`,
  );
}

/** The fastify side: one onRequest hook, before routing does any work. */
export function installOriginGuard(app: FastifyInstance, guard: OriginGuard): void {
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const changes = STATE_CHANGING.has(req.method);
    // The matched route pattern, not the raw URL: `/%61pi/graphs` must not dodge the token rule.
    const route = req.routeOptions.url;
    // Internal callback routes answer loopback peers only (services/callbacks.plugin.ts); the service
    // processes started by this server do not hold the token.
    const internalFromLoopback = route?.startsWith(INTERNAL) && isLoopback(req.socket.remoteAddress ?? '');
    const needsToken =
      route !== undefined && route.startsWith('/api') && route !== '/api/health' && !internalFromLoopback;
    const err =
      guard.hostError(req.headers.host) ??
      (changes ? guard.originError(req.headers.origin) : undefined) ??
      (needsToken ? guard.tokenError(bearer(req.headers.authorization)) : undefined) ??
      (changes ? contentTypeError(req, route) : undefined);
    if (err) return sendError(reply, err);
  });
}

/** socket.io `allowRequest`: every engine.io handshake (polling or WebSocket) is checked for Host and Origin. */
export function socketAllowRequest(
  guard: OriginGuard,
): (req: IncomingMessage, fn: (err: string | null | undefined, success: boolean) => void) => void {
  return (req, fn) => {
    const err = guard.hostError(req.headers.host) ?? guard.originError(req.headers.origin);
    fn(err ? `${err.code}: ${err.message}` : null, !err);
  };
}

/** socket.io connect middleware: the token from `auth: {token}` (the app) or an Authorization header. */
export function installSocketAuth(io: SocketServer, guard: OriginGuard): void {
  io.use((socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown } | undefined;
    const given =
      typeof auth?.token === 'string' ? auth.token : bearer(socket.handshake.headers.authorization);
    const { error: err, label } = guard.tokenHolder(given);
    if (label !== undefined) (socket.data as { tokenLabel?: string }).tokenLabel = label;
    if (!err) return next();
    const e = new Error('unauthorized') as Error & { data?: unknown };
    e.data = { code: err.code, message: err.message };
    next(e);
  });
}
