// The engine's seeded randomness and stable hashing. The PRNG itself (mulberry32 with explicit
// state, so a node keeps its generator in node-local state and checkpoints/restores reproduce the
// exact same draws) lives in the domain, shared with the batch comparison's bootstrap. No
// Math.random anywhere in the engine.
export { nextInt, nextRandom, seedState } from '../domain/random/prng.ts';

/** FNV-1a 64-bit (as two 32-bit halves) over a string: a stable, dependency-free hash for keys. */
export function hashString(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c ^ (h1 >>> 7), 0x01000193) >>> 0;
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}

/** JSON with sorted keys: equal values hash equally regardless of key order. */
export function stableStringify(value: unknown): string {
  if (value === undefined) return 'null';
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`).join(',')}}`;
}
