/**
 * Writes the generated contract files (`npm run schemas`): schemas/openapi.json,
 * schemas/config.schema.json and docs/tables.md. A test checks the committed files equal what
 * this produces. A generator, not a contract: it reads the connector registry, which
 * `schemas/` (a leaf) may not.
 */
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { configSchemaOf } from '../connectors/registry.ts';
import { buildOpenApiDocument } from '../schemas/openapi.ts';
import { buildTablesDoc } from './tables-doc.ts';

/** The JSON Schema of the YAML config, input side (defaults optional), for editor completion. */
export function buildConfigJsonSchema(): Record<string, unknown> {
  const { $schema, ...schema } = z.toJSONSchema(configSchemaOf(), { target: 'draft-2020-12', io: 'input' });
  return {
    $schema,
    title: 'aivis configuration',
    description: 'The aivis YAML config. ${VAR} references are read from the environment.',
    ...schema,
  };
}

const text = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** File path (relative to the repository root) -> exact contents. */
export function generatedFiles(): Record<string, string> {
  return {
    'schemas/openapi.json': text(buildOpenApiDocument()),
    'schemas/config.schema.json': text(buildConfigJsonSchema()),
    'docs/tables.md': buildTablesDoc(),
  };
}

if (import.meta.main) {
  const root = new URL('..', import.meta.url);
  for (const [path, contents] of Object.entries(generatedFiles())) {
    writeFileSync(new URL(path, root), contents);
    process.stdout.write(`wrote ${path}\n`);
  }
}
