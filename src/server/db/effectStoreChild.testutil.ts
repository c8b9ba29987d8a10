// Child process for effectStore.test.ts: one recorded call through the engine's effect path into the
// database at argv[2]. When the call goes out it prints "sent <key>" and then hangs (the service
// never answers) until the parent kills it (kill -9): the intent is all the database gets.
import { makeEffect } from '../../engine/effects.ts';
import { openDatabase } from './database.ts';
import { SqliteEffectStore } from './effectStore.ts';
import { BlobStore } from './blobStore.ts';

const db = openDatabase(process.argv[2] ?? '');
const store = new SqliteEffectStore(db, 'run1', new BlobStore(db));
setInterval(() => undefined, 60_000); // stay alive while the call hangs
const effect = makeEffect(
  { lineage: 'run1', options: { effects: store }, emit: () => undefined, now: () => 0 },
  4,
  'env',
);
void effect(
  { service: 'sim', fn: 'sim__step', inputs: { action: 2 } },
  (key) => {
    process.stdout.write(`sent ${key}\n`);
    return new Promise<never>(() => undefined);
  },
  'service',
);
