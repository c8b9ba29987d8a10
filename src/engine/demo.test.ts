import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatGraph } from '../domain/graph/graph.format.ts';
import { parseGraph } from '../domain/graph/graph.parse.ts';
import { validate } from '../domain/validate/graph.validate.ts';
import { EVENT_DATA_SCHEMAS } from '../domain/protocol/protocol.ts';
import { runAll } from './testkit.ts';

const text = readFileSync(new URL('../../workspace/graphs/grid_navigator.json', import.meta.url), 'utf8');

function load() {
  const r = parseGraph(JSON.parse(text));
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.graph;
}

describe('demo graph workspace/graphs/grid_navigator.json', () => {
  it('validates without errors and is stored in canonical form', () => {
    const g = load();
    expect(validate(g).filter((i) => i.severity === 'error')).toEqual([]);
    expect(formatGraph(g)).toBe(text);
  });

  it('uses every lifetime and the required reducers, with grants from the nodes that use them', () => {
    const g = load();
    const states = g.containers.flatMap((c) => Object.values(c.states));
    expect(new Set(states.map((s) => s.lifetime))).toEqual(
      new Set(['forever', 'step', 'episode', 'run', 'custom']),
    );
    for (const r of ['accumulator', 'lastWrite', 'counter', 'union', 'byKey'])
      expect(states.some((s) => s.type === r)).toBe(true);
    expect(states.some((s) => s.type === 'accumulator' && s.config.max_size)).toBe(true);
    expect(g.containers.map((c) => c.id)).toContain('graph_state');
    expect(g.containers.length).toBeGreaterThanOrEqual(2);
    expect(g.step_budget).toBe(200);
    const signalNodes = g.nodes.filter((n) => n.type === 'emitSignal').map((n) => n.config.signal);
    const custom = states.find((s) => s.lifetime === 'custom')!;
    expect(signalNodes).toContain(custom.reset_on[0]);
  });

  it('runs 200 steps through several episodes; every event matches its protocol schema', async () => {
    const r = await runAll(load());
    expect(r.run.status).toBe('done');
    expect(r.run.step).toBe(200);
    expect(r.of('nav_step')).toHaveLength(200);
    expect(r.of('signal').filter((s) => s.signal === 'episode_reset').length).toBeGreaterThanOrEqual(4);
    expect(r.of('signal').filter((s) => s.signal === 'episode_done').length).toBeGreaterThanOrEqual(3);
    for (const e of r.events) {
      const parsed = EVENT_DATA_SCHEMAS[e.type].safeParse(e.data);
      if (!parsed.success) throw new Error(`${e.type}: ${parsed.error.message}`);
    }
    const step = r.of('nav_step')[10]!;
    // A step-lifetime slot shows what the step wrote, and `cleared` says step_end then cleared it.
    expect(step.containers.graph_state!.states.last_obs!.value).toMatch(/episode \d+ t=\d+/);
    expect(step.cleared).toContainEqual({ container: 'graph_state', slot: 'last_obs' });
    expect(step.containers.graph_state!.states.step_count!.value).toBe(11);
    expect(step.nodeStates.env).toBeDefined();
  });

  it('keeps the trail in one keyed partition per episode: written keyed by episode, the ended one evicted', async () => {
    const r = await runAll(load());
    const navs = r.of('nav_step');
    const episodes = new Set<number>();
    for (const nav of navs) {
      const episode = (nav.nodeStates.env as { episode: number }).episode;
      episodes.add(episode);
      const trail = nav.containers.memory!.states.trail!;
      // Only the current episode's key: the ended one was evicted at episode_reset.
      expect(Object.keys(trail.keyed ?? {}), `step ${nav.step}`).toEqual([String(episode)]);
      expect(trail.keys).toBe(1);
      expect(trail.value).toEqual([]); // the unkeyed value is never written
    }
    expect(episodes.size).toBeGreaterThanOrEqual(4);
    const writes = r.of('state_written').filter((w) => w.slot === 'trail');
    expect(writes.length).toBe(200);
    expect(new Set(writes.map((w) => w.key))).toEqual(new Set([...episodes].map(String)));
  });

  it('every write, log line and node status between two nav_steps carries the step of the next nav_step', async () => {
    // Nodes settled at the iterOut boundary (e.g. write_reason) belong to the step that just ended:
    // their writes are in that step's snapshot, so their events must say so (the Timeline relies on it).
    // (`queued` is excluded: the iterIn is queued at the boundary for the *next* step, and says so.)
    const r = await runAll(load(), {}, 12);
    let pending: { type: string; step: number }[] = [];
    let checked = 0;
    for (const e of r.events) {
      if (e.type === 'nav_step') {
        for (const p of pending)
          expect(p, `${p.type} before nav_step ${e.data.step}`).toEqual({ type: p.type, step: e.data.step });
        checked += pending.length;
        pending = [];
      } else if (e.type === 'state_written' || e.type === 'exec_log') {
        pending.push({ type: e.type, step: e.data.step });
      } else if (e.type === 'node_status' && e.data.status !== 'idle' && e.data.status !== 'queued') {
        pending.push({ type: e.type, step: e.data.step });
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
