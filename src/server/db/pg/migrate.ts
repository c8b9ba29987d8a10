// Schema migrations of the PostgreSQL run log: the numbered files in ./migrations
// (`NNN_name.sql`, under version control) applied in order, each in its own transaction together
// with its row in `schema_migrations` (version, name, checksum). Several workers and servers may
// start at once: the whole check-and-apply holds a session advisory lock, so exactly one applies a
// migration and the others then find it applied. A database already migrated further than this
// code knows, or an applied migration whose file has changed since, is refused.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

/** pg_advisory_lock key of the migration lock (any fixed bigint; this one spells "SWmigr"). */
const LOCK_KEY = '91637006346610';
const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

/** The migration files, in order (versions 1, 2, … without gaps). */
export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const out = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => {
      const m = /^(\d+)_([\w-]+)\.sql$/.exec(f);
      if (!m) throw new Error(`migration file ${f}: expected NNN_name.sql`);
      const sql = readFileSync(`${dir}/${f}`, 'utf8');
      return {
        version: Number(m[1]),
        name: m[2]!,
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    })
    .sort((a, b) => a.version - b.version);
  out.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migrations: expected version ${i + 1}, found ${m.version}`);
  });
  return out;
}

export interface MigrateResult {
  /** Versions this call applied (empty when the schema was current). */
  applied: number[];
  version: number;
}

/** Brings the database to the newest schema (safe to call from many processes at once). */
export async function migrate(pool: pg.Pool, migrations = loadMigrations()): Promise<MigrateResult> {
  const client = await pool.connect();
  const applied: number[] = [];
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [LOCK_KEY]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const rows = (
        await client.query<{ version: number; name: string; checksum: string }>(
          'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
        )
      ).rows;
      const newest = rows[rows.length - 1]?.version ?? 0;
      if (newest > migrations.length)
        throw new Error(
          `database schema version ${newest} is newer than this statewire (${migrations.length}); upgrade statewire`,
        );
      const done = new Map(rows.map((r) => [r.version, r]));
      for (const m of migrations) {
        const row = done.get(m.version);
        if (row) {
          if (row.checksum !== m.checksum)
            throw new Error(
              `migration ${m.version} (${m.name}) was applied from a different file than migrations/${String(m.version).padStart(3, '0')}_${m.name}.sql; applied migrations must not be edited`,
            );
          continue;
        }
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
            m.version,
            m.name,
            m.checksum,
          ]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new Error(`migration ${m.version} (${m.name}) failed: ${(err as Error).message}`, {
            cause: err,
          });
        }
        applied.push(m.version);
      }
      return { applied, version: migrations.length };
    } finally {
      // Closing the session releases the lock too: a connection that cannot unlock is discarded.
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [LOCK_KEY]).catch((err: Error) => {
        broken = err;
      });
    }
  } finally {
    client.release(broken);
  }
}
