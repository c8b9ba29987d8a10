// Side-by-side figures: every benchmark that compares Statewire with a baseline reports through
// here, so `npm run bench` can write them all to bench/results/latest.json in one shape:
//   { name, ours, baseline, unit, ratio, goal, met, ours_min, ours_max, baseline_min, baseline_max, reps }
// `measureAB` alternates the two sides (A B A B …) so a burst of machine noise hits both, and reports
// the median of the repetitions with their min and max.

/** What a figure must satisfy: on the ratio ours/baseline, or on our absolute value. */
export interface Goal {
  on: 'ratio' | 'ours';
  op: '<=' | '>=' | '<';
  value: number;
}

export interface Figure {
  name: string;
  ours: number;
  /** null when the figure has no baseline (an absolute goal such as restore p95). */
  baseline: number | null;
  unit: string;
  /** ours / baseline (null without a baseline). */
  ratio: number | null;
  /** Human-readable goal, e.g. "ratio <= 1.25" or "ours < 100". */
  goal: string;
  met: boolean;
  ours_min: number;
  ours_max: number;
  baseline_min: number | null;
  baseline_max: number | null;
  reps: number;
  /** What was measured and how, in one sentence. */
  note?: string;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return NaN;
  return n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}

/** Nearest-rank percentile `p` (0–100) of `xs` (any order; not modified). */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

function holds(goal: Goal, ours: number, ratio: number | null): boolean {
  const x = goal.on === 'ratio' ? ratio : ours;
  if (x === null || !Number.isFinite(x)) return false;
  if (goal.op === '<=') return x <= goal.value;
  if (goal.op === '<') return x < goal.value;
  return x >= goal.value;
}

export function goalText(goal: Goal): string {
  return `${goal.on} ${goal.op} ${goal.value}`;
}

/** Builds a figure from already measured samples of both sides (one sample per repetition). */
export function figure(
  name: string,
  unit: string,
  goal: Goal,
  oursSamples: readonly number[],
  baselineSamples: readonly number[] | null,
  note?: string,
): Figure {
  const ours = median(oursSamples);
  const baseline = baselineSamples ? median(baselineSamples) : null;
  const ratio = baseline === null || baseline === 0 ? null : ours / baseline;
  return {
    name,
    ours,
    baseline,
    unit,
    ratio,
    goal: goalText(goal),
    met: holds(goal, ours, ratio),
    ours_min: Math.min(...oursSamples),
    ours_max: Math.max(...oursSamples),
    baseline_min: baselineSamples ? Math.min(...baselineSamples) : null,
    baseline_max: baselineSamples ? Math.max(...baselineSamples) : null,
    reps: oursSamples.length,
    ...(note ? { note } : {}),
  };
}

/**
 * Measures ours and the baseline alternately, `reps` times each (A B A B …; the order flips every
 * repetition so neither side always runs second), and returns their samples.
 */
export async function measureAB(
  reps: number,
  ours: () => Promise<number>,
  baseline: () => Promise<number>,
): Promise<{ ours: number[]; baseline: number[] }> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < reps; i++) {
    if (i % 2 === 0) {
      a.push(await ours());
      b.push(await baseline());
    } else {
      b.push(await baseline());
      a.push(await ours());
    }
  }
  return { ours: a, baseline: b };
}

/**
 * Measures several sides in turn, `reps` times each, the order rotating every repetition (A B C,
 * B C A, C A B, …) so no side always runs first or last; returns each side's samples. For figures
 * that share a baseline: each is then compared with the very same baseline samples.
 */
export async function measureRotating(
  reps: number,
  sides: readonly (() => Promise<number>)[],
): Promise<number[][]> {
  const samples = sides.map(() => [] as number[]);
  for (let i = 0; i < reps; i++)
    for (let k = 0; k < sides.length; k++) {
      const j = (i + k) % sides.length;
      samples[j]!.push(await sides[j]!());
    }
  return samples;
}

/** A bench module's result: free-form detail figures plus the side-by-side figures it measured. */
export interface BenchResult {
  [detail: string]: unknown;
  figures?: Figure[];
}
