// View settings per graph id (breakpoints…), in <workspace>/.statewire/views/<encoded id>.json,
// written atomically. The id is the graph's id (its path under graphs/ without .json); it is
// encoded into ONE file name, so no id can reach outside the views folder.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ViewSettingsSchema, type ViewSettings } from '../../domain/debug/viewSettings.ts';
import { writeFileAtomic } from './atomicWrite.ts';

const EMPTY: ViewSettings = { breakpoints: [] };

export class ViewSettingsStore {
  private readonly dir: string;
  constructor(workspace: string) {
    this.dir = join(workspace, '.statewire', 'views');
  }

  private file(graphId: string): string {
    if (!graphId || graphId.length > 500) throw new Error('graph id must be 1–500 characters');
    return join(this.dir, `${encodeURIComponent(graphId)}.json`);
  }

  /** The settings of a graph (none saved, or a file that no longer parses: the defaults). */
  get(graphId: string): ViewSettings {
    const f = this.file(graphId);
    if (!existsSync(f)) return EMPTY;
    try {
      const r = ViewSettingsSchema.safeParse(JSON.parse(readFileSync(f, 'utf8')));
      return r.success ? r.data : EMPTY;
    } catch {
      return EMPTY;
    }
  }

  put(graphId: string, settings: ViewSettings): ViewSettings {
    const f = this.file(graphId);
    mkdirSync(this.dir, { recursive: true });
    if (settings.breakpoints.length === 0) rmSync(f, { force: true });
    else writeFileAtomic(f, `${JSON.stringify(settings, null, 2)}\n`);
    return settings;
  }
}
