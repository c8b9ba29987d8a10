// Reports of `statewire test`: TAP version 13 (one `ok N - FILE › title` line per expectation, a
// YAML diagnostic block under each `not ok`) and JUnit XML (one testsuite per test file).
import type { ExpectationResult, RunOutcome } from '../../domain/graphtest/evaluate.ts';

/** What one test file came to: expectation results, or the errors that kept it from running. */
export interface FileOutcome {
  /** The test file as shown (relative to the working directory). */
  file: string;
  name?: string;
  graph?: string;
  run?: RunOutcome;
  results: ExpectationResult[];
  /** Load errors (invalid test file, unreadable or invalid graph): the file did not run. */
  errors: string[];
  durationMs: number;
}

const MAX_DIAG_VALUE = 2000;

/** A YAML scalar: JSON is valid YAML flow; a value too long is cut and shown as a string. */
function yamlValue(v: unknown): string {
  const json = v === undefined ? 'null' : (JSON.stringify(v) ?? 'null');
  return json.length > MAX_DIAG_VALUE ? JSON.stringify(`${json.slice(0, MAX_DIAG_VALUE)}… (cut)`) : json;
}

/** `#` starts a TAP directive and a newline ends the line: neither may stand in a description. */
const tapText = (s: string) => s.replace(/[\r\n]+/g, ' ').replace(/#/g, '\\#');

export const SEP = ' › ';

/** `key: value` lines (YAML) saying why an expectation failed: message, slot, step, expected, actual. */
function diagnostics(r: ExpectationResult): string[] {
  const lines: string[] = [];
  if (r.message !== undefined) lines.push(`message: ${yamlValue(r.message)}`);
  if (r.slot !== undefined) lines.push(`slot: ${yamlValue(r.slot)}`);
  if (r.step !== undefined) lines.push(`step: ${r.step}`);
  lines.push(`expected: ${yamlValue(r.expected)}`);
  if (r.actual !== undefined || r.message === undefined) lines.push(`actual: ${yamlValue(r.actual)}`);
  return lines;
}

export function tapLines(outcome: FileOutcome, first: number): string[] {
  const lines: string[] = [];
  const head = outcome.name ? `${outcome.file}: ${outcome.name}` : outcome.file;
  const ran = outcome.run ? ` (${outcome.run.steps} steps, ${outcome.run.status})` : '';
  lines.push(`# ${tapText(head)}${ran}`);
  if (outcome.errors.length > 0) {
    lines.push(`not ok ${first} - ${tapText(outcome.file)}${SEP}load test file`);
    lines.push('  ---', '  message: "the test file could not be run"', '  errors:');
    for (const e of outcome.errors) lines.push(`    - ${JSON.stringify(e)}`);
    lines.push('  ...');
    return lines;
  }
  outcome.results.forEach((r, i) => {
    lines.push(`${r.ok ? 'ok' : 'not ok'} ${first + i} - ${tapText(outcome.file)}${SEP}${tapText(r.title)}`);
    if (r.ok) return;
    lines.push('  ---', ...diagnostics(r).map((l) => `  ${l}`), '  ...');
  });
  return lines;
}

/** Cases a file counts in TAP and JUnit: its results, or one for the load failure. */
export const caseCount = (o: FileOutcome) => (o.errors.length > 0 ? 1 : o.results.length);

export function tapSummary(outcomes: readonly FileOutcome[]): string[] {
  const total = outcomes.reduce((n, o) => n + caseCount(o), 0);
  const failed = outcomes.reduce(
    (n, o) => n + (o.errors.length > 0 ? 1 : o.results.filter((r) => !r.ok).length),
    0,
  );
  return [`1..${total}`, `# tests ${total}`, `# pass ${total - failed}`, `# fail ${failed}`];
}

// XML 1.0 allows tab, newline, carriage return and characters from U+0020 on (minus the surrogates
// and U+FFFE/U+FFFF); anything else cannot be written even as a reference.
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function xmlEscape(s: string): string {
  return s
    .replace(XML_INVALID, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const attrs = (a: Record<string, string | number>) =>
  Object.entries(a)
    // A raw newline in an attribute is read back as a space; a character reference survives.
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v)).replace(/\r?\n/g, '&#10;')}"`)
    .join('');

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export function junitXml(outcomes: readonly FileOutcome[]): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const tests = outcomes.reduce((n, o) => n + caseCount(o), 0);
  const failures = outcomes.reduce((n, o) => n + o.results.filter((r) => !r.ok).length, 0);
  const errors = outcomes.filter((o) => o.errors.length > 0).length;
  const time = outcomes.reduce((n, o) => n + o.durationMs, 0);
  out.push(`<testsuites${attrs({ name: 'statewire test', tests, failures, errors, time: seconds(time) })}>`);
  for (const o of outcomes) {
    const failed = o.errors.length > 0 ? 0 : o.results.filter((r) => !r.ok).length;
    out.push(
      `  <testsuite${attrs({ name: o.name ?? o.file, tests: caseCount(o), failures: failed, errors: o.errors.length > 0 ? 1 : 0, time: seconds(o.durationMs), file: o.file })}>`,
    );
    const props: Record<string, string | number> = {};
    if (o.graph !== undefined) props.graph = o.graph;
    if (o.run) Object.assign(props, { steps: o.run.steps, status: o.run.status });
    if (Object.keys(props).length > 0) {
      out.push('    <properties>');
      for (const [k, v] of Object.entries(props))
        out.push(`      <property${attrs({ name: k, value: v })}/>`);
      out.push('    </properties>');
    }
    if (o.errors.length > 0) {
      out.push(`    <testcase${attrs({ classname: o.file, name: 'load test file' })}>`);
      out.push(
        `      <error${attrs({ message: o.errors[0]!, type: 'invalid-test' })}>${xmlEscape(o.errors.join('\n'))}</error>`,
      );
      out.push('    </testcase>');
    }
    for (const r of o.errors.length > 0 ? [] : o.results) {
      const open = `    <testcase${attrs({ classname: o.file, name: r.title })}`;
      if (r.ok) {
        out.push(`${open}/>`);
        continue;
      }
      const message = r.message ?? `expected ${yamlValue(r.expected)}, got ${yamlValue(r.actual)}`;
      out.push(`${open}>`);
      out.push(
        `      <failure${attrs({ message, type: 'expectation' })}>${xmlEscape(diagnostics(r).join('\n'))}</failure>`,
      );
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
