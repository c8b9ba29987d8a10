// Distributed mode is chosen by the environment: `STATEWIRE_REDIS_URL` (BullMQ queue, socket.io
// fan-out) and `STATEWIRE_DATABASE_URL` (the PostgreSQL run log) together. Neither set: the embedded
// default (SQLite, local worker processes). Only one set is a configuration mistake, refused with a
// message naming the missing one rather than silently falling back to embedded mode.

export const REDIS_URL_ENV = 'STATEWIRE_REDIS_URL';
export const DATABASE_URL_ENV = 'STATEWIRE_DATABASE_URL';

export interface DistributedConfig {
  redisUrl: string;
  databaseUrl: string;
}

export class DistributedConfigError extends Error {
  override name = 'DistributedConfigError';
}

function checkUrl(name: string, value: string, schemes: readonly string[]): void {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new DistributedConfigError(`${name}: not a URL: ${JSON.stringify(redactUrl(value))}`);
  }
  if (!schemes.includes(u.protocol))
    throw new DistributedConfigError(
      `${name}: expected a ${schemes.map((s) => `${s}//`).join(' or ')} URL, got ${u.protocol}//…`,
    );
  if (!u.hostname) throw new DistributedConfigError(`${name}: the URL names no host`);
}

/**
 * The distributed configuration from `env`, or undefined for embedded mode. Throws
 * `DistributedConfigError` when only one of the two variables is set or one is not a URL of its kind.
 */
export function distributedConfig(
  env: Record<string, string | undefined> = process.env,
): DistributedConfig | undefined {
  const redisUrl = env[REDIS_URL_ENV]?.trim() || undefined;
  const databaseUrl = env[DATABASE_URL_ENV]?.trim() || undefined;
  if (!redisUrl && !databaseUrl) return undefined;
  if (!redisUrl || !databaseUrl) {
    const [set, missing] = redisUrl ? [REDIS_URL_ENV, DATABASE_URL_ENV] : [DATABASE_URL_ENV, REDIS_URL_ENV];
    throw new DistributedConfigError(
      `${set} is set but ${missing} is not: distributed mode needs both ` +
        `(${REDIS_URL_ENV}=redis://HOST:6379 and ${DATABASE_URL_ENV}=postgres://USER@HOST:5432/DB); ` +
        'unset both for the embedded mode',
    );
  }
  checkUrl(REDIS_URL_ENV, redisUrl, ['redis:', 'rediss:']);
  checkUrl(DATABASE_URL_ENV, databaseUrl, ['postgres:', 'postgresql:']);
  return { redisUrl, databaseUrl };
}

/** A URL for printing: the password replaced by `***`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password) return url;
    u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
  }
}

/** Where the PostgreSQL store's graphs are, as `statewire serve` prints it and the Graphs panel shows it. */
export function graphsLocation(databaseUrl: string): string {
  return `${redactUrl(databaseUrl)} (table graphs)`;
}
