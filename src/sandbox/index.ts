/**
 * `startSandbox`: a spec-faithful local server of the Public API V2 (reads and prompt imports) on loopback,
 * with seeded data, a virtual data clock, switchable faults and the ground truth a correct
 * client must end up with. See docs/sandbox.md for the data model.
 */
import type { AddressInfo } from 'node:net';
import type { FaultProfile } from './http/fault-injector.ts';
import { createFaultInjector } from './http/fault-injector.ts';
import { createRateLimiter } from './http/rate-limiter.ts';
import { routeModules } from './routes/index.ts';
import { adminRoutes } from './routes/admin-routes.ts';
import { createSandboxEnv } from './sandbox-env.ts';
import { type SandboxStats, createStats } from './sandbox-stats.ts';
import { type SandboxTruth, createTruth } from './sandbox-truth.ts';
import { createSandboxServer } from './server.ts';
import { parseTimestamp } from './timestamps.ts';
import { checkVariants, type SandboxVariant } from './variants.ts';
import { followingClock, pinnedClock, type VirtualClock } from './virtual-clock.ts';
import { PRIMARY_WORKSPACE, type SandboxKeys } from './world/api-keys.ts';
import type { MetricVersionChange } from './world/metric-versions.ts';

export type { FaultKind, FaultProfile } from './http/fault-injector.ts';
export type { SandboxKeys } from './world/api-keys.ts';
export type { MetricVersionChange } from './world/metric-versions.ts';
export type { SandboxTruth } from './sandbox-truth.ts';
export type { SandboxStats } from './sandbox-stats.ts';
export type { AdvanceBy, VirtualClock } from './virtual-clock.ts';
export { SANDBOX_VARIANTS, type SandboxVariant } from './variants.ts';

/** Where a pinned data clock stands unless `start` says otherwise. */
const DEFAULT_START = '2026-01-01T00:00:00Z';

/** How to start a sandbox; every field is optional. */
export interface SandboxOptions {
  /** 0 (default) = a free port; the host is always 127.0.0.1. */
  port?: number;
  /** Seed of every generated value and key (default 1). */
  seed?: number;
  /** Websites in workspace 1 (default 5; every fifth is not yet measured). */
  websites?: number;
  /** Per workspace, across its keys (default 100); 0 = no limit. */
  requestsPerMinute?: number;
  /**
   * This machine's clock in epoch ms (default `Date.now`), read by the rate limiter and by a
   * data clock that follows it, so a test can inject it.
   */
  now?: () => number;
  /**
   * Where the data clock is pinned (default `2026-01-01T00:00:00Z`): it stands there until
   * `clock.advance`, so output never varies. Not with `followWallClock`.
   */
  start?: string;
  /**
   * Data time follows `now` to the second instead (what `aivis sandbox` does unless given
   * `--clock`): the seeded data is placed relative to the time at start, and the clock
   * cannot be advanced. Default false.
   */
  followWallClock?: boolean;
  /** Analyses each measured website has at start, one per day (default 6). */
  analysesPerWebsite?: number;
  /** Mentions per analysis, over all its writes (default 24). */
  mentionsPerAnalysis?: number;
  /** Citations per analysis (default 12). */
  citationsPerAnalysis?: number;
  /** Spec-legal answers other than the sandbox's own reading (see `SANDBOX_VARIANTS`); default none. */
  variants?: readonly SandboxVariant[];
}

/** A running sandbox. */
export interface Sandbox {
  /** `http://127.0.0.1:PORT`; the API is under `${baseUrl}/public/v2`. */
  readonly baseUrl: string;
  /** Ready key of workspace 1: read + prompts_write, V2-eligible, owner-issued. */
  readonly apiKey: string;
  /** Keys for the 401/403/404 and lineage cases. */
  readonly keys: SandboxKeys;
  /** The virtual data time; `advance` (pinned clocks only) starts and commits writes whose time comes. */
  readonly clock: VirtualClock;
  /** Adds websites to workspace 1 (listed at once, first analysis 2-8 h later); returns their ids. */
  addWebsites(count: number): string[];
  /** Removes a website of any workspace at once, also from scans in progress. */
  removeWebsite(id: string): void;
  /**
   * Changes version tags for every analysis measured at or after `from` (default: now; never
   * earlier, published analytics are immutable), in the latest snapshot, the history feed and
   * `truth`. Returns `from` as a timestamp. Example: a new bundle from tomorrow on,
   * `changeMetricVersions({ from: '2026-01-02T00:00:00Z', metric_definition_bundle_version: 'public_metric_definitions_v13' })`.
   */
  changeMetricVersions(change: MetricVersionChange): string;
  readonly faults: { set(profile: FaultProfile): void; clear(): void };
  /** What a complete, correct client of workspace 1 must end up with. */
  readonly truth: SandboxTruth;
  readonly stats: SandboxStats;
  close(): Promise<void>;
}

/** An option that must be a whole number >= 0, or its default. */
function wholeNumber(options: SandboxOptions, name: keyof SandboxOptions, fallback: number): number {
  const value = options[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new RangeError(`startSandbox: ${name} must be a whole number >= 0, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** The data clock the options ask for (see `start` and `followWallClock`). */
function dataClock(options: SandboxOptions, wallMs: () => number): VirtualClock {
  if (options.followWallClock) {
    if (options.start !== undefined)
      throw new RangeError('startSandbox: start pins the data clock; it cannot be given with followWallClock');
    return followingClock(wallMs);
  }
  const start = options.start ?? DEFAULT_START;
  const startMs = parseTimestamp(start);
  if (startMs === null)
    throw new RangeError(
      `startSandbox: start must be a timestamp like 2026-01-01T00:00:00Z, got ${JSON.stringify(start)}`,
    );
  return pinnedClock(startMs);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const wallMs = options.now ?? Date.now;
  const clock = dataClock(options, wallMs);
  const seed = wholeNumber(options, 'seed', 1);
  const env = createSandboxEnv({
    seed,
    clock,
    websites: wholeNumber(options, 'websites', 5),
    analysesPerWebsite: wholeNumber(options, 'analysesPerWebsite', 6),
    mentionsPerAnalysis: wholeNumber(options, 'mentionsPerAnalysis', 24),
    citationsPerAnalysis: wholeNumber(options, 'citationsPerAnalysis', 12),
    variants: checkVariants(options.variants),
  });
  const faults = createFaultInjector(seed);
  const stats = createStats();
  const limiter = createRateLimiter(wholeNumber(options, 'requestsPerMinute', 100), wallMs);
  const routes = [...routeModules, adminRoutes(faults, stats)].flatMap((module) => module(env));
  const server = createSandboxServer({ env, routes, faults, limiter, stats });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(wholeNumber(options, 'port', 0), '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: env.keys.keys.apiKey,
    keys: env.keys.keys,
    clock: env.clock,
    addWebsites: (count) => env.websites.add(PRIMARY_WORKSPACE, count, env.clock.nowMs()),
    removeWebsite: (id) => env.websites.remove(id),
    changeMetricVersions: (change) => env.metricVersions.change(change, env.clock.nowMs()),
    faults: { set: (profile) => faults.set(profile), clear: () => faults.clear() },
    truth: createTruth(env),
    stats,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
