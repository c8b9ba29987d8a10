// The "Batch…" form, pure: its text fields → the POST /api/batches body (episodes, workers, seed,
// `path=value` overrides, one a line), or the errors to show beside the fields; and a server 400
// (`{error:{code,message,path}}`) → the field, and for an override its line, that it names.
import { MAX_EPISODES, MAX_WORKERS } from '../../domain/batch/batch.schema.ts';
import { ApiError } from '../api/client.ts';
import type { BatchStartBody } from './batch.api.ts';

export interface BatchFormValues {
  episodes: string;
  workers: string;
  seed: string;
  /** `path=value` lines; blank lines and `#` comments are skipped. */
  overrides: string;
}

export const DEFAULT_FORM: BatchFormValues = { episodes: '8', workers: '2', seed: '', overrides: '' };

export type BatchField = 'episodes' | 'workers' | 'seed' | 'overrides' | 'general';

export interface FieldError {
  field: BatchField;
  message: string;
  /** 1-based line of the overrides box the error is about. */
  line?: number;
  /** The JSON path or override path the server (or the form) named. */
  path?: string;
}

export interface ParsedOverrides {
  /** `path=value`, trimmed around the path and the value. */
  sets: string[];
  /** The 1-based source line of each entry of `sets`. */
  lines: number[];
  errors: FieldError[];
}

export function parseOverrides(text: string): ParsedOverrides {
  const out: ParsedOverrides = { sets: [], lines: [], errors: [] };
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    const t = raw.trim();
    if (t === '' || t.startsWith('#')) return;
    const eq = t.indexOf('=');
    const bad = (message: string, path?: string) =>
      out.errors.push({ field: 'overrides', line, message, ...(path ? { path } : {}) });
    if (eq < 0) return bad(`line ${line}: "${t}" is not path=value`);
    const path = t.slice(0, eq).trim();
    const value = t.slice(eq + 1).trim();
    if (path === '') return bad(`line ${line}: the path before "=" is empty`);
    if (/\s/.test(path)) return bad(`line ${line}: the path "${path}" contains a space`, path);
    const first = seen.get(path);
    if (first !== undefined) return bad(`line ${line}: ${path} is already set on line ${first}`, path);
    seen.set(path, line);
    out.sets.push(`${path}=${value}`);
    out.lines.push(line);
  });
  return out;
}

/** A whole number in [min, max] from a text field; blank is `undefined` unless required. */
function intField(
  field: BatchField,
  label: string,
  text: string,
  min: number,
  max: number,
  errors: FieldError[],
  required = false,
): number | undefined {
  const t = text.trim();
  if (t === '') {
    if (required) errors.push({ field, message: `${label} is required` });
    return undefined;
  }
  const n = Number(t);
  if (!/^-?\d+$/.test(t) || !Number.isSafeInteger(n)) {
    errors.push({ field, message: `${label} must be a whole number` });
    return undefined;
  }
  if (n < min || n > max) {
    errors.push({ field, message: `${label} must be between ${min} and ${max}` });
    return undefined;
  }
  return n;
}

export type ParsedForm =
  | { ok: true; body: Omit<BatchStartBody, 'loop_definition'>; lines: number[] }
  | { ok: false; errors: FieldError[] };

/** The form's values as a request body (the graph is added by the caller), or every error at once. */
export function parseBatchForm(v: BatchFormValues): ParsedForm {
  const errors: FieldError[] = [];
  const episodes = intField('episodes', 'Episodes', v.episodes, 1, MAX_EPISODES, errors, true);
  const workers = intField('workers', 'Workers', v.workers, 1, MAX_WORKERS, errors);
  const seed = intField('seed', 'Seed', v.seed, 0, Number.MAX_SAFE_INTEGER, errors);
  const o = parseOverrides(v.overrides);
  errors.push(...o.errors);
  if (errors.length > 0 || episodes === undefined) return { ok: false, errors };
  return {
    ok: true,
    body: {
      episodes,
      ...(workers !== undefined ? { workers } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(o.sets.length > 0 ? { set: o.sets } : {}),
    },
    lines: o.lines,
  };
}

const FIELD_PATHS: Record<string, BatchField> = {
  episodes: 'episodes',
  workers: 'workers',
  seed: 'seed',
};

/** The server's `{error:{message, path}}` of a refused start, when it sent one. */
function errorOf(e: unknown): { message: string; path?: string } {
  const body = e instanceof ApiError ? e.body : undefined;
  const err = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  if (typeof err === 'object' && err !== null) {
    const { message, path } = err as { message?: unknown; path?: unknown };
    if (typeof message === 'string')
      return { message, ...(typeof path === 'string' && path !== '' ? { path } : {}) };
  }
  return { message: (e as Error).message };
}

/**
 * Where a refused start belongs: `$.set[i]` (or a message naming one override's path) → that
 * override's line; `$.episodes` / `$.workers` / `$.seed` → that field; anything else (the graph, the
 * server) → the form as a whole. The message always names the path.
 */
export function serverError(e: unknown, sets: readonly string[], lines: readonly number[]): FieldError {
  const { message, path } = errorOf(e);
  const rel = path?.replace(/^\$\.?/, '');
  const text = path && !message.includes(rel ?? path) ? `${path}: ${message}` : message;
  const onLine = (i: number): FieldError => ({
    field: 'overrides',
    message: text,
    ...(lines[i] !== undefined ? { line: lines[i] } : {}),
    ...(path ? { path } : {}),
  });
  const setIndex = rel !== undefined ? /^set(?:\[(\d+)\])?/.exec(rel) : null;
  if (setIndex) return setIndex[1] !== undefined ? onLine(Number(setIndex[1])) : onLine(-1);
  const field = rel !== undefined ? FIELD_PATHS[rel] : undefined;
  if (field) return { field, message: text, ...(path ? { path } : {}) };
  const keys = sets.map((s) => s.slice(0, s.indexOf('=')));
  let i = rel !== undefined ? keys.indexOf(rel) : -1;
  if (i < 0) i = keys.findIndex((k) => new RegExp(`(^|[^\\w.])${escapeRe(k)}($|[^\\w.])`).test(message));
  if (i >= 0) return onLine(i);
  return { field: 'general', message: text, ...(path ? { path } : {}) };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
