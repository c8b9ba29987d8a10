import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatGraph } from './graph.format.ts';
import {
  GraphParseError,
  parseGraph,
  parseGraphOrThrow,
  parseGraphText,
  parseGraphTextOrThrow,
} from './graph.parse.ts';
import { validate } from '../validate/graph.validate.ts';
import { corruptedGraph, validGraph } from './graph.arbitraries.testutil.ts';

const RUNS = { numRuns: 150 };

describe('format/parse properties on generated valid graphs', () => {
  it('parse(format(g)) deep-equals g, without any warning', () => {
    fc.assert(
      fc.property(validGraph, (g) => {
        const r = parseGraphText(formatGraph(g));
        if (!r.ok) throw new Error(JSON.stringify(r.errors));
        expect(r.graph).toEqual(g);
        expect(r.warnings).toEqual([]);
      }),
      RUNS,
    );
  });

  it('format is idempotent: format(parse(format(g))) === format(g)', () => {
    fc.assert(
      fc.property(validGraph, (g) => {
        const once = formatGraph(g);
        const r = parseGraphText(once);
        expect(r.ok && formatGraph(r.graph)).toBe(once);
      }),
      RUNS,
    );
  });

  it('validate never throws on a generated graph', () => {
    fc.assert(
      fc.property(validGraph, (g) => {
        expect(Array.isArray(validate(g))).toBe(true);
      }),
      RUNS,
    );
  });
});

describe('malformed input never throws', () => {
  it('parseGraph on anything', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withBigInt: true,
          withSparseArray: true,
        }),
        (x) => {
          const r = parseGraph(x);
          expect(typeof r.ok).toBe('boolean');
        },
      ),
      RUNS,
    );
  });

  it('parseGraph on corrupted graphs: a result, errors carry JSON paths, and the output stays canonical', () => {
    fc.assert(
      fc.property(corruptedGraph, (doc) => {
        const r = parseGraph(doc);
        if (!r.ok) {
          expect(r.errors.length).toBeGreaterThan(0);
          for (const e of r.errors) expect(e.path.startsWith('$')).toBe(true);
          return;
        }
        validate(r.graph);
        const once = formatGraph(r.graph);
        const again = parseGraphText(once);
        expect(again.ok && formatGraph(again.graph)).toBe(once);
      }),
      { numRuns: 300 },
    );
  });

  it('parseGraphText on random and damaged text reports line and column', () => {
    const damaged = fc
      .tuple(validGraph, fc.nat(), fc.string({ maxLength: 3 }), fc.nat({ max: 3 }))
      .map(([g, at, insert, del]) => {
        const t = formatGraph(g);
        const k = at % (t.length + 1);
        return t.slice(0, k) + insert + t.slice(k + del);
      });
    fc.assert(
      fc.property(fc.oneof(fc.string(), damaged), (t) => {
        const r = parseGraphText(t);
        if (!r.ok && r.errors[0]!.code === 'invalid-json') {
          expect(r.errors[0]!.line).toBeGreaterThanOrEqual(1);
          expect(r.errors[0]!.column).toBeGreaterThanOrEqual(1);
        }
      }),
      RUNS,
    );
  });

  it('the throwing APIs throw only GraphParseError', () => {
    fc.assert(
      fc.property(fc.oneof(corruptedGraph, fc.anything()), fc.string(), (x, t) => {
        for (const call of [() => parseGraphOrThrow(x), () => parseGraphTextOrThrow(t, 'f.json')]) {
          try {
            call();
          } catch (e) {
            expect(e).toBeInstanceOf(GraphParseError);
          }
        }
      }),
      RUNS,
    );
  });
});
