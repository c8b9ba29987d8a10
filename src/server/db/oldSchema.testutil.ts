// Turns a database of the current schema back into one written before migration 6 (graph versions)
// and 7 (the run list's kind/batch columns and indexes), for tests of the upgrade path.
import type { Db } from './database.ts';

export function dropColumnsOfVersion6AndLater(db: Db): void {
  db.exec(`
    DROP INDEX runs_page; DROP INDEX runs_graph_page; DROP INDEX runs_status_page;
    DROP INDEX runs_kind_page; DROP INDEX runs_batch_page;
    ALTER TABLE runs DROP COLUMN kind; ALTER TABLE runs DROP COLUMN batch_id;
    ALTER TABLE runs DROP COLUMN graph_version; ALTER TABLE batches DROP COLUMN graph_version;
  `);
}
