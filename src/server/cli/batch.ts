// `statewire batch FILE --episodes N [--workers K] [--max-workers M] [--seed S] [--set path=value]…
// [--json] [--csv FILE] [--workspace DIR] [--plugins DIR] [--services FILE]`: runs FILE once per
// episode on K child processes (the embedded pool; at most M at once, default one per core). Node services (the workspace's services.json) are started here
// once and shared by the children, except `per_worker: true` ones, which each child starts itself. Each episode is a run of its own in the workspace's database (the one `statewire serve`
// opens), so a later `serve` shows it on the timeline (`/?run=<run_id>`). Exit 0 all episodes done,
// 1 some did not (or the batch failed), 2 invalid graph or arguments (the message names the flag
// or path).
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { MAX_EPISODES, MAX_SET_ENTRIES, MAX_WORKERS } from '../../domain/batch/batch.schema.ts';
import { rowsToCsv } from '../../domain/batch/csv.ts';
import { applySets } from '../../domain/batch/setPaths.ts';
import { BatchManager } from '../batch/batchManager.ts';
import { EmbeddedPool } from '../batch/embeddedPool.ts';
import { defaultMaxWorkers } from '../batch/workerSlots.ts';
import { entriesForEpisodeWorkers } from '../batch/episodeServices.ts';
import { allNodes } from '../services/serviceEvents.ts';
import { ServiceManager } from '../services/serviceManager.ts';
import { loadServicesConfig, type ServiceEntry } from '../services/servicesConfig.ts';
import { SqliteRunLog } from '../db/sqliteRunLog.ts';
import { redactUrl } from '../distributed/config.ts';
import { distributedBatch } from '../distributed/distributedMode.ts';
import { argsOrExit, intFlag } from './cliArgs.ts';
import { aggregateLines, episodeLine } from './batchReport.ts';
import { loadRegistry } from '../plugins/loadRegistry.ts';
import { defaultPluginDir, runBlockers } from './headless.ts';
import { issueLine, readGraphFile } from './readGraphFile.ts';
import { parseCliArgs } from './cliArgs.ts';

export const BATCH_USAGE = `usage: statewire batch FILE --episodes N [--workers K] [--max-workers M] [--seed S] [--set path=value]...
                      [--json] [--csv FILE] [--workspace DIR] [--plugins DIR] [--services FILE]
  Runs FILE once per episode (each a run of its own, with a seed derived from --seed) on K child
  processes, and reports each episode's outputs and metrics plus their aggregate.
  --episodes N        episodes to run (1..${MAX_EPISODES})
  --workers K         child processes (1..${MAX_WORKERS}, default 1), at most --max-workers at once
  --max-workers M     ceiling on child processes (default: one per core, here ${defaultMaxWorkers()};
                      also STATEWIRE_MAX_WORKERS)
  --seed S            base seed (integer, default 0)
  --set path=value    override before running, value as JSON else text: step_budget=50,
                      nodes.<id>.config.<key>=…, containers.<id>.states.<slot>.config.<key>=…
                      (repeatable, at most ${MAX_SET_ENTRIES})
  --json              print one JSON object {batch_id, status, episodes: [...], aggregate}
  --csv FILE          also write the episode rows as CSV
  --workspace DIR     whose database keeps the runs (default: the graph folder's parent)
  --plugins DIR       node-type plugins (default: the nodes/ folder next to the graph's folder)
  --services FILE     node services (default: the workspace's services.json); an entry with
                      "per_worker": true starts one process per worker, others one shared process
  exit 0 = all episodes done, 1 = some did not, 2 = invalid graph or arguments`;

const out = (l: string) => void process.stdout.write(`${l}\n`);
const err = (l: string) => void process.stderr.write(`${l}\n`);

interface Args {
  file: string;
  episodes: number;
  workers: number;
  maxWorkers: number;
  seed: number;
  sets: string[];
  json: boolean;
  csv?: string;
  workspace: string;
  plugins?: string;
  servicesFile?: string;
}

