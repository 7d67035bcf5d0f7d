/**
 * A command's use of the configured destination: opened, used, and closed however the use
 * ends (an open that fails is closed too: a connector may hold a half-made connection).
 */
import type { DestinationConfig } from '../../schemas/config.ts';
import type { Destination } from '../destination/destination.ts';
import type { DestinationDeps } from '../../connectors/registry.ts';
import { createDestination } from './destination-factory.ts';

/** Opens `destination`, runs `use` on it and closes it in every case. */
export async function withOpenDestination<T>(
  destination: Destination,
  use: (destination: Destination) => Promise<T>,
): Promise<T> {
  try {
    await destination.open();
    return await use(destination);
  } finally {
    await destination.close();
  }
}

/** Creates the configured destination, then as `withOpenDestination`. */
export async function withDestination<T>(
  config: DestinationConfig,
  deps: DestinationDeps,
  use: (destination: Destination) => Promise<T>,
): Promise<T> {
  return withOpenDestination(await createDestination(config, deps), use);
}
