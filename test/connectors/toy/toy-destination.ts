/**
 * The toy connector: the fake destination under the toy's type and flush sizing, recording
 * the rows of each commit per table so the test sees how the engine flushed.
 */
import type { DestinationDeps } from '../../../connectors/registry.ts';
import type { Destination, TableRows } from '../../../src/destination/destination.ts';
import { createFakeDestination, type FakeDestination } from '../../support/fake-destination.ts';
import { toyDestination } from './descriptor.ts';
import type { ToyConfig } from './toy-config.ts';

export interface ToyDestination extends Destination {
  readonly fake: FakeDestination;
  /** Per commit, the rows it carried per table (tables without rows left out). */
  readonly commits: Readonly<Record<string, number>>[];
}

export function createToyDestination(config: ToyConfig, _deps: DestinationDeps): ToyDestination {
  const fake = createFakeDestination({ schema: config.schema });
  const commits: Record<string, number>[] = [];
  return {
    ...bound(fake),
    type: 'toy',
    capabilities: { transactional: true, ...toyDestination.flushSizing },
    namespace: { database: config.folder, schema: config.schema },
    fake,
    commits,
    commit(parts: readonly TableRows[]) {
      commits.push(
        Object.fromEntries(parts.filter((p) => p.rows.length > 0).map((p) => [p.table.name, p.rows.length])),
      );
      return fake.commit(parts);
    },
  };
}

/** The fake's methods, callable apart from it. */
function bound(fake: FakeDestination): Destination {
  const methods = Object.entries(fake).filter(([, value]) => typeof value === 'function');
  return Object.fromEntries(
    methods.map(([name, fn]) => [name, (fn as (...args: unknown[]) => unknown).bind(fake)]),
  ) as unknown as Destination;
}
