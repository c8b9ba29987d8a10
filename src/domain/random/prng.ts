// A seeded PRNG (mulberry32) with explicit state: the next draw is a pure function of the state, so
// whoever holds the state reproduces the exact same draws — the engine keeps a node's generator in
// node-local state (checkpoints and restores replay it), the batch comparison seeds its bootstrap.
// Nothing else is a source of randomness in the domain or the engine (no Math.random).

export function seedState(seed: number): number {
  return (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
}

/** Returns a float in [0, 1) and the next state. */
export function nextRandom(state: number): [number, number] {
  const s = (state + 0x6d2b79f5) >>> 0;
  let t = s;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return [((t ^ (t >>> 14)) >>> 0) / 4294967296, s];
}

/** Integer in [0, n). */
export function nextInt(state: number, n: number): [number, number] {
  const [r, s] = nextRandom(state);
  return [Math.floor(r * n), s];
}
