// The `*.test.json` format of `statewire test`: a graph file, how many root steps to run, and
// expectations over the per-step state (nav_step snapshots). Every problem is an Issue whose `path`
// points into the test file (`$.expect[2].equals`); parse never throws.
import { z } from 'zod';
import { locateJsonError } from '../graph/graph.parse.json.ts';
import { jsonPath, type Issue } from '../validate/issues.ts';
import { parseSlotPath, type SlotPath } from './slotPath.ts';

/** Graph tests are files named `*.test.json` (beside the graphs; never listed or opened as graphs). */
export const GRAPH_TEST_SUFFIX = '.test.json';

export const MATCHERS = ['equals', 'length', 'matches', 'cleared'] as const;
export type MatcherKind = (typeof MATCHERS)[number];

export type Check =
  | { kind: 'equals'; value: unknown }
  | { kind: 'length'; value: number }
  | { kind: 'matches'; value: string }
  | { kind: 'cleared'; value: boolean };

export type StepRef = number | 'last';

const StepRefSchema = z.union([z.number().int().min(1), z.literal('last')], {
  error: 'step must be a root step number (1, 2, …) or "last"',
});

const ExpectationInputSchema = z.strictObject({
  step: StepRefSchema,
  slot: z.string({ error: 'slot must be a string like "container.slot"' }),
  /** Replaces the generated title in TAP/JUnit output. */
  name: z.string().optional(),
  /** Deep-equal to this JSON value (objects by keys, lists in order). */
  equals: z.json().optional(),
  /** Length of a list or string, key count of an object. */
  length: z.number().int().min(0, 'length must be a whole number ≥ 0').optional(),
  /** JavaScript RegExp (no flags) searched in the value's text form: a string as is, else its JSON. */
  matches: z.string().optional(),
  /** Whether the slot (or partition) was cleared at that step. */
  cleared: z.boolean().optional(),
});

export const GraphTestInputSchema = z.strictObject({
  /** Graph file, relative to the test file. */
  graph: z.string().min(1, 'graph must name a graph file'),
  /** Root steps to run; default: to the end (the graph's step_budget). */
  steps: z.number().int().min(1, 'steps must be ≥ 1').optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  expect: z.array(ExpectationInputSchema).min(1, 'expect must list at least one expectation'),
});

export interface Expectation {
  step: StepRef;
  /** The slot path as written. */
  slot: string;
  target: SlotPath;
  check: Check;
  name?: string;
}

export interface GraphTest {
  graph: string;
  steps?: number;
  name?: string;
  description?: string;
  expect: Expectation[];
}

export type GraphTestParse = { ok: true; test: GraphTest } | { ok: false; errors: Issue[] };

const issue = (code: string, path: string, message: string): Issue => ({
  code,
  severity: 'error',
  path,
  message,
});

function zodIssues(error: z.ZodError): Issue[] {
  const out: Issue[] = [];
  for (const i of error.issues) {
    if (i.code === 'unrecognized_keys') {
      for (const k of i.keys) {
        const where = i.path.length === 0 ? 'test file' : 'expectation';
        const hint =
          i.path.length === 0
            ? 'known: graph, steps, name, description, expect'
            : `known: step, slot, name, ${MATCHERS.join(', ')}`;
        out.push(issue('unknown-key', jsonPath([...i.path, k]), `unknown key in the ${where} (${hint})`));
      }
    } else if (i.code === 'invalid_type' && i.input === undefined)
      out.push(issue('missing-field', jsonPath(i.path), `required field is missing`));
    else out.push(issue('invalid-value', jsonPath(i.path), i.message));
  }
  return out;
}

/** Rules zod's shapes cannot say: exactly one matcher, a valid slot path and regex, steps in range. */
function checkExpectation(
  raw: z.infer<typeof ExpectationInputSchema>,
  at: (string | number)[],
  steps: number | undefined,
  errors: Issue[],
): Expectation | undefined {
  const present = MATCHERS.filter((m) => Object.hasOwn(raw, m));
  const before = errors.length;
  if (present.length !== 1)
    errors.push(
      issue(
        present.length === 0 ? 'missing-matcher' : 'several-matchers',
        jsonPath(at),
        present.length === 0
          ? `an expectation needs one of ${MATCHERS.join(', ')}`
          : `an expectation has exactly one of ${MATCHERS.join(', ')}; found ${present.join(' and ')} (split it in two)`,
      ),
    );
  const target = parseSlotPath(raw.slot);
  if (!target.ok) errors.push(issue('invalid-slot', jsonPath([...at, 'slot']), target.message));
  else if (raw.cleared !== undefined && target.value.path.length > 0)
    errors.push(
      issue(
        'invalid-slot',
        jsonPath([...at, 'slot']),
        'cleared applies to a slot or a keyed partition, not to a path into its value',
      ),
    );
  if (raw.matches !== undefined) {
    try {
      new RegExp(raw.matches);
    } catch (e) {
      errors.push(issue('invalid-regex', jsonPath([...at, 'matches']), (e as Error).message));
    }
  }
  if (steps !== undefined && typeof raw.step === 'number' && raw.step > steps)
    errors.push(
      issue(
        'step-out-of-range',
        jsonPath([...at, 'step']),
        `step ${raw.step} is after the last step run (steps: ${steps})`,
      ),
    );
  if (errors.length > before || !target.ok) return undefined;
  const kind = present[0]!;
  const check = { kind, value: raw[kind] } as Check;
  return {
    step: raw.step,
    slot: raw.slot,
    target: target.value,
    check,
    ...(raw.name !== undefined ? { name: raw.name } : {}),
  };
}

export function parseGraphTest(value: unknown): GraphTestParse {
  // reportInput: a missing field is an issue whose input is undefined.
  const r = GraphTestInputSchema.safeParse(value, { reportInput: true });
  if (!r.success) return { ok: false, errors: zodIssues(r.error) };
  const errors: Issue[] = [];
  const expect: Expectation[] = [];
  r.data.expect.forEach((raw, i) => {
    const e = checkExpectation(raw, ['expect', i], r.data.steps, errors);
    if (e) expect.push(e);
  });
  if (errors.length > 0) return { ok: false, errors };
  const { graph, steps, name, description } = r.data;
  return {
    ok: true,
    test: {
      graph,
      ...(steps !== undefined ? { steps } : {}),
      ...(name !== undefined ? { name } : {}),
      ...(description !== undefined ? { description } : {}),
      expect,
    },
  };
}

/** Parses test-file text; invalid JSON is one `invalid-json` error with line and column. */
export function parseGraphTestText(text: string): GraphTestParse {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    const loc = locateJsonError(body) ?? { line: 1, column: 1, reason: 'not valid JSON' };
    return {
      ok: false,
      errors: [
        {
          ...issue('invalid-json', '$', `invalid JSON at line ${loc.line}:${loc.column}: ${loc.reason}`),
          line: loc.line,
          column: loc.column,
        },
      ],
    };
  }
  return parseGraphTest(value);
}
