import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRun } from '../../engine/createRun.ts';
import { createRegistry } from '../../engine/registry.ts';
import { loadPlugins } from './loadPlugins.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'statewire-plugins-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('loadPlugins', () => {
  it('loads the example workspace plugin and runs it', async () => {
    const reg = createRegistry();
    const res = await loadPlugins(new URL('../../../workspace/nodes', import.meta.url).pathname, reg);
    expect(res.failed).toEqual([]);
    expect(res.loaded).toContainEqual({ file: 'uppercase.ts', types: ['uppercase'] });
    expect(reg.get('uppercase')!.spec).toMatchObject({
      kind: 'plugin',
      input_ports: [{ name: 'text', optional: false }],
    });
    const events: { type: string; data: unknown }[] = [];
    const run = createRun(
      {
        name: 'u',
        description: '',
        eval_graph: false,
        kind: 'graph',
        group: '',
        presetId: null,
        hooks: [],
        step_budget: 1,
        nodes: [
          { id: 'c', type: 'constant', label: '', position: { x: 0, y: 0 }, config: { value: 'abc' } },
          { id: 'u', type: 'uppercase', label: '', position: { x: 0, y: 0 }, config: {} },
          { id: 'v', type: 'textViewer', label: '', position: { x: 0, y: 0 }, config: {} },
        ],
        edges: [
          { id: 'e1', source: 'c', target: 'u', sourceHandle: 'value', targetHandle: 'text' },
          { id: 'e2', source: 'u', target: 'v', sourceHandle: 'text', targetHandle: 'text' },
        ],
        containers: [],
        access_grants: [],
      },
      { runId: 'p', registry: reg },
      (e) => void events.push(e),
    );
    await run.stepOnce();
    expect(events.find((e) => e.type === 'viewer_data')!.data).toMatchObject({
      node_id: 'v',
      fields: { text: 'ABC' },
    });
  });

  it('a failing plugin is reported with its file and error and does not stop the others', async () => {
    writeFileSync(join(dir, 'a_syntax.mjs'), 'export default {');
    writeFileSync(
      join(dir, 'b_shape.mjs'),
      "export default { spec: { display_name: 'no type' }, handler: () => ({}) };",
    );
    writeFileSync(join(dir, 'c_nohandler.mjs'), "export default { spec: { type: 'x', display_name: 'x' } };");
    writeFileSync(join(dir, 'd_throws.mjs'), "throw new Error('plugin exploded');");
    writeFileSync(
      join(dir, 'e_good.mjs'),
      "export default [{ spec: { type: 'one', display_name: 'One' }, handler: () => ({}) }, { spec: { type: 'two', display_name: 'Two' }, handler: { fire: () => ({ outputs: {} }) } }];",
    );
    writeFileSync(
      join(dir, 'f_dup.mjs'),
      "export default { spec: { type: 'llmCall', display_name: 'fake' }, handler: () => ({}) };",
    );
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    const reg = createRegistry();
    const res = await loadPlugins(dir, reg);
    expect(res.loaded).toEqual([{ file: 'e_good.mjs', types: ['one', 'two'] }]);
    expect(res.failed.map((f) => f.file)).toEqual([
      'a_syntax.mjs',
      'b_shape.mjs',
      'c_nohandler.mjs',
      'd_throws.mjs',
      'f_dup.mjs',
    ]);
    expect(res.failed[4]!.error).toBe(
      "node type 'llmCall' is already registered (a built-in or another plugin)",
    );
    expect(res.failed[1]!.error).toMatch(/invalid spec: type/);
    expect(res.failed[2]!.error).toMatch(/handler must be a function/);
    expect(res.failed[3]!.error).toBe('plugin exploded');
    expect(reg.has('one') && reg.has('two')).toBe(true);
  });

  it('a missing folder loads nothing and fails nothing', async () => {
    expect(await loadPlugins(join(dir, 'nope'), createRegistry())).toEqual({ loaded: [], failed: [] });
  });
});
