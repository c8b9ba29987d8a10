// Recorded external effects (repeatable intent; docs/architecture.md "Run state and durability"): the engine asks `lookup(key)` before an
// external call and `record(key, request, response)` after it. Keys are stable across restore/fork
// (run lineage, step, node, hash of inputs), so a re-executed node reuses the stored response.
// Writes go straight to SQLite (autocommit): an effect is durable before its step commits, so a crash
// between the call and the step commit never pays for the call twice.
import type { EffectStore } from '../../engine/run.api.ts';
import type { Db } from './database.ts';

export class SqliteEffectStore implements EffectStore {
  private readonly sel;
  private readonly ins;

  constructor(
    db: Db,
    private readonly runId: string,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {
    this.sel = db.prepare<[string], { response: string }>('SELECT response FROM effects WHERE key = ?');
    this.ins = db.prepare(
      'INSERT OR REPLACE INTO effects (key, run_id, request, response, created_at) VALUES (?, ?, ?, ?, ?)',
    );
  }

  lookup(key: string): unknown | undefined {
    const row = this.sel.get(key);
    return row ? JSON.parse(row.response) : undefined;
  }

  record(key: string, request: unknown, response: unknown): void {
    this.ins.run(
      key,
      this.runId,
      JSON.stringify(request ?? null),
      JSON.stringify(response ?? null),
      this.now(),
    );
  }
}
