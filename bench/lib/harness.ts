/**
 * What every figure script shares: the `--quick` flag, measuring with
 * mitata in rounds that alternate the peers, medians, and the one JSON line
 * a figure prints for `bench/run.ts`.
 */
import { measure } from "mitata";

/** `--quick`: a smoke run with few iterations; the numbers mean little. */
export const QUICK = process.argv.includes("--quick");

/** The value of `--name=value` on the command line, if given. */
export function arg(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((a) => a.startsWith(prefix))?.slice(prefix.length);
}

/** Peers to run (`--only=ours,sdk`); all when absent. */
export function selected(peer: string): boolean {
  const only = arg("only");
  return only === undefined || only.split(",").includes(peer);
}

/** Forces a full collection; figures run with `--expose-gc`. */
export function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The `p`-quantile (0..1) of `values`, nearest rank. */
export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}

/** Time spent per measurement (mitata keeps sampling until this much CPU time passed). */
export const MIN_TIME_NS = QUICK ? 15e6 : 400e6;

/**
 * Times one call of `fn` (nanoseconds per call, as mitata samples; one call
 * per sample, no batching). Returns the median and all samples.
 */
export async function time(fn: () => Promise<unknown>, minTimeNs = MIN_TIME_NS): Promise<{ p50: number; p99: number; samples: number[] }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const stats = await measure(fn, {
    batch_threshold: 0,
    min_samples: QUICK ? 3 : 12,
    min_cpu_time: minTimeNs,
    warmup_samples: QUICK ? 1 : 4,
    gc: gc ?? false,
  });
  return { p50: stats.p50, p99: stats.p99, samples: stats.samples };
}

/** One measured value: the median over rounds, with each round's value. */
export interface Measurement {
  /** What was measured (a message, an in-flight count, a file). */
  readonly case: string;
  /** Who: `floor`, `sdk`, `ours`, or a variant such as `ours (web streams)`. */
  readonly peer: string;
  readonly value: number;
  readonly rounds: readonly number[];
}

/** What a figure script prints, as its last stdout line. */
export interface FigureResult {
  readonly figure: string;
  readonly title: string;
  readonly unit: string;
  /** Whether a larger value is better (throughput) or worse (latency, bytes). */
  readonly better: "higher" | "lower";
  readonly quick: boolean;
  readonly rounds: number;
  readonly results: readonly Measurement[];
  /** Checks made on the peers' actual answers before timing (all must be true). */
  readonly verified: Readonly<Record<string, boolean>>;
  readonly notes: readonly string[];
}

/** Collects round values per (case, peer) and builds the result. */
export class Recorder {
  private readonly values = new Map<string, { case: string; peer: string; rounds: number[] }>();
  readonly verified: Record<string, boolean> = {};
  readonly notes: string[] = [];

  add(caseName: string, peer: string, value: number): void {
    const key = `${caseName}\u0000${peer}`;
    let entry = this.values.get(key);
    if (!entry) {
      entry = { case: caseName, peer, rounds: [] };
      this.values.set(key, entry);
    }
    entry.rounds.push(value);
  }

  verify(what: string, ok: boolean): void {
    this.verified[what] = ok;
    if (!ok) process.stderr.write(`verification failed: ${what}\n`);
  }

  result(meta: Pick<FigureResult, "figure" | "title" | "unit" | "better" | "rounds">): FigureResult {
    const results = [...this.values.values()].map((e) => ({ case: e.case, peer: e.peer, value: median(e.rounds), rounds: e.rounds }));
    return { ...meta, quick: QUICK, results, verified: this.verified, notes: this.notes };
  }
}

/** Prints the figure's JSON line (the only stdout output of a figure script) and exits. */
export function emit(result: FigureResult): never {
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

/** Rotates `items` by `round` so no peer always runs first (warm caches, GC debt). */
export function rotate<T>(items: readonly T[], round: number): T[] {
  const k = round % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/** Waits for a macrotask turn (lets stream pumps settle between measurements). */
export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Adds, for each peer but `base`, the row `ratio to <base> (same round), <case>`:
 * one value per round, the peer's value over the base's in that round. Peers
 * of one round run back to back, so the median of these ratios is steadier
 * on a shared machine than the ratio of the two medians, whose rounds may
 * have run in different weather.
 */
export function addRoundRatios(rec: Recorder, caseName: string, base = "floor"): void {
  const { results } = rec.result({ figure: "", title: "", unit: "", better: "higher", rounds: 0 });
  const of = results.find((r) => r.case === caseName && r.peer === base);
  if (of === undefined) return;
  for (const r of results) {
    if (r.case !== caseName || r.peer === base) continue;
    r.rounds.forEach((value, i) => {
      const b = of.rounds[i];
      if (b !== undefined) rec.add(`ratio to ${base} (same round), ${caseName}`, r.peer, value / b);
    });
  }
}
