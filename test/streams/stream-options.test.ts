/** The config contract's streams (schemas/streams-config.ts) are the streams a sync reads, in its order, with those options. */
import { expect, it } from 'vitest';
import { STREAM_OPTIONS } from '../../schemas/streams-config.ts';
import { STREAMS } from '../../src/streams/registry.ts';

it('every stream of the registry is a streams: key of the config, in order, with its options from the contract', () => {
  expect(Object.keys(STREAM_OPTIONS)).toEqual(STREAMS.map((stream) => stream.name));
  for (const stream of STREAMS) expect(stream.options).toBe(STREAM_OPTIONS[stream.name]);
});
