// `statewire import-graphs DIR` and `statewire export-graphs DIR`: graph files into and out of the
// PostgreSQL graph store that server instances share in distributed mode (workspace/pgGraphStore.ts,
// docs/scaling-out.md "Graphs"). Ids are the files' paths under DIR without `.json`, as the graphs
// folder's are, so `import-graphs workspace/graphs` gives every instance the graphs one had.
//  - import: every `*.json` under DIR (hidden entries, symbolic links and `*.test.json` graph tests
//    skipped) is read as a graph and saved in its canonical form; a graph that exists gets a new
//    version, unless its text is unchanged. A file that does not read as a graph is reported
//    (`DIR/a/b.json: $.nodes[0].type: …`) and skipped; exit 1 when any was, 0 otherwise.
//  - export: the latest version of every graph to `DIR/<id>.json` (atomic writes; other files in DIR
//    are left alone).
// Both need only STATEWIRE_DATABASE_URL (Redis plays no part); exit 2 when it is missing or bad.
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { parseGraphText } from '../../domain/graph/graph.parse.ts';
import { GRAPH_TEST_SUFFIX } from '../../domain/graphtest/graphTest.schema.ts';
import { PgRunLog } from '../db/pgRunLog.ts';
import { DATABASE_URL_ENV, graphsLocation, redactUrl } from '../distributed/config.ts';
import { ApiError } from '../errors/errors.ts';
import { writeFileAtomic } from '../workspace/atomicWrite.ts';
import { describeErrors } from '../workspace/graphCodec.ts';
import { PgGraphStore } from '../workspace/pgGraphStore.ts';
import { checkRelative } from '../workspace/safePath.ts';
import { argsOrExit, parseFlags } from './cliArgs.ts';

const DATABASE_HELP = `  Needs ${DATABASE_URL_ENV}=postgres://USER@HOST:5432/DB (the database of distributed mode,
  docs/scaling-out.md); the schema is created or upgraded on connect.`;

export const IMPORT_GRAPHS_USAGE = `usage: statewire import-graphs DIR
  Saves every *.json graph under DIR (recursively; *.test.json graph tests, hidden entries and
  symbolic links skipped) in the PostgreSQL graph store, as id = its path under DIR without .json.
  A graph already there gets a new version; an unchanged one (same canonical text) gets none.
  A file that does not read as a graph is reported as FILE: reason and skipped.
${DATABASE_HELP}
  exit 0 = all imported, 1 = some file could not be imported, 2 = bad arguments or no database`;

export const EXPORT_GRAPHS_USAGE = `usage: statewire export-graphs DIR
  Writes the latest version of every graph in the PostgreSQL graph store to DIR/<id>.json (its
  canonical text; folders created as needed; files of the same name replaced, others left alone).
${DATABASE_HELP}
  exit 0 = exported, 2 = bad arguments or no database`;

const out = (l: string) => void process.stdout.write(`${l}\n`);
const err = (l: string) => void process.stderr.write(`${l}\n`);

function parseDir(argv: string[]): { dir: string } | string | 'help' {
  const parsed = parseFlags(argv, { help: { type: 'boolean', short: 'h' } });
  if (typeof parsed === 'string') return parsed;
  if (parsed.values.help) return 'help';
  const p = parsed.positionals;
  if (p.length !== 1) return p.length === 0 ? 'expected DIR' : `unexpected argument ${p[1]}`;
  return { dir: p[0]! };
}

/** Opens the store on STATEWIRE_DATABASE_URL, runs `fn`, closes it; a missing or bad URL → exit 2. */
async function withGraphStore(
  command: string,
  env: Record<string, string | undefined>,
  fn: (store: PgGraphStore) => Promise<number>,
): Promise<number> {
  const url = env[DATABASE_URL_ENV]?.trim();
  if (!url) {
    err(
      `statewire ${command}: ${DATABASE_URL_ENV} is not set: it names the PostgreSQL database the graphs are shared in (${DATABASE_URL_ENV}=postgres://USER@HOST:5432/DB)`,
    );
    return 2;
  }
  if (!/^postgres(ql)?:\/\//.test(url)) {
    err(
      `statewire ${command}: ${DATABASE_URL_ENV}: expected a postgres:// URL, got ${JSON.stringify(redactUrl(url))}`,
    );
    return 2;
  }
  let log: PgRunLog;
  try {
    log = await PgRunLog.connect(url, { applicationName: `statewire-${command}`, max: 2 });
  } catch (e) {
    err(`statewire ${command}: cannot open ${redactUrl(url)}: ${(e as Error).message}`);
    return 2;
  }
  try {
    return await fn(
      new PgGraphStore(log.pool, { location: graphsLocation(url), savedBy: `statewire ${command}` }),
    );
  } finally {
    await log.close();
  }
}

/** Graph files under `root` (relative posix paths), folders walked in name order. */
function graphFilesUnder(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith('.')) continue;
      const abs = join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (e.isFile() && e.name.endsWith('.json') && !e.name.endsWith(GRAPH_TEST_SUFFIX))
        found.push(relative(root, abs).split(sep).join('/'));
    }
  };
  walk(root);
  return found;
}

export async function importGraphsCommand(argv: string[], env = process.env): Promise<number> {
  const args = argsOrExit('import-graphs', IMPORT_GRAPHS_USAGE, parseDir(argv));
  if (typeof args === 'number') return args;
  let isDir = false;
  try {
    isDir = statSync(args.dir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) {
    err(`statewire import-graphs: ${args.dir} is not a folder`);
    return 2;
  }
  return withGraphStore('import-graphs', env, async (store) => {
    const counts = { created: 0, updated: 0, unchanged: 0, failed: 0 };
    for (const rel of graphFilesUnder(args.dir)) {
      const file = join(args.dir, rel);
      const id = rel.replace(/\.json$/, '');
      const fail = (why: string) => {
        counts.failed++;
        err(`statewire import-graphs: ${file}: ${why}`);
      };
      const parsed = parseGraphText(readFileSync(file, 'utf8'), id);
      if (!parsed.ok) {
        fail(describeErrors(parsed.errors));
        continue;
      }
      try {
        const r = await store.put(id, parsed.graph);
        counts[r.status]++;
        out(`${id}: ${r.status} (version ${r.version})`);
      } catch (e) {
        // An id the store refuses (a segment it does not allow): that file only.
        if (!(e instanceof ApiError) || e.status >= 500) throw e;
        fail(e.message);
      }
    }
    out(
      `import-graphs: ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged, ${counts.failed} failed (${store.location})`,
    );
    return counts.failed > 0 ? 1 : 0;
  });
}

export async function exportGraphsCommand(argv: string[], env = process.env): Promise<number> {
  const args = argsOrExit('export-graphs', EXPORT_GRAPHS_USAGE, parseDir(argv));
  if (typeof args === 'number') return args;
  return withGraphStore('export-graphs', env, async (store) => {
    const graphs = await store.latestTexts();
    mkdirSync(args.dir, { recursive: true });
    for (const g of graphs) {
      // Ids were checked when they were saved; checked again, since these become file paths.
      const file = join(args.dir, ...checkRelative(g.id)) + '.json';
      mkdirSync(dirname(file), { recursive: true });
      writeFileAtomic(file, g.text);
      out(`${g.id}: version ${g.version} → ${file}`);
    }
    out(`export-graphs: ${graphs.length} graph(s) written to ${args.dir} (${store.location})`);
    return 0;
  });
}
