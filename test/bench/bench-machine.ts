/** The machine a bench ran on, so its figures can be read against it. */
import os from 'node:os';

export interface BenchMachine {
  readonly cores: number;
  readonly cpu: string;
  readonly memoryGb: number;
  readonly os: string;
  readonly node: string;
  readonly postgres: string;
  readonly duckdb: string;
}

export async function describeMachine(postgres: string): Promise<BenchMachine> {
  const { version } = await import('@duckdb/node-api');
  return {
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    postgres,
    duckdb: version(),
  };
}

export function machineLine(m: BenchMachine): string {
  return `${m.cores} cores (${m.cpu}), ${m.memoryGb} GB, ${m.os}; Node ${m.node}, PostgreSQL ${m.postgres}, DuckDB ${m.duckdb}`;
}
