// Which PostgreSQL failures mean "the database is not reachable right now" (restarting, crashed,
// network gone) rather than "this statement is wrong". The first kind is transient: a worker waits
// for the database and resumes the episode from its last commit, a server answers 503 instead of
// 500, and the pool's clients reconnect on their own. Everything else is a real error.

/** Node socket errnos of a connection that could not be made or was cut. */
const SOCKET_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs: class 08 (connection exception), 57P01 admin_shutdown (`pg_ctl stop|restart -m fast`),
 * 57P02 crash_shutdown (another backend crashed, `-m immediate`), 57P03 cannot_connect_now (starting
 * up or shutting down), 53300 too_many_connections (a restart storm of reconnecting clients).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;

/** Messages node-postgres uses for a connection lost or never made (it gives them no code). */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i;

/** Whether `err` says PostgreSQL is unreachable now (transient) rather than that a statement failed. */
export function isPgUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_ERRNOS.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (UNAVAILABLE_MESSAGE.test(err.message)) return true;
  // AggregateError (every address of a host refused) and errors wrapped with a cause.
  const inner = (err as { errors?: unknown }).errors;
  if (Array.isArray(inner) && inner.length > 0 && inner.every(isPgUnavailable)) return true;
  return err.cause !== undefined && err.cause !== err && isPgUnavailable(err.cause);
}

/**
 * `work()`, tried again while it fails because PostgreSQL is unreachable (waiting 250 ms, doubling
 * to 5 s), until it succeeds, fails otherwise, or `limitMs` has passed (then its last error). For a
 * write that must land once the database is back — a batch's end — rather than be lost to a restart.
 */
export async function retryWhileUnavailable<T>(
  work: () => Promise<T>,
  opts: { limitMs: number; onWait?: (err: Error) => void },
): Promise<T> {
  const until = Date.now() + opts.limitMs;
  for (let delay = 250; ; delay = Math.min(delay * 2, 5000)) {
    try {
      return await work();
    } catch (err) {
      if (!isPgUnavailable(err) || Date.now() + delay > until) throw err;
      opts.onWait?.(err as Error);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
