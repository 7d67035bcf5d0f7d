/**
 * docs/configuration.md cannot miss a key: every key of schemas/config.schema.json (the JSON
 * Schema generated from the loader's zod schema) has a row `| \`key\` | type | default | ... |`
 * there, under a heading naming its `type: X` when it belongs to one kind of destination, with
 * the schema's default in its default cell; and no row documents a key the schema lacks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './markdown.ts';

type Json = Record<string, any>;

/** A config key: its dotted path, the `type` of the block it belongs to (destinations), its default. */
interface ConfigKey {
  readonly path: string;
  readonly variant?: string;
  readonly default?: unknown;
}

const label = (key: ConfigKey) => (key.variant ? `${key.path} (type: ${key.variant})` : key.path);

/** Every key of the schema, objects included; a `oneOf` of objects told apart by `type` gives each its variant. */
function schemaKeys(node: Json, prefix = '', variant?: string): ConfigKey[] {
  const keys: ConfigKey[] = [];
  for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, Json>)) {
    const path = prefix ? `${prefix}.${name}` : name;
    keys.push({ path, variant, default: child.default });
    keys.push(...schemaKeys(child, path, variant));
    for (const branch of (child.oneOf ?? []) as Json[]) {
      const kind = branch.properties?.type?.const;
      if (typeof kind === 'string') keys.push(...schemaKeys(branch, path, kind));
    }
  }
  return keys;
}

/** The key rows of configuration.md: key, variant (from the nearest heading naming `type: X`), default cell. */
function documentedKeys(markdown: string): (ConfigKey & { readonly cell: string })[] {
  let variant: string | undefined;
  const rows: (ConfigKey & { cell: string })[] = [];
  for (const line of markdown.split('\n')) {
    if (/^#{1,6}\s/.test(line)) variant = /`type: ([a-z]+)`/.exec(line)?.[1];
    const row = /^\|\s*`([a-z_][A-Za-z0-9_.]*)`\s*\|[^|]*\|([^|]*)\|/.exec(line);
    if (row) rows.push({ path: row[1]!, variant, cell: row[2]!.trim() });
  }
  return rows;
}

/** How configuration.md disagrees with the schema (empty when it lists every key with its default). */
function configurationProblems(schema: Json, markdown: string): string[] {
  const expected = schemaKeys(schema);
  const documented = documentedKeys(markdown);
  const find = (key: ConfigKey) => documented.find((d) => d.path === key.path && d.variant === key.variant);
  const problems: string[] = [];
  for (const key of expected) {
    const row = find(key);
    if (!row) {
      problems.push(`${label(key)} is not documented: add a row | \`${key.path}\` | type | default | description |`);
      continue;
    }
    if (key.default === undefined || (typeof key.default === 'object' && !Array.isArray(key.default))) continue;
    const values = Array.isArray(key.default) ? key.default : [key.default];
    for (const value of values) {
      if (!row.cell.includes(`\`${String(value)}\``))
        problems.push(`${label(key)}: the default cell "${row.cell}" does not say \`${String(value)}\``);
    }
  }
  for (const row of documented) {
    if (!expected.some((key) => key.path === row.path && key.variant === row.variant))
      problems.push(`${label(row)} is documented but is not a key of the config`);
  }
  return problems;
}

const read = (name: string) => readFileSync(path.join(ROOT, name), 'utf8');

describe('docs/configuration.md and schemas/config.schema.json', () => {
  const schema = JSON.parse(read('schemas/config.schema.json')) as Json;

  it('the schema has keys of every kind (sanity of the walk)', () => {
    const keys = schemaKeys(schema).map(label);
    expect(keys).toContain('source.requests_per_minute');
    expect(keys).toContain('destination.location (type: bigquery)');
    expect(keys).toContain('streams.mentions.providers');
    expect(keys.length).toBeGreaterThan(40);
  });

  it('lists every key with its default, and no other', () => {
    expect(configurationProblems(schema, read('docs/configuration.md'))).toEqual([]);
  });

  it('fails on a missing key, a wrong default and a key the schema lacks', () => {
    const small: Json = {
      properties: {
        source: { properties: { timeout_seconds: { default: 60 }, base_url: {} } },
        destination: {
          oneOf: [{ properties: { type: { const: 'duckdb' }, path: { default: './aivis.duckdb' } } }],
        },
      },
    };
    const markdown = [
      '| key | type | default | description |',
      '|---|---|---|---|',
      '| `source` | object | - | |',
      '| `source.timeout_seconds` | number | `30` | |',
      '| `source.retries` | integer | `6` | |',
      '| `destination` | object | - | |',
      '#### DuckDB (`type: duckdb`)',
      '| `destination.type` | `duckdb` | required | |',
      '| `destination.path` | path | `./aivis.duckdb` | |',
    ].join('\n');
    expect(configurationProblems(small, markdown)).toEqual([
      'source.timeout_seconds: the default cell "`30`" does not say `60`',
      'source.base_url is not documented: add a row | `source.base_url` | type | default | description |',
      'source.retries is documented but is not a key of the config',
    ]);
  });
});
