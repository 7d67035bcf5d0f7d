/**
 * A run's metrics as plain data: families of samples, each sample its labels and value. The
 * Pushgateway push and the textfile are both written from it by prom-client
 * (`metric-registry.ts`), and the textfile's earlier samples are read back into it.
 */
export interface MetricSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly samples: readonly MetricSample[];
}
