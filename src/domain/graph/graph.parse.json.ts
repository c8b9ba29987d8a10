// Scans JSON text: locates the first syntax error, so `statewire check` and the editor can say
// "line 3, column 7: expected ',' or '}'" the same way in every runtime (engines word and place
// JSON.parse errors differently, and some quote the whole input back), and finds duplicate object
// keys, which JSON.parse resolves silently by keeping the last value.
import { jsonPath } from '../validate/issues.ts';

export interface JsonErrorLocation {
  offset: number;
  line: number;
  column: number;
  reason: string;
}

export interface DuplicateKey {
  /** JSON path of the repeated key, e.g. `$.containers[0].states.notes`. */
  path: string;
  /** The same path as keys and array indices: `['containers', 0, 'states', 'notes']`. */
  segments: (string | number)[];
  line: number;
  column: number;
}

class Stop {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

const WS = new Set([' ', '\t', '\n', '\r']);

function describe(ch: string | undefined): string {
  return ch === undefined ? 'end of input' : `'${ch}'`;
}

/** Scans `text` as JSON (RFC 8259) and returns where it first goes wrong, or null if it is valid. */
export function locateJsonError(text: string): JsonErrorLocation | null {
  return scanJson(text).error;
}

/** Keys that appear twice in one object of a valid JSON text (the earlier value is lost on parse). */
export function findDuplicateKeys(text: string): DuplicateKey[] {
  return scanJson(text, true).duplicates;
}

/** `$.nodes[3].config` ends at a segment boundary inside `$.nodes[3].config.ports`, `$.nodes[3]` too. */
const isPathPrefix = (prefix: string, path: string) =>
  path === prefix ||
  (path.startsWith(prefix) && (path[prefix.length] === '.' || path[prefix.length] === '['));

/**
 * Where the values at `paths` (JSON paths as issues name them) start in a JSON text: 1-based line
 * and column. A path the text does not hold (a missing key) maps to the deepest value on its way, so
 * "`$.nodes[3].config.ports` is required" points at node 3's config. Used to place schema errors of
 * a file that is valid JSON; walks the whole text once, so call it on the failure path only.
 */
export function locateJsonPaths(
  text: string,
  paths: readonly string[],
): Map<string, { line: number; column: number }> {
  const best = new Map<string, { depth: number; offset: number }>();
  scanJson(text, true, (at, offset) => {
    const here = jsonPath(at);
    for (const p of paths) {
      if (!isPathPrefix(here, p)) continue;
      const prev = best.get(p);
      if (!prev || at.length > prev.depth) best.set(p, { depth: at.length, offset });
    }
  });
  const out = new Map<string, { line: number; column: number }>();
  for (const [p, { offset }] of best) out.set(p, lineColumn(text, offset));
  return out;
}

function scanJson(
  text: string,
  trackKeys = false,
  /** Called at the first character of every value with its path (needs `trackKeys`). */
  onValue?: (at: readonly (string | number)[], offset: number) => void,
): { error: JsonErrorLocation | null; duplicates: DuplicateKey[] } {
  const duplicates: DuplicateKey[] = [];
  // Path of the value being scanned; only kept up to date when tracking keys, and only copied when
  // a duplicate turns up, so the common case allocates nothing per key.
  const at: (string | number)[] = [];
  let i = 0;
  const ws = () => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const fail = (reason: string): never => {
    throw new Stop(i, reason);
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${describe(text[i])}`);
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      const ch = text[i];
      if (ch === undefined) fail('unterminated string');
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        const esc = text[i + 1];
        if (esc === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape in string');
          i += 6;
        } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i += 2;
        else fail('bad escape in string');
      } else if (ch! < ' ') fail('control character in string (escape it)');
      else i++;
    }
  };
  const number = () => {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '-' || m[0] === '') fail(`unexpected ${describe(text[i])}`);
    i += m![0].length;
  };
  const value = (depth: number): void => {
    if (depth > 5000) fail('nesting too deep');
    ws();
    onValue?.(at, i);
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      const keys = trackKeys ? new Set<string>() : null;
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`expected a double-quoted property name, found ${describe(text[i])}`);
        const keyStart = i;
        string();
        if (keys) {
          const rawKey = text.slice(keyStart + 1, i - 1);
          const key = rawKey.includes('\\') ? (JSON.parse(text.slice(keyStart, i)) as string) : rawKey;
          if (keys.has(key)) {
            const segments = [...at, key];
            duplicates.push({ path: jsonPath(segments), segments, ...lineColumn(text, keyStart) });
          } else keys.add(key);
          at.push(key);
        }
        ws();
        if (text[i] !== ':') fail(`expected ':' after property name, found ${describe(text[i])}`);
        i++;
        value(depth + 1);
        if (keys) at.pop();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail(`expected ',' or '}' after property value, found ${describe(text[i])}`);
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let k = 0; ; k++) {
        if (trackKeys) at.push(k);
        value(depth + 1);
        if (trackKeys) at.pop();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail(`expected ',' or ']' after array element, found ${describe(text[i])}`);
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    fail(`unexpected ${describe(ch)}`);
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail(`unexpected ${describe(text[i])} after the JSON value`);
    return { error: null, duplicates };
  } catch (e) {
    const offset = e instanceof Stop ? e.offset : i;
    const reason = e instanceof Stop ? e.reason : 'nesting too deep';
    return { error: { offset, ...lineColumn(text, offset), reason }, duplicates };
  }
}

/** 1-based line and column of a character offset (columns count UTF-16 units, like editors do). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text[k] === '\n') {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
