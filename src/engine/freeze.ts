// Deep freezing is what makes structural sharing safe: every value the engine stores (slot values,
// node-local state, values on wires) is frozen, so checkpoints can keep references instead of copies.
// An already-frozen object is assumed to be deeply frozen (we only ever freeze deeply), so freezing a
// new value that reuses old sub-objects costs only the new parts.

export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  // Typed arrays and other exotic objects with indexed storage cannot be frozen; leave them as-is.
  if (ArrayBuffer.isView(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}

/** JSON-ish clone that drops what cannot be copied (functions, symbols) instead of throwing. */
export function safeClone<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    return JSON.parse(JSON.stringify(value ?? null)) as T;
  }
}