function parse(argv: string[]): Args | string | 'help' {
  let parsed;
  try {
    parsed = parseCliArgs({
      args: argv,
      options: {
        episodes: { type: 'string', short: 'n' },
        workers: { type: 'string', short: 'k' },
        'max-workers': { type: 'string' },
        seed: { type: 'string' },
        set: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        csv: { type: 'string' },
        workspace: { type: 'string', short: 'w' },
        plugins: { type: 'string' },
        services: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (e) {
    return (e as Error).message;
  }
  const { values: v, positionals } = parsed;
  if (v.help) return 'help';
  if (positionals.length !== 1)
    return positionals.length === 0 ? 'missing FILE' : `unexpected argument ${positionals[1]}`;
  const file = positionals[0]!;
  const episodes = intFlag('episodes', v.episodes, 1, MAX_EPISODES);
  const workers = intFlag('workers', v.workers, 1, MAX_WORKERS, 1);
  const envMax = process.env.STATEWIRE_MAX_WORKERS ? process.env.STATEWIRE_MAX_WORKERS : undefined;
  const maxWorkers = intFlag('max-workers', v['max-workers'] ?? envMax, 1, 1024, defaultMaxWorkers());
  const seed = intFlag('seed', v.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 0);
  for (const x of [episodes, workers, maxWorkers, seed]) if (typeof x === 'string') return x;
  const sets = v.set ?? [];
  if (sets.length > MAX_SET_ENTRIES) return `at most ${MAX_SET_ENTRIES} --set entries (got ${sets.length})`;
  if (v.csv === '') return '--csv needs a file';
  return {
    file,
    episodes: episodes as number,
    workers: workers as number,
    maxWorkers: maxWorkers as number,
    seed: seed as number,
    sets,
    json: v.json ?? false,
    csv: v.csv,
    workspace: resolve(v.workspace ?? join(dirname(resolve(file)), '..')),
    plugins: v.plugins,
    servicesFile: v.services,
  };
}

export async function batchCommand(argv: string[]): Promise<number> {
  const args = argsOrExit('batch', BATCH_USAGE, parse(argv));
  if (typeof args === 'number') return args;
  const loaded = await readGraphFile(args.file);
  if (!loaded.ok) {
    err(loaded.line);
    return 2;
  }
  const set = applySets(loaded.graph, args.sets);
  if (!set.ok) {
    err(`${args.file}: --set ${args.sets[set.index]}: ${set.message}`);
    return 2;
  }
  const pluginDir = args.plugins ?? defaultPluginDir(args.file);
  const registry = await loadRegistry(pluginDir, args.plugins !== undefined);
  if (typeof registry === 'string') {
    err(registry);
    return 2;
  }
  // Services first: they register their node types, which the graph check needs.
  const cfg = loadServicesConfig(args.workspace, [], args.servicesFile);
  for (const e of cfg.errors) err(`services ${e.path}: ${e.message}`);
  const services = new ServiceManager(registry.registry, cfg.entries, cfg.errors, {
    onLine: (name, stream, line) => err(`[service ${name}${stream === 'stderr' ? ' stderr' : ''}] ${line}`),
  });
  try {
    await services.start();
    for (const s of services.report().services)
      if (s.state !== 'up') err(`service ${s.name}: ${s.state}${s.error ? ` (${s.error})` : ''}`);
    const blockers = runBlockers(set.graph, loaded.warnings, registry.registry);
    if (blockers.length > 0) {
      for (const i of blockers) err(issueLine(args.file, i));
      return 2;
    }
    const missing = services.unavailable(allNodes(set.graph));
    if (missing) {
      err(`${args.file}: error service-unavailable $ ${missing}`);
      return 2;
    }
    return await runBatch(args, set.graph, pluginDir, () =>
      entriesForEpisodeWorkers(services.configured, services.report()),
    );
  } finally {
    await services.close();
  }
}

async function runBatch(
  args: Args,
  graph: Parameters<BatchManager['start']>[0]['graph'],
  pluginDir: string,
  services: () => ServiceEntry[],
): Promise<number> {
  // STATEWIRE_REDIS_URL + STATEWIRE_DATABASE_URL: the episodes go to `statewire worker` processes.
  const dist = await distributedBatch(pluginDir).catch((e: Error) => e);
  if (dist instanceof Error) {
    err(`statewire batch: ${dist.message}`);
    return 2;
  }
  if (dist && !args.json)
    out(
      `distributed: queue on ${redactUrl(dist.config.redisUrl)}, runs in ${redactUrl(dist.config.databaseUrl)}`,
    );
  const log = dist?.log ?? SqliteRunLog.open(join(args.workspace, '.statewire', 'runs.db'));
  const pool =
    dist?.executor ??
    new EmbeddedPool({
      log,
      pluginDir,
      services,
      maxWorkers: args.maxWorkers,
      onOutput: (w, line) => err(`[${w}] ${line}`),
    });
  const manager = new BatchManager({
    log,
    executor: pool,
    mode: dist ? 'distributed' : 'embedded',
    ...(dist ? { ownership: dist.leases } : {}),
    onRow: (_id, row) => (args.json ? undefined : out(episodeLine(row, args.episodes))),
  });
  try {
    const { batchId, done } = await manager.start({
      graph,
      episodes: args.episodes,
      workers: args.workers,
      seed: args.seed,
      sets: args.sets,
    });
    if (!args.json)
      out(
        `batch ${batchId}: ${args.episodes} episodes of ${graph.name} on ${args.workers} worker${args.workers === 1 ? '' : 's'} (workspace ${args.workspace})`,
      );
    // Ctrl-C: episodes in flight stop between two steps (kept resumable), no new ones start.
    const cancel = () => manager.cancel(batchId);
    process.on('SIGINT', cancel);
    process.on('SIGTERM', cancel);
    const record = await done;
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
    const view = (await manager.get(batchId))!;
    if (args.csv) await writeFile(args.csv, rowsToCsv(view.episodes));
    if (args.json)
      out(
        JSON.stringify({
          batch_id: batchId,
          status: record.status,
          episodes: view.episodes,
          aggregate: view.aggregate,
        }),
      );
    else {
      for (const l of aggregateLines(batchId, view.aggregate, view.progress.episodes_per_s)) out(l);
      out(`open an episode: statewire serve --workspace ${args.workspace}, then /?run=<run>`);
    }
    if (record.error) err(`statewire batch: ${record.error}`);
    const allDone = view.episodes.length === args.episodes && view.episodes.every((r) => r.status === 'done');
    return record.status === 'done' && allDone ? 0 : 1;
  } finally {
    await manager.close();
    dist?.leases.close();
    await log.close();
  }
}
