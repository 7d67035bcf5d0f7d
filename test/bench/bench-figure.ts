/** One row of the bench table: a ratio against its target, with the inputs that produced it. */
export interface BenchFigure {
  /** Stable key in results.json, e.g. `request_efficiency.full`. */
  readonly key: string;
  /** What is measured, as the table shows it. */
  readonly figure: string;
  /** The ratio (or, for memory, megabytes). */
  readonly value: number;
  /** e.g. `<= 1.02`. */
  readonly target: string;
  readonly met: boolean;
  /** The measured numbers the value derives from, in words. */
  readonly measured: string;
  /** Sizes, budgets and batch sizes that produced it. */
  readonly inputs: string;
  /** Raw numbers for results.json. */
  readonly detail?: Readonly<Record<string, unknown>>;
}

export function atMost(limit: number): (value: number) => { target: string; met: boolean } {
  return (value) => ({ target: `<= ${limit}`, met: value <= limit });
}

export function atLeast(limit: number): (value: number) => { target: string; met: boolean } {
  return (value) => ({ target: `>= ${limit}`, met: value >= limit });
}

/** Rounds for display and JSON alike, so the two never disagree. */
export function round(value: number, digits = 3): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** The sandbox sizes a figure ran on: W websites, H analyses each, M mentions and C citations per analysis. */
export function worldInputs(options: {
  websites?: number;
  analysesPerWebsite?: number;
  mentionsPerAnalysis?: number;
  citationsPerAnalysis?: number;
}): string {
  return `W=${options.websites}, H=${options.analysesPerWebsite}, M=${options.mentionsPerAnalysis}, C=${options.citationsPerAnalysis}`;
}
