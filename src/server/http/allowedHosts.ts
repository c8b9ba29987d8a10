// Which names this server answers to. A DNS-rebinding page reaches 127.0.0.1 under ITS OWN name
// (Host: evil.example:5177), so checking Host against the names the server was really bound to
// refuses it even though the browser thinks the request is same-origin. Pure: the caller passes the
// bound address, the port (only known after listen, `--port 0`) and the machine's interfaces.

/** A host name (lowercase; IPv6 in brackets) and a port; `port: undefined` in an allowed entry = any port. */
export interface HostPort {
  host: string;
  port: number | undefined;
}

// A name or IPv4 (letters, digits, dot, dash, underscore) or a bracketed IPv6, then an optional port.
// Anything else (userinfo `a@b`, paths, spaces, a scheme) is not a Host value a browser sends.
const HOST_RE = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/;

/** Canonical form of a host (what a browser would send): lowercase, IPv4 shorthand and IPv6 normalized. */
function canonicalHost(host: string): string | undefined {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
}

/** Parses a `Host` header or an `--allowed-host` entry; undefined when it is not one. */
export function parseHostPort(value: string): HostPort | undefined {
  const m = HOST_RE.exec(value.trim());
  if (!m?.[1]) return undefined;
  const host = canonicalHost(m[1]);
  const port = m[2] === undefined ? undefined : Number(m[2]);
  if (host === undefined || (port !== undefined && port > 65535)) return undefined;
  return { host, port };
}

/** A `Host` header: no port means 80 (browsers omit the default port of http). */
export function parseHostHeader(value: string | undefined): HostPort | undefined {
  const hp = value === undefined ? undefined : parseHostPort(value);
  return hp && { host: hp.host, port: hp.port ?? 80 };
}

/** The host and port an `Origin` header names (default ports filled in); undefined for `null` or junk. */
export function parseOrigin(origin: string): HostPort | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '')) return undefined;
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { host: url.hostname, port };
}

/** 127.0.0.0/8, ::1 (and their IPv4-mapped form) and `localhost`. */
export function isLoopback(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    a === 'localhost' ||
    a === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a) ||
    /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a)
  );
}

export function isWildcard(address: string): boolean {
  return address === '0.0.0.0' || address === '::' || address === '[::]';
}

const bracket = (address: string) => (address.includes(':') ? `[${address}]` : address);

export class HostList {
  constructor(readonly entries: readonly HostPort[]) {}

  allows(hp: HostPort | undefined): boolean {
    if (!hp) return false;
    return this.entries.some((e) => e.host === hp.host && (e.port === undefined || e.port === hp.port));
  }

  /** For error messages and the README: `127.0.0.1:5177, localhost:5177, …`. */
  describe(): string {
    return this.entries.map((e) => (e.port === undefined ? `${e.host}:*` : `${e.host}:${e.port}`)).join(', ');
  }
}

export interface BoundInfo {
  /** What the socket is bound to (`server.address().address`), e.g. 127.0.0.1, ::, 0.0.0.0. */
  address: string;
  port: number;
  /** The `--host` the user gave (may be a name such as `localhost` or `mybox.lan`). */
  configuredHost?: string;
  /** For a wildcard bind: the machine's interface addresses and host name. */
  interfaceAddresses?: readonly string[];
  hostname?: string;
  /** Parsed `--allowed-host` entries. */
  extra?: readonly HostPort[];
}

/**
 * The allowed Host values: the bound address, the loopback forms (127.0.0.1, localhost, [::1]) on
 * the bound port, the configured host name, and for a wildcard bind (0.0.0.0 / ::) every interface
 * address plus the machine's host name (anyone on the network may legitimately use them, and no
 * attacker can make a victim's browser send them for the attacker's own page), plus `--allowed-host`.
 */
export function allowedHosts(b: BoundInfo): HostList {
  const names = new Set<string>(['127.0.0.1', 'localhost', '[::1]', bracket(b.address)]);
  if (b.configuredHost) names.add(bracket(b.configuredHost));
  if (isWildcard(b.address)) {
    for (const a of b.interfaceAddresses ?? []) names.add(bracket(a));
    if (b.hostname) names.add(b.hostname);
  }
  const entries: HostPort[] = [];
  for (const n of names) {
    const host = canonicalHost(n);
    if (host !== undefined) entries.push({ host, port: b.port });
  }
  entries.push(...(b.extra ?? []));
  return new HostList(entries);
}
