import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_EVOLVED_COLUMNS } from '../../schemas/config.ts';
import { planEvolution } from '../../src/evolution/evolution-plan.ts';
import { STREAMS } from '../../src/streams/registry.ts';
import { mentionsStream } from '../../src/streams/index.ts';
import { analyticsStream } from '../../src/streams/analytics.ts';
import { missingDeclarations } from './stream-declarations.ts';

describe('every registered stream declares everything about itself', () => {
  it.each(STREAMS.map((stream) => [stream.name, stream] as const))(
    '%s: described tables and columns, a record mapping per table, a window column for a feed',
    (_name, stream) => {
      expect(missingDeclarations(stream)).toEqual([]);
    },
  );

  it('names what a stream lacks', () => {
    const bare = { ...analyticsStream, mappings: analyticsStream.mappings.slice(0, 1) };
    expect(missingDeclarations(bare)).toEqual([
      'analytics: no record mapping for table analytics_providers',
      'analytics: no record mapping for table analytics_competitors',
      'analytics: stream analytics writes table analytics_providers but declares no record mapping for it in its mappings (docs/architecture.md#adding-a-stream)',
    ]);
    const stampless = { ...mentionsStream, windowColumn: 'sentiment' as const };
    expect(missingDeclarations(stampless)).toEqual([
      'mentions: window column sentiment is not a timestamp column of mentions',
    ]);
  });
});

describe('schema evolution of a table whose stream declares no mapping for it', () => {
  it('fails loudly, naming the stream and the table, rather than leaving the table unevolved', () => {
    const unmapped = { ...mentionsStream, mappings: [] };
    expect(() =>
      planEvolution([mentionsStream.table], () => [], new Map(), DEFAULT_MAX_EVOLVED_COLUMNS, [unmapped]),
    ).toThrow(
      'stream mentions writes table mentions but declares no record mapping for it in its mappings (docs/architecture.md#adding-a-stream)',
    );
  });

  it('leaves tables no stream writes alone (the engine tables hold no records)', () => {
    expect(planEvolution([{ ...mentionsStream.table, name: '_aivis_runs' }], () => [], new Map())).toEqual([]);
  });
});
