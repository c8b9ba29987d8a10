// The repository explains itself: no tracked file cites documents that live outside it (the
// reference's write-ups and the seed notes the project started from), every `docs/…` citation names
// a page — and a section or heading — that exists, and every repository path a comment or page
// mentions is a tracked file. A moved or renamed file therefore fails here, naming each stale mention.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

const tracked = new Set(
  execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== ''),
);
/** The text files among them (binary and generated ones left out). */
const files = [...tracked].filter(
  (f) => f !== 'package-lock.json' && /\.(ts|tsx|mjs|js|py|md|sh|json|yml|yaml|toml|css|html|txt)$/.test(f),
);
const text = new Map(files.map((f) => [f, readFileSync(path.join(ROOT, f), 'utf8')]));

interface Hit {
  file: string;
  line: number;
  match: string;
}

/** Every match of `re` (its group 1 when it has one) in every tracked text file. */
function scan(re: RegExp): Hit[] {
  const hits: Hit[] = [];
  for (const [file, body] of text) {
    body.split('\n').forEach((line, i) => {
      for (const m of line.matchAll(re)) hits.push({ file, line: i + 1, match: m[1] ?? m[0] });
    });
  }
  return hits;
}

const show = (hits: Hit[]) => hits.map((h) => `${h.file}:${h.line}: ${h.match}`);

// Built from pieces so this file does not match itself.
const OUTSIDE = new RegExp(
  [
    'REFERENCE' + '\\.md',
    'NODE-SERVICES' + '\\.md',
    'ARCHITECTURE' + '\\.md',
    'shared' + '/seeds',
    '\\.\\./' + 'shared',
    '\\bseeds? ' + '0\\d\\d\\b',
    '\\bREFERENCE' + ' \\d',
  ].join('|'),
  'g',
);

/** `## 3. Title` / `### 3.4 Title` → "3", "3.4"; a numbered entry `12. **…**` → "12". */
function sectionNumbers(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)) out.add(m[1]!);
  for (const m of markdown.matchAll(/^(\d+)\. \*\*/gm)) out.add(m[1]!);
  return out;
}

const headings = (markdown: string) => [...markdown.matchAll(/^#{1,4} (.+)$/gm)].map((m) => m[1]!);

describe('the repository is self-contained', () => {
  it('finds the files it checks', () => {
    expect(tracked.has('docs/reference-system.md')).toBe(true);
    expect(files.length).toBeGreaterThan(100);
  });

  it('no tracked file cites a document outside the repository', () => {
    expect(show(scan(OUTSIDE))).toEqual([]);
  });

  it('every docs/ page cited exists', () => {
    const missing = scan(/(?<![\w/.-])(docs\/[\w.-]+\.md)/g).filter((h) => !tracked.has(h.match));
    expect(show(missing)).toEqual([]);
  });

  it('every "docs/<page> §N" names a numbered section of that page', () => {
    const bad = scan(/(?:docs\/[\w.-]+\.md) §\d+(?:\.\d+)*/g).filter((h) => {
      const [page = '', sec = ''] = h.match.split(' §');
      const body = text.get(page);
      return body === undefined || !sectionNumbers(body).has(sec);
    });
    expect(show(bad)).toEqual([]);
  });

  it('every `docs/<page> "Heading"` names a heading of that page', () => {
    const bad: Hit[] = [];
    for (const [file, body] of text) {
      body.split('\n').forEach((line, i) => {
        for (const m of line.matchAll(/(docs\/[\w.-]+\.md)`?,? "([^"]+)"/g)) {
          const page = text.get(m[1]!);
          if (page === undefined || !headings(page).some((h) => h.includes(m[2]!)))
            bad.push({ file, line: i + 1, match: `${m[1]} "${m[2]}"` });
        }
      });
    }
    expect(show(bad)).toEqual([]);
  });

  it('every repository path mentioned names a tracked file', () => {
    // Paths from the repository root ending in a file name; globs and runtime files
    // (workspace/…, created by a run) are not claims about the tree.
    const re =
      /(?<![\w/.@$-])((?:src|docs|e2e|scripts|bench|vectors|examples|python)\/[\w./-]*\.[a-z]{2,4})(?![\w*{])/g;
    const stale = scan(re).filter((h) => !tracked.has(h.match));
    expect(show(stale)).toEqual([]);
  });
});
