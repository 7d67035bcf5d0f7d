/**
 * A live one-line progress display for a TTY: websites done, rows, requests, and time spent
 * waiting for the rate budget, summed over the runs of one command (one per workspace). Off
 * when stderr is not a terminal (logs are JSON lines then).
 */
import type { ClientStats } from '../client/api-client.ts';
import type { RunCounters } from '../sync/run-counters.ts';

/** One run's counters and its client's statistics. */
export interface ProgressSource {
  readonly counters: RunCounters;
  readonly stats: ClientStats;
}

export function startProgressDisplay(
  runs: readonly ProgressSource[],
  stream: NodeJS.WriteStream = process.stderr,
): () => void {
  if (!stream.isTTY) return () => {};
  const sum = (of: (run: ProgressSource) => number) => runs.reduce((total, run) => total + of(run), 0);
  const render = () => {
    const line =
      `websites ${sum((r) => r.counters.websitesDone)}/${sum((r) => r.counters.websitesPlanned)}  ` +
      `rows ${sum((r) => r.counters.rows)}  rejected ${sum((r) => r.counters.rejected)}  ` +
      `requests ${sum((r) => r.stats.requests)}  rate-limit wait ${(sum((r) => r.stats.rateLimitWaitMs) / 1000).toFixed(0)}s`;
    stream.write(`\r\u001b[2K${line}`);
  };
  const timer = setInterval(render, 250);
  timer.unref();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    render();
    stream.write('\n');
  };
}
