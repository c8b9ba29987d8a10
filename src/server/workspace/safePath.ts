// Path safety for everything the API touches inside a workspace root. A client-supplied relative
// path is refused (400) when it is absolute, contains `..`/`.` segments, backslashes or NUL, or
// when the real path of it (or of its nearest existing ancestor) leaves the root through a symlink.
import { realpathSync, existsSync } from 'node:fs';
import { resolve, sep, dirname } from 'node:path';
import { ApiError } from '../errors/errors.ts';

const bad = (rel: string, why: string) => new ApiError(400, 'unsafe-path', `path ${JSON.stringify(rel)} ${why}`);

/** Splits and checks a client path (`a/b/c`); '' means the root itself. */
export function checkRelative(rel: string): string[] {
  if (rel.includes('\0')) throw bad(rel, 'contains a NUL byte');
  if (rel.includes('\\')) throw bad(rel, 'contains a backslash');
  if (rel.startsWith('/') || /^[A-Za-z]:/.test(rel)) throw bad(rel, 'is absolute');
  const trimmed = rel.replace(/\/+$/, '');
  if (trimmed === '') return [];
  const segs = trimmed.split('/');
  for (const s of segs) {
    if (s === '' ) throw bad(rel, 'has an empty segment');
    if (s === '.' || s === '..') throw bad(rel, 'may not contain "." or ".." segments');
    if (s.startsWith('.')) throw bad(rel, 'may not name hidden files or folders');
  }
  return segs;
}

function realOrAncestor(abs: string): string {
  let p = abs;
  while (!existsSync(p)) {
    const up = dirname(p);
    if (up === p) return p;
    p = up;
  }
  return realpathSync(p);
}

/** Absolute path of `rel` inside `root`, after every check; throws ApiError 400 otherwise. */
export function resolveInside(root: string, rel: string): string {
  const segs = checkRelative(rel);
  const abs = resolve(root, ...segs);
  if (abs !== root && !abs.startsWith(root + sep)) throw bad(rel, 'leaves the workspace');
  const realRoot = realpathSync(root);
  const real = realOrAncestor(abs);
  if (real !== realRoot && !real.startsWith(realRoot + sep)) throw bad(rel, 'resolves (through a link) outside the workspace');
  return abs;
}

/** Reference slug: lower-case, spaces and `-` → `_`; anything else outside [a-z0-9_.] dropped. */
export function slugify(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
    .replace(/[^a-z0-9_.]/g, '')
    .replace(/^\.+/, '')
    .slice(0, 120);
}
