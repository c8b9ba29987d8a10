// Seeds of a batch: each episode gets a seed derived from the batch's base seed, and each seeded node
// of the episode's graph gets one derived from the episode seed and its node id. Pure and
// deterministic, so a batch re-run with the same base seed replays the same episodes exactly.
import type { GraphDef, NodeDef } from '../graph/graph.schema.ts';

/**
 * Murmur3's 32-bit finalizer. Every operation is invertible on 32-bit integers (xor-shift, multiply
 * by an odd constant), so the whole function is a bijection: distinct inputs never collide.
 */
function avalanche32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The seed of episode `episode` of a batch with seed `base`: a 32-bit unsigned integer. For one base,
 * episodes 0 … 2^32-1 get pairwise distinct seeds (a bijection of `mix(base) + episode`), which a plain
 * hash of the pair would not promise (a birthday collision is likely by ~80,000 episodes).
 */
export function deriveSeed(base: number, episode: number): number {
  const offset = avalanche32(Math.trunc(base) ^ 0x5bd1e995);
  return avalanche32((offset + Math.trunc(episode)) >>> 0);
}

/** FNV-1a over the node id's UTF-16 units: a stable per-node salt. */
function idSalt(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * A node's seed in an episode: the episode seed mixed with the node id (so two seeded nodes keep
 * different random streams) and with the seed the graph gave it (so editing a node's seed in the
 * graph still changes what that node draws).
 */
export function nodeSeed(episodeSeed: number, nodeId: string, graphSeed: number): number {
  const a = avalanche32((episodeSeed ^ idSalt(nodeId)) >>> 0);
  return avalanche32((a + Math.trunc(graphSeed)) >>> 0);
}

function seedNode(node: NodeDef, seed: number): NodeDef {
  const own = node.config.seed;
  const config =
    typeof own === 'number' && Number.isFinite(own)
      ? { ...node.config, seed: nodeSeed(seed, node.id, own) }
      : node.config;
  const subgraph = node.subgraph ? seedGraph(node.subgraph, seed) : undefined;
  if (config === node.config && subgraph === node.subgraph) return node;
  return { ...node, config, ...(subgraph ? { subgraph } : {}) };
}

function seedGraph(graph: GraphDef, seed: number): GraphDef {
  const nodes = graph.nodes.map((n) => seedNode(n, seed));
  return nodes.every((n, i) => n === graph.nodes[i]) ? graph : { ...graph, nodes };
}

/**
 * The episode's graph: every node whose config has a numeric `seed`, at any depth of composite
 * subgraphs, gets `nodeSeed(seed, node.id, its seed)`. Nothing else changes and unchanged parts are
 * shared with the input (a batch of 100,000 episodes holds one graph plus the seeded nodes).
 */
export function applyEpisodeSeed(graph: GraphDef, seed: number): GraphDef {
  return seedGraph(graph, seed >>> 0);
}
