/**
 * What change-driven reads promise to land (docs/configuration.md#change-driven-reads), checked
 * after each hourly run of the change-driven figure against the sandbox's truth at that run's
 * start: every snapshot and history point published before the run is loaded; every piece of
 * evidence (mentions, citations) committed before the run is loaded unless it was committed
 * later than `settle_for` after its snapshot, and even then only while it is younger than
 * `sweep_every` plus one run interval (the bound the sweep gives).
 */
import pg from 'pg';
import type { Sandbox } from '../../src/sandbox/index.ts';

/** What one run left unloaded, by the promise it breaks (each must be 0). */
export interface LandingGaps {
  /** Websites whose latest published snapshot is not the one in `analytics_latest`. */
  readonly snapshots: number;
  /** History points published before the run and missing from `analytics_history`. */
  readonly history: number;
  /** Evidence committed within `settle_for` of its snapshot and missing. */
  readonly settledEvidence: number;
  /** Evidence older than `sweep_every` plus one run interval and missing. */
  readonly sweptEvidence: number;
  /** Later evidence still waiting for its sweep (allowed: the trade the user makes). */
  readonly awaitingSweep: number;
}

export interface LandingBounds {
  readonly settleForMs: number;
  readonly sweepEveryMs: number;
  readonly runIntervalMs: number;
}

async function loadedKeys(client: pg.Client, sql: string): Promise<Set<string>> {
  return new Set((await client.query<{ key: string }>(sql)).rows.map((row) => row.key));
}

export async function landingGaps(databaseUrl: string, sandbox: Sandbox, bounds: LandingBounds): Promise<LandingGaps> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const latest = await loadedKeys(
      client,
      `SELECT website_id || ' ' || analysis_id AS key FROM aivis.analytics_latest`,
    );
    const history = await loadedKeys(
      client,
      `SELECT website_id || ' ' || analysis_id AS key FROM aivis.analytics_history`,
    );
    const evidence = await loadedKeys(
      client,
      'SELECT id AS key FROM aivis.mentions UNION ALL SELECT id AS key FROM aivis.citations',
    );
    const nowMs = sandbox.clock.nowMs();
    let snapshots = 0;
    let historyGaps = 0;
    let settledEvidence = 0;
    let sweptEvidence = 0;
    let awaitingSweep = 0;
    for (const website of sandbox.truth.websites()) {
      const snapshot = sandbox.truth.snapshot(website.id)?.data as { analysis_id?: string | null } | undefined;
      if (snapshot?.analysis_id && !latest.has(`${website.id} ${snapshot.analysis_id}`)) snapshots++;
      const publishedMs = new Map<string, number>();
      for (const point of sandbox.truth.history(website.id)) {
        const analysisId = String(point.analysis_id);
        publishedMs.set(analysisId, Date.parse(String(point.available_at)));
        if (!history.has(`${website.id} ${analysisId}`)) historyGaps++;
      }
      for (const row of [...sandbox.truth.mentions(website.id), ...sandbox.truth.citations(website.id)]) {
        if (evidence.has(String(row.id))) continue;
        const committedMs = Date.parse(String(row.available_at));
        const snapshotMs = publishedMs.get(String(row.analysis_id)) ?? committedMs;
        if (committedMs - snapshotMs <= bounds.settleForMs) settledEvidence++;
        else if (nowMs - committedMs > bounds.sweepEveryMs + bounds.runIntervalMs) sweptEvidence++;
        else awaitingSweep++;
      }
    }
    return { snapshots, history: historyGaps, settledEvidence, sweptEvidence, awaitingSweep };
  } finally {
    await client.end();
  }
}
