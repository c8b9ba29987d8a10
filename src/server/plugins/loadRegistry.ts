// The node registry a headless run uses: built-ins plus the plugins of one folder. Shared by the CLI
// (`statewire run|test|batch`), batch episode children and distributed workers, so it lives with the
// plugin loader rather than in cli/ (which nothing below it may import).
import { existsSync, statSync } from 'node:fs';
import { createRegistry, type NodeRegistry } from '../../engine/registry.ts';
import { loadPlugins } from './loadPlugins.ts';

export interface LoadedRegistry {
  registry: NodeRegistry;
  /** Plugins that failed to load (`plugin FILE: error`); the others are registered. */
  failures: string[];
}

/**
 * Built-ins plus the plugins of `pluginDir`. An explicit folder must exist (a typo would otherwise
 * run without its plugins): a string is the error; a missing default folder just means none.
 */
export async function loadRegistry(pluginDir: string, explicit: boolean): Promise<LoadedRegistry | string> {
  const registry = createRegistry();
  if (explicit && statSync(pluginDir, { throwIfNoEntry: false })?.isDirectory() !== true)
    return `--plugins ${pluginDir}: ${existsSync(pluginDir) ? 'is not a folder' : 'no such folder'}`;
  if (!existsSync(pluginDir)) return { registry, failures: [] };
  const res = await loadPlugins(pluginDir, registry);
  return { registry, failures: res.failed.map((f) => `plugin ${f.file}: ${f.error}`) };
}
