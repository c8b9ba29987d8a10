// Child process for compaction.faults.test.ts: compacts the database at argv[2] chunk after chunk,
// writing one "." to stdout after each committed chunk, until the parent kills it (kill -9) or the
// work is done ("done").
import { closeDatabase, openDatabase } from './database.ts';
import { Compactor } from './compaction.ts';

const db = openDatabase(process.argv[2] ?? '');
// Small chunks: many transactions, so the kill lands inside one with a fair chance.
const compactor = new Compactor(db, { segmentBytes: 4 * 1024, pageInputBytes: 600 });
compactor.resume();
while (compactor.step()) process.stdout.write('.');
closeDatabase(db);
process.stdout.write('done\n');
