// The node catalog carries docs for every built-in type (the library and inspector show them), and
// the docs table names no type that does not exist.
import { describe, expect, it } from 'vitest';
import { BUILTIN_CATALOG } from './catalog.builtins.ts';
import { BUILTIN_DOCS } from './catalog.docs.ts';

describe('built-in node docs', () => {
  it('every built-in node type has non-trivial docs in the catalog', () => {
    const missing = [...BUILTIN_CATALOG.values()].filter((s) => s.docs.trim().length < 40).map((s) => s.type);
    expect(missing).toEqual([]);
  });

  it('the docs table only names built-in types, and the catalog serves its text', () => {
    for (const [type, docs] of Object.entries(BUILTIN_DOCS)) {
      expect(BUILTIN_CATALOG.has(type), type).toBe(true);
      expect(BUILTIN_CATALOG.get(type)?.docs).toBe(docs);
    }
  });

  it('docs keep the earlier inline text (loop ports, template filling, keyed writes)', () => {
    expect(BUILTIN_CATALOG.get('iterIn')?.docs).toMatch(/^Ports: `init_<x>`/);
    expect(BUILTIN_CATALOG.get('llmCall')?.docs).toMatch(/^Unresolved `\{var\}` placeholders/);
    expect(BUILTIN_CATALOG.get('stateWrite')?.docs).toMatch(/^Optional `key` writes a keyed partition/);
  });
});
