/**
 * The gauges of one run and workspace (docs/architecture.md#lineage-and-metrics), named as the
 * product contract names them. `aivis_last_success_timestamp_seconds` is in the set only when
 * the run succeeded: pushed with add semantics, a failed run then leaves the last success
 * where it was.
 */
import type { MetricFamily, MetricSample } from './metric-families.ts';

export interface RunMetricsInput {
  readonly finishedAt: Date;
  readonly durationSeconds: number;
  readonly exitCode: number;
  /** The run ended `succeeded` (exit 0), as `aivis status` counts a success. */
  readonly succeeded: boolean;
  /** Every stream the run was asked to read, so a stream without rows reads 0, not its last run's value. */
  readonly streams: readonly string[];
  /** Rows loaded and records rejected per stream by this run. */
  readonly streamCounts: Readonly<Record<string, { readonly rows: number; readonly rejected: number }>>;
  readonly apiRequests: number;
  readonly rateLimitedResponses: number;
  /** Each stream's oldest committed `complete_through` (null: a scope never completed, written 0); absent when it could not be read. */
  readonly completeThrough?: readonly {
    readonly stream: string;
    readonly completeThrough: string | null;
    /** How far the stream is known current over every website in scope (docs/operations.md#coverage). */
    readonly checkedThrough?: string | null;
  }[];
  /** Websites the run read, and those it skipped with every stream unchanged. */
  readonly websitesRead?: number;
  readonly websitesSkippedUnchanged?: number;
}

const seconds = (date: Date) => date.getTime() / 1000;
const one = (value: number): MetricSample[] => [{ labels: {}, value }];

export function runMetrics(input: RunMetricsInput): MetricFamily[] {
  const perStream = (key: 'rows' | 'rejected') =>
    input.streams.map((stream) => ({ labels: { stream }, value: input.streamCounts[stream]?.[key] ?? 0 }));
  const families: MetricFamily[] = [
    {
      name: 'aivis_last_run_timestamp_seconds',
      help: 'When the last run ended (Unix time).',
      samples: one(seconds(input.finishedAt)),
    },
    {
      name: 'aivis_last_run_success',
      help: '1 if the last run succeeded, 0 otherwise.',
      samples: one(input.succeeded ? 1 : 0),
    },
    { name: 'aivis_last_run_exit_code', help: 'Exit code of the last run.', samples: one(input.exitCode) },
    {
      name: 'aivis_last_run_duration_seconds',
      help: 'How long the last run took.',
      samples: one(input.durationSeconds),
    },
    { name: 'aivis_rows_loaded', help: 'Rows the last run loaded, per stream.', samples: perStream('rows') },
    {
      name: 'aivis_records_rejected',
      help: 'Records the last run rejected, per stream.',
      samples: perStream('rejected'),
    },
    {
      name: 'aivis_api_requests',
      help: 'API requests the last run sent (retries included).',
      samples: one(input.apiRequests),
    },
    {
      name: 'aivis_api_rate_limited_responses',
      help: 'HTTP 429 answers the last run received.',
      samples: one(input.rateLimitedResponses),
    },
  ];
  if (input.websitesRead !== undefined)
    families.push(
      { name: 'aivis_websites_read', help: 'Websites the last run read.', samples: one(input.websitesRead) },
      {
        name: 'aivis_websites_skipped_unchanged',
        help: 'Websites the last run skipped: unchanged, settled and not due for their sweep (skip_unchanged).',
        samples: one(input.websitesSkippedUnchanged ?? 0),
      },
    );
  if (input.succeeded)
    families.push({
      name: 'aivis_last_success_timestamp_seconds',
      help: 'When the last successful run ended (Unix time).',
      samples: one(seconds(input.finishedAt)),
    });
  if (input.completeThrough)
    families.push({
      name: 'aivis_complete_through_timestamp_seconds',
      help: "Each stream's oldest committed complete_through (Unix time; 0: a scope never completed).",
      samples: input.completeThrough.map(({ stream, completeThrough }) => ({
        labels: { stream },
        // 0 reads as "never": an age alert fires on it, where a missing series would stay silent.
        value: completeThrough === null ? 0 : Date.parse(completeThrough) / 1000,
      })),
    });
  if (input.completeThrough)
    families.push({
      name: 'aivis_checked_through_timestamp_seconds',
      help: "Each stream's oldest checked_through over the websites in scope (Unix time; 0: a website never completed).",
      samples: input.completeThrough.map(({ stream, completeThrough, checkedThrough }) => {
        const through = checkedThrough === undefined ? completeThrough : checkedThrough;
        return { labels: { stream }, value: through === null ? 0 : Date.parse(through) / 1000 };
      }),
    });
  return families;
}
