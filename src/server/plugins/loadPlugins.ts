// Loads node-type plugins from a folder (workspace/nodes/*.ts|js|mjs) at start. Each module
// default-exports `{spec, handler}` or an array of them; a plugin that fails to import or has a bad
// shape is reported as `{file, error}` and does not stop the others. Modules are imported (tsx is the
// loader at runtime) — plugins are trusted local code the user put in their workspace, never code
// taken from a graph file.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NodeSpecSchema, type NodeSpec } from '../../domain/catalog/catalog.schema.ts';
import type { HandlerInput } from '../../engine/handler.types.ts';
import type { NodeRegistry } from '../../engine/registry.ts';

export interface PluginFailure {
  file: string;
  error: string;
}

export interface PluginLoadResult {
  loaded: { file: string; types: string[] }[];
  failed: PluginFailure[];
}

const PLUGIN_EXT = /\.(ts|mts|js|mjs)$/;

function isHandler(h: unknown): h is HandlerInput {
  return (
    typeof h === 'function' ||
    (typeof h === 'object' && h !== null && typeof (h as { fire?: unknown }).fire === 'function')
  );
}

// A `.ts` plugin in a folder whose nearest package.json is not `"type": "module"` (any workspace
// outside this repository, e.g. `--workspace ~/my-ws`) is loaded as CommonJS; the `statewire` bin
// registers only tsx's ESM hooks, so without the CommonJS hook such a plugin fails with
// "Cannot require() ES Module … in a cycle". Registered once, on first use, and imported then: an
// episode worker without plugins does not pay tsx's API import (~280 ms) at its start.
let cjsHookRegistered = false;
async function ensureTsxCjsHook(): Promise<void> {
  if (cjsHookRegistered) return;
  cjsHookRegistered = true;
  const { register } = await import('tsx/cjs/api');
  register();
}

/** Registers every plugin found in `dir` into `registry`. A missing folder is not an error. */
export async function loadPlugins(dir: string, registry: NodeRegistry): Promise<PluginLoadResult> {
  const result: PluginLoadResult = { loaded: [], failed: [] };
  let files: string[];
  try {
    files = (await readdir(dir))
      .filter((f) => PLUGIN_EXT.test(f) && !f.endsWith('.d.ts') && !/\.test\.[mc]?[tj]s$/.test(f))
      .sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return result;
    result.failed.push({ file: dir, error: (e as Error).message });
    return result;
  }
  if (files.length > 0) await ensureTsxCjsHook();
  for (const file of files) {
    const path = join(dir, file);
    try {
      const mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
      const exported = mod.default;
      if (exported === undefined)
        throw new Error('no default export (expected {spec, handler} or an array of them)');
      const entries = Array.isArray(exported) ? exported : [exported];
      const staged: { spec: NodeSpec; handler: HandlerInput }[] = [];
      entries.forEach((entry: unknown, i) => {
        const where = Array.isArray(exported) ? `entry ${i}: ` : '';
        const { spec, handler } = (entry ?? {}) as { spec?: unknown; handler?: unknown };
        const parsed = NodeSpecSchema.safeParse({ kind: 'plugin', ...(spec as object) });
        if (!parsed.success)
          throw new Error(
            `${where}invalid spec: ${parsed.error.issues.map((x) => `${x.path.join('.') || 'spec'}: ${x.message}`).join('; ')}`,
          );
        if (!isHandler(handler))
          throw new Error(`${where}handler must be a function or an object with fire()`);
        if (registry.has(parsed.data.type) || staged.some((x) => x.spec.type === parsed.data.type)) {
          throw new Error(
            `${where}node type '${parsed.data.type}' is already registered (a built-in or another plugin)`,
          );
        }
        staged.push({ spec: parsed.data, handler });
      });
      // Register only when the whole module is valid, so a half-broken plugin adds nothing.
      for (const s of staged) registry.register(s.spec, s.handler);
      result.loaded.push({ file, types: staged.map((s) => s.spec.type) });
    } catch (e) {
      result.failed.push({ file, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return result;
}
