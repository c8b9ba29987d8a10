import { describe, expect, it } from 'vitest';
import { makeCatalog, parseCatalog } from './catalog.schema.ts';
import { BUILTIN_NODE_SPECS } from './catalog.builtins.ts';

describe('parseCatalog', () => {
  it('parses every entry once, with the same defaults makeCatalog fills in', () => {
    const { catalog, rejected } = parseCatalog(BUILTIN_NODE_SPECS);
    expect(rejected).toBe(0);
    expect([...catalog.entries()]).toEqual([...makeCatalog(BUILTIN_NODE_SPECS).entries()]);
  });

  it('leaves out and counts the entries that do not parse, keeping the others', () => {
    const { catalog, rejected } = parseCatalog([
      { type: 'ok', display_name: 'OK' },
      { type: 7, display_name: 'bad type' },
      null,
      { display_name: 'no type' },
    ]);
    expect(rejected).toBe(3);
    expect([...catalog.keys()]).toEqual(['ok']);
    expect(catalog.get('ok')?.category).toBe('processing');
  });
});
