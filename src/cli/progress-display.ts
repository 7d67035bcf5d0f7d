/**
 * A live one-line progress display for a TTY: websites done, rows, requests, and time spent
 * waiting for the rate budget. Off when stderr is not a terminal (logs are JSON lines then).
 */
import type { ClientStats } from '../client/api-client.ts';
import type { RunCounters } from '../sync/run-counters.ts';

export function startProgressDisplay(
  counters: RunCounters,
  stats: ClientStats,
  stream: NodeJS.WriteStream = process.stderr,
): () => void {
  if (!stream.isTTY) return () => {};
  const render = () => {
    const line =
      `websites ${counters.websitesDone}/${counters.websitesPlanned}  rows ${counters.rows}  rejected ${counters.rejected}  ` +
      `requests ${stats.requests}  rate-limit wait ${(stats.rateLimitWaitMs / 1000).toFixed(0)}s`;
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
