// The graphs folder watch: a file added, changed or removed there by any program (here: plain
// writes, as a text editor or git would make) produces a notice, with fs.watch and with the poll that
// takes over when fs.watch cannot run; the hidden temp files of an atomic save do not.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { treeSignature, watchGraphs, type GraphsWatch } from './watchGraphs.ts';

const dirs: string[] = [];
const watches: GraphsWatch[] = [];
afterEach(() => {
  for (const w of watches.splice(0)) w.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'statewire-watch-'));
  dirs.push(d);
  return d;
}

/** Resolves at the next notice (the test fails by timeout if none comes). */
function counter(): { count: () => number; next: () => Promise<void>; notify: () => void } {
  let n = 0;
  let waiting: (() => void) | null = null;
  return {
    count: () => n,
    next: () => new Promise<void>((r) => (waiting = r)),
    notify: () => {
      n++;
      waiting?.();
      waiting = null;
    },
  };
}

describe.each([
  ['fs.watch', false],
  ['the poll fallback', true],
] as const)('watchGraphs with %s', (_name, forcePoll) => {
  it('notices a file added in a new subfolder, a change, and a removal', async () => {
    const root = folder();
    const c = counter();
    const w = watchGraphs(root, c.notify, { debounceMs: 20, pollMs: 50, forcePoll });
    watches.push(w);
    expect(w.mode).toBe(forcePoll ? 'poll' : 'watch');
    let next = c.next();
    mkdirSync(join(root, 'team'));
    writeFileSync(join(root, 'team', 'added.json'), '{"name": "added"}');
    await next;
    next = c.next();
    writeFileSync(join(root, 'team', 'added.json'), '{"name": "added again"}');
    await next;
    next = c.next();
    unlinkSync(join(root, 'team', 'added.json'));
    await next;
    expect(c.count()).toBeGreaterThanOrEqual(3);
  });
});

describe('treeSignature', () => {
  it('changes with a graph file, not with a hidden temp file', () => {
    const root = folder();
    writeFileSync(join(root, 'a.json'), '{}');
    const before = treeSignature(root);
    writeFileSync(join(root, '.a.json.123.tmp'), 'partial');
    expect(treeSignature(root)).toBe(before);
    writeFileSync(join(root, 'b.json'), '{}');
    expect(treeSignature(root)).not.toBe(before);
  });
});
