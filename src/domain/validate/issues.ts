// One problem found in a graph file: by the tolerant parser (legacy traits, schema violations) or
// by the validator. `path` is a JSON path into the canonical file (`$.nodes[3].config.ports`), and
// the optional ids let the editor select the element the issue is about.
import { z } from 'zod';

export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const IssueSchema = z.object({
  /** Stable kebab-case code, e.g. `dangling-edge`; documented in src/domain/README.md. */
  code: z.string(),
  severity: z.enum(SEVERITIES),
  path: z.string(),
  message: z.string(),
  nodeId: z.string().optional(),
  containerId: z.string().optional(),
  edgeId: z.string().optional(),
  grantId: z.string().optional(),
  slot: z.string().optional(),
  /** Only for invalid JSON text: 1-based line and column of the syntax error. */
  line: z.number().int().optional(),
  column: z.number().int().optional(),
});
export type Issue = z.infer<typeof IssueSchema>;

export function hasErrors(issues: readonly Issue[]): boolean {
  return issues.some((i) => i.severity === 'error');
}

/** JSON path segment for an object key: `.name` when it is an identifier, else `["odd key"]`. */
export function keySeg(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** Builds a JSON path from `$` and a zod-style path array. */
export function jsonPath(segments: readonly PropertyKey[], root = '$'): string {
  let out = root;
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : keySeg(String(s));
  return out;
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Errors first, then warnings, then infos; stable within a severity. */
export function sortIssues(issues: readonly Issue[]): Issue[] {
  return [...issues].sort((a, b) => RANK[a.severity] - RANK[b.severity]);
}
