// `statewire replay (RUN_ID | FILE.swrun) [--workspace DIR] [--graph FILE] [--plugins DIR] [--verify]
// [--json]`: re-executes a stored run with every LLM and node-service answer taken from its recording
// (replay/replay.ts) — services may be stopped; nothing is called. RUN_ID is read from the
// workspace's run database; a bundle is imported into a private in-memory database first (the
// workspace's is not touched). --graph replays an edited graph; --verify compares every step's state
// with the recorded one. Exit 0 replayed (identical), 1 a difference or a call with no recorded
// answer (named: step, node, slot or call), 2 bad arguments, unknown run, unreadable bundle or graph.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseGraphText } from '../../domain/graph/graph.parse.ts';
import { BUNDLE_EXTENSION } from '../../domain/protocol/runBundle.schema.ts';
import { closeDatabase, openDatabase } from '../db/database.ts';
import { RunStore } from '../db/runStore.ts';
import { loadRegistry } from '../plugins/loadRegistry.ts';
import type { ReplayVerdict } from '../../domain/protocol/replay.schema.ts';
import { replayRun, ReplayError } from '../replay/replay.ts';
import { BundleError } from '../runs/bundleFormat.ts';
import { importBundle, ImportedRuns } from '../runs/bundleImport.ts';
import { argsOrExit, parseFlags } from './cliArgs.ts';
import { readRegularFile } from './readGraphFile.ts';

export const REPLAY_USAGE = `usage: statewire replay (RUN_ID | FILE${BUNDLE_EXTENSION}) [--workspace DIR] [--graph FILE] [--plugins DIR] [--verify] [--json]
  Re-executes a stored run with every LLM and node-service answer taken from its recording: no
  network call is made (the services may be stopped); a call with no recorded answer is an error
  naming the node, the step and what differs from the recorded call.
  RUN_ID              a run of the workspace's database (.statewire/runs.db)
  FILE${BUNDLE_EXTENSION}          a run bundle (exported by the Runs menu or GET /api/runs/ID/bundle)
  --workspace DIR     the workspace (default ./workspace, else .): its database and its nodes/ plugins
  --graph FILE        replay this (edited) graph instead of the run's own
  --plugins DIR       plugin folder (default: the workspace's nodes/)
  --verify            compare every step's state with the recorded log; stop at the first difference
  --json              print the verdict as JSON {ok, verified, steps, identical, calls, difference, message}
  exit 0 = replayed (with --verify: every step identical), 1 = a difference or a call without a
  recorded answer, 2 = bad arguments, unknown run, unreadable bundle or graph`;

interface Args {
  source: string;
  workspace?: string;
  graph?: string;
  plugins?: string;
  verify: boolean;
  json: boolean;
}

function parse(argv: string[]): Args | string | 'help' {
  const parsed = parseFlags(argv, {
    workspace: { type: 'string', short: 'w' },
    graph: { type: 'string' },
    plugins: { type: 'string' },
    verify: { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (typeof parsed === 'string') return parsed;
  const { values: v, positionals: p } = parsed;
  if (v.help) return 'help';
  if (p.length !== 1)
    return p.length === 0 ? `expected RUN_ID or FILE${BUNDLE_EXTENSION}` : `unexpected argument ${p[1]}`;
  for (const k of ['workspace', 'graph', 'plugins'] as const) if (v[k] === '') return `--${k} needs a value`;
  return {
    source: p[0]!,
    workspace: v.workspace,
    graph: v.graph,
    plugins: v.plugins,
    verify: v.verify ?? false,
    json: v.json ?? false,
  };
}

/** The workspace folder: --workspace, else ./workspace when it holds a database, else `.`. */
function workspaceDir(given: string | undefined): string {
  if (given !== undefined) return resolve(given);
  const w = resolve('workspace');
  return existsSync(join(w, '.statewire', 'runs.db')) || existsSync(join(w, 'nodes')) ? w : resolve('.');
}

const isBundle = (source: string) => source.endsWith(BUNDLE_EXTENSION) || existsSync(source);

export async function replayCommand(argv: string[]): Promise<number> {
  const args = argsOrExit('replay', REPLAY_USAGE, parse(argv));
  if (typeof args === 'number') return args;
  const fail = (why: string) => {
    process.stderr.write(`statewire replay: ${why}\n`);
    return 2;
  };
  const ws = workspaceDir(args.workspace);
  let graph: unknown;
  if (args.graph !== undefined) {
    let text: string;
    try {
      text = await readRegularFile(args.graph);
    } catch (e) {
      return fail(`${args.graph}: ${(e as Error).message}`);
    }
    const parsed = parseGraphText(text, args.graph);
    if (!parsed.ok)
      return fail(`${args.graph}: ${parsed.errors.map((i) => `${i.path} ${i.message}`).join('; ')}`);
    graph = parsed.graph;
  }
  const loaded = await loadRegistry(args.plugins ?? join(ws, 'nodes'), args.plugins !== undefined);
  if (typeof loaded === 'string') return fail(loaded);
  for (const f of loaded.failures) process.stderr.write(`statewire replay: ${f}\n`);

  const opened = await openSource(args.source, ws);
  if ('error' in opened) return fail(opened.error);
  try {
    const verdict = await replayRun(opened.store, opened.runId, {
      registry: loaded.registry,
      graph,
      verify: args.verify,
    });
    print(verdict, args.json);
    return verdict.ok ? 0 : 1;
  } catch (e) {
    if (e instanceof ReplayError) return fail(e.message);
    throw e;
  } finally {
    closeDatabase(opened.store.db);
  }
}

/** The run to replay: a bundle imported into memory, or a run of the workspace's database. */
async function openSource(
  source: string,
  ws: string,
): Promise<{ store: RunStore; runId: string } | { error: string }> {
  if (isBundle(source)) {
    let bytes: Buffer;
    try {
      bytes = await readFile(source);
    } catch (e) {
      return { error: `${source}: ${(e as Error).message}` };
    }
    const store = new RunStore(openDatabase(':memory:'));
    try {
      const r = await importBundle(store, new ImportedRuns(store.db), bytes, {
        maxUncompressed: 2 ** 32, // zlib's own limit: a bundle on the user's disk is trusted like the file it is
        maxValueBytes: Infinity,
      });
      return { store, runId: r.run_id };
    } catch (e) {
      closeDatabase(store.db);
      if (e instanceof BundleError) return { error: `${source}: ${e.message}` };
      throw e;
    }
  }
  const file = join(ws, '.statewire', 'runs.db');
  if (!existsSync(file))
    return { error: `no run database at ${file} (pass --workspace DIR, or a ${BUNDLE_EXTENSION} file)` };
  const store = new RunStore(openDatabase(file));
  if (!store.getRun(source)) {
    closeDatabase(store.db);
    return { error: `no run ${JSON.stringify(source)} in ${file}` };
  }
  return { store, runId: source };
}

function print(v: ReplayVerdict, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(v)}\n`);
    return;
  }
  for (const n of v.notes) process.stderr.write(`note: ${n}\n`);
  process.stdout.write(`${v.message}\n`);
  process.stdout.write(
    `run ${v.run_id}: ${v.steps} step${v.steps === 1 ? '' : 's'} replayed, ${v.calls.answered} of ${v.calls.recorded} recorded call${v.calls.recorded === 1 ? '' : 's'} answered from the recording\n`,
  );
}
