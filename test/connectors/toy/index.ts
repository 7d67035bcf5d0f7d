/** The toy destination, as its descriptor's `load()` imports it. */
export { createToyDestination } from './toy-destination.ts';
export { openToyQuery } from './toy-query.ts';
