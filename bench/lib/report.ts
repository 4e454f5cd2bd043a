export interface Figure {
  name: string;
  value: number;
  unit: string;
}

/** Collects a benchmark's figures and prints each as `<bench>.<figure>: <value> <unit>`. */
export class Report {
  readonly figures: Figure[] = [];

  constructor(readonly bench: string) {}

  figure(name: string, value: number, unit: string): void {
    const rounded = Math.abs(value) >= 100 ? Math.round(value) : Number(value.toFixed(3));
    this.figures.push({ name, value: rounded, unit });
    process.stdout.write(`${this.bench}.${name}: ${rounded} ${unit}\n`);
  }

  /** Progress for long runs, on stderr so the figures stay easy to read. */
  progress(message: string): void {
    process.stderr.write(`[${this.bench}] ${message}\n`);
  }
}

/** A benchmark module: `bench/<name>.ts` default-exports one of these; the ratio is its last figure. */
export type Benchmark = (report: Report) => Promise<void>;

export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}
