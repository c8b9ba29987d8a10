import { describe, expect, it } from 'vitest';
import { emptyGraph, type GraphDef, type NodeDef } from '../graph/graph.schema.ts';
import { applyEpisodeSeed, deriveSeed, nodeSeed } from './seeds.ts';

const node = (id: string, config: Record<string, unknown>, subgraph?: GraphDef): NodeDef => ({
  id,
  type: 'gridEnv',
  label: id,
  position: { x: 0, y: 0 },
  config,
  ...(subgraph ? { subgraph } : {}),
});

describe('deriveSeed', () => {
  it('is deterministic, 32-bit unsigned, and depends on both the base and the episode', () => {
    expect(deriveSeed(0, 1)).toBe(deriveSeed(0, 1));
    for (const s of [deriveSeed(0, 0), deriveSeed(-5, 3), deriveSeed(2 ** 40, 7)]) {
      expect(Number.isInteger(s)).toBe(true);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThan(2 ** 32);
    }
    expect(deriveSeed(0, 1)).not.toBe(deriveSeed(1, 1));
    expect(deriveSeed(0, 1)).not.toBe(deriveSeed(0, 2));
  });

  it('gives 100,000 episodes of one base pairwise distinct seeds', () => {
    for (const base of [0, 42, -1]) {
      const seen = new Set<number>();
      for (let e = 0; e < 100_000; e++) seen.add(deriveSeed(base, e));
      expect(seen.size).toBe(100_000);
    }
  });
});

describe('applyEpisodeSeed', () => {
  const inner = { ...emptyGraph('inner'), nodes: [node('deep', { seed: 3 })] };
  const graph: GraphDef = {
    ...emptyGraph('g'),
    nodes: [
      node('env', { seed: 7, width: 5 }),
      node('policy', { seed: 7 }),
      node('plain', {}),
      node('comp', {}, inner),
    ],
  };

  it('reseeds every node with a numeric seed, subgraphs included, each from its own id', () => {
    const g = applyEpisodeSeed(graph, 1234);
    const [env, policy, plain, comp] = g.nodes;
    expect(env!.config).toEqual({ seed: nodeSeed(1234, 'env', 7), width: 5 });
    expect(policy!.config.seed).toBe(nodeSeed(1234, 'policy', 7));
    expect(env!.config.seed).not.toBe(policy!.config.seed); // same graph seed, different streams
    expect(plain).toBe(graph.nodes[2]); // untouched nodes are shared, not copied
    expect(comp!.subgraph!.nodes[0]!.config.seed).toBe(nodeSeed(1234, 'deep', 3));
    expect(graph.nodes[0]!.config.seed).toBe(7); // the input is not modified
  });

  it('gives different episode seeds different node seeds, and the same seed the same graph', () => {
    const a = applyEpisodeSeed(graph, deriveSeed(0, 1));
    const b = applyEpisodeSeed(graph, deriveSeed(0, 2));
    expect(a.nodes[0]!.config.seed).not.toBe(b.nodes[0]!.config.seed);
    expect(applyEpisodeSeed(graph, deriveSeed(0, 1))).toEqual(a);
  });

  it('returns the graph itself when no node is seeded', () => {
    const g = { ...emptyGraph('g'), nodes: [node('plain', { seed: 'x' })] };
    expect(applyEpisodeSeed(g, 5)).toBe(g);
  });
});
