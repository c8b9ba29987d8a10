// `statewire run --break EXPR` stops a headless run where a slot meets a condition and prints the
// state there; `statewire run --json | head` ends quietly when the reader closes the pipe.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../test/serverProcess.testutil.ts';
import { runCommand, type CliIo } from './run.ts';

const demo = join(REPO, 'workspace/graphs/grid_navigator.json');

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const sink: CliIo = { out: (l) => void out.push(l), err: (l) => void err.push(l) };
  return { out, err, sink };
}

describe('statewire run --break', () => {
  it('stops at the first step where graph_state.step_count >= 10 and prints that state', async () => {
    const o = io();
    const code = await runCommand([demo, '--break', 'graph_state.step_count>=10'], o.sink);
    expect(code, o.err.join('\n')).toBe(0);
    const at = o.out.findIndex((l) => l.startsWith('breakpoint hit:'));
    expect(o.out[at]).toMatch(/^breakpoint hit: graph_state\.step_count >= 10 at step 10, written by \S+$/);
    const state = JSON.parse(o.out[at + 1]!); // one pretty-printed JSON document
    expect(state.containers.graph_state.step_count).toBe(10);
    expect(o.out.at(-1)).toMatch(/stopped/);
  });

  it('with --json the stream has the breakpoint_hit event and ends with run_result (stopped)', async () => {
    const o = io();
    const code = await runCommand([demo, '--json', '--break', 'graph_state.step_count>=4'], o.sink);
    expect(code).toBe(0);
    const events = o.out.map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });
    const hit = events.find((e) => e.type === 'breakpoint_hit')!;
    expect(hit.data).toMatchObject({ kind: 'match', container: 'graph_state', slot: 'step_count', value: 4 });
    const last = events.at(-1)!;
    expect(last.type).toBe('run_result');
    expect(last.data).toMatchObject({ status: 'stopped' });
    expect((last.data.containers as Record<string, Record<string, unknown>>).graph_state!.step_count).toBe(4);
  });

  it('a malformed expression is a usage error (exit 2) that says what is expected', async () => {
    const o = io();
    expect(await runCommand([demo, '--break', 'step_count'], o.sink)).toBe(2);
    expect(o.err[0]).toMatch(/--break: cannot read condition 'step_count': expected container\.slot/);
  });
});

describe('statewire run --json | head', () => {
  it('ends quietly (exit 0, no EPIPE trace) when the reader closes the pipe', async () => {
    const child = spawn(process.execPath, [join(REPO, 'bin/statewire.js'), 'run', demo, '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    await new Promise<void>((res) => child.stdout.once('data', () => res()));
    child.stdout.destroy(); // what `head -1` does once it has its line
    const code = await new Promise<number | null>((res) => child.once('exit', (c) => res(c)));
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(code).toBe(0);
  });
});
