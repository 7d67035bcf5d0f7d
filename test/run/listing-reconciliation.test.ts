/** The one decision every front end makes of a complete listing (`reconcileListing`), without I/O. */
import { describe, expect, it } from 'vitest';
import { configSchemaOf } from '../../connectors/registry.ts';
import type { Website } from '../../schemas/index.ts';
import { ConfigError } from '../../src/errors.ts';
import type { Listing } from '../../src/feed/list-websites.ts';
import { type ReconcileInput, reconcileListing } from '../../src/run/listing-reconciliation.ts';
import { MassRemovalError } from '../../src/run/reconcile-websites.ts';

const listing = (ids: readonly string[]): Listing => ({
  websites: ids.map((id) => ({ website: { id } as Website, raw: { id } })),
  rejected: [],
  seenIds: new Set(ids),
  plan: ids.map((id) => ({ id, measured: true })),
});
const config = configSchemaOf().parse({
  source: { base_url: 'http://127.0.0.1:1', api_key: 'k' },
  destination: { type: 'duckdb', path: ':memory:' },
});
const input = (overrides: Partial<ReconcileInput>): ReconcileInput => ({
  listing: listing(['web_1', 'web_2', 'web_3']),
  known: [],
  workspace: 'default',
  config,
  named: undefined,
  allowMassRemoval: false,
  refusesUnlisted: false,
  ...overrides,
});

describe('reconcileListing', () => {
  it("removes the workspace's own unlisted websites, plans the listed ones, and leaves another workspace's ids out", () => {
    const decided = reconcileListing(
      input({
        known: [
          { id: 'web_1', workspace: 'default' },
          { id: 'web_2', workspace: 'default' },
          { id: 'web_0', workspace: 'default' },
          { id: 'web_3', workspace: 'acme' },
          { id: 'web_9', workspace: 'acme' },
        ],
      }),
    );
    expect(decided.removed).toEqual(['web_0']);
    expect([...decided.taken]).toEqual([['web_3', 'acme']]);
    expect(decided.planned.map((w) => w.id)).toEqual(['web_1', 'web_2']);
    expect(decided.unlisted).toEqual([]);
  });

  it('refuses a listing that removes more than half of the known websites, unless allowed', () => {
    const known = ['web_4', 'web_5', 'web_1'].map((id) => ({ id, workspace: 'default' }));
    expect(() => reconcileListing(input({ known }))).toThrow(MassRemovalError);
    expect(reconcileListing(input({ known, allowMassRemoval: true })).removed).toEqual(['web_4', 'web_5']);
  });

  it('narrows to --websites; an unlisted one is reported, or refused by a command that refuses it', () => {
    const named = ['web_2', 'web_7'];
    const decided = reconcileListing(input({ named }));
    expect(decided.planned.map((w) => w.id)).toEqual(['web_2']);
    expect(decided.unlisted).toEqual(['web_7']);
    expect(() => reconcileListing(input({ named, refusesUnlisted: true }))).toThrow(ConfigError);
  });
});
