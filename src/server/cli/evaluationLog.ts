// The run log `statewire compare` and `statewire query` read: PostgreSQL in distributed mode
// (STATEWIRE_REDIS_URL + STATEWIRE_DATABASE_URL, where `statewire batch` then stores batches), else
// the workspace's SQLite file — the one `statewire batch` and `statewire serve` write. A missing file
// is an error naming it (opening would create an empty database and answer "no batch").
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PgRunLog } from '../db/pgRunLog.ts';
import type { RunLog } from '../db/runLog.ts';
import { SqliteRunLog } from '../db/sqliteRunLog.ts';
import { distributedConfig, redactUrl } from '../distributed/config.ts';
import { ApiError } from '../errors/errors.ts';

export const WORKSPACE_HELP = `--workspace DIR     whose database holds the batches (default ./workspace, else .); with
                      STATEWIRE_REDIS_URL + STATEWIRE_DATABASE_URL set, PostgreSQL instead`;

export async function openEvaluationLog(
  workspace: string | undefined,
): Promise<{ log: RunLog; where: string } | { error: string }> {
  let config;
  try {
    config = distributedConfig();
  } catch (e) {
    return { error: (e as Error).message };
  }
  if (config) {
    try {
      const log = await PgRunLog.connect(config.databaseUrl, { applicationName: 'statewire-cli' });
      return { log, where: redactUrl(config.databaseUrl) };
    } catch (e) {
      return { error: `cannot open ${redactUrl(config.databaseUrl)}: ${(e as Error).message}` };
    }
  }
  // Without --workspace: ./workspace (as `statewire serve` and a batch of workspace/graphs/… use),
  // else the current folder when it is a workspace itself.
  const files = (workspace !== undefined ? [workspace] : ['workspace', '.']).map((w) =>
    join(resolve(w), '.statewire', 'runs.db'),
  );
  const file = files.find((f) => existsSync(f));
  if (!file)
    return {
      error: `no run database at ${files.join(' or ')} (run \`statewire batch\` first, or pass --workspace DIR)`,
    };
  return { log: SqliteRunLog.open(file), where: file };
}

/**
 * Runs `fn` on the evaluation log, closed afterwards. A missing database, an unknown batch or run, a
 * bad condition or metric (a 4xx ApiError) prints `statewire COMMAND: reason` and exits 2.
 */
export async function withEvaluationLog(
  command: string,
  workspace: string | undefined,
  fn: (log: RunLog) => Promise<number>,
): Promise<number> {
  const fail = (why: string) => {
    process.stderr.write(`statewire ${command}: ${why}\n`);
    return 2;
  };
  const opened = await openEvaluationLog(workspace);
  if ('error' in opened) return fail(opened.error);
  try {
    return await fn(opened.log);
  } catch (e) {
    if (e instanceof ApiError && e.status < 500) return fail(e.message);
    throw e;
  } finally {
    await opened.log.close();
  }
}
