/**
 * The official OpenLineage JSON Schemas (spec 2-0-2 and its facets, /work/shared/openlineage,
 * unchanged) in ajv's 2020-12 validator: every schema registered under its `$id`, so `$ref`s
 * resolve from the local files and nothing is fetched.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const ROOT = '/work/shared/openlineage';
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

function loadSchemas(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const files = [
    path.join(ROOT, 'OpenLineage.json'),
    ...readdirSync(path.join(ROOT, 'facets')).map((name) => path.join(ROOT, 'facets', name)),
  ];
  for (const file of files) ajv.addSchema(JSON.parse(readFileSync(file, 'utf8')) as object);
  return ajv;
}

const ajv = loadSchemas();
const SPEC = 'https://openlineage.io/spec';

/** Facet key -> the `$id` of the facet schema that declares it. */
const FACET_SCHEMAS: Record<string, string> = {
  schema: `${SPEC}/facets/1-2-0/SchemaDatasetFacet.json`,
  outputStatistics: `${SPEC}/facets/1-0-2/OutputStatisticsOutputDatasetFacet.json`,
  errorMessage: `${SPEC}/facets/1-0-1/ErrorMessageRunFacet.json`,
  jobType: `${SPEC}/facets/2-0-4/JobTypeJobFacet.json`,
  processing_engine: `${SPEC}/facets/1-1-1/ProcessingEngineRunFacet.json`,
};

/**
 * The schema errors of one run event: the event against `RunEvent`, and each facet it holds
 * against its own facet schema (the spec checks facets only as base facets). Empty = valid.
 */
export function runEventErrors(event: unknown): string[] {
  const errors: string[] = [];
  const check = (id: string, value: unknown, where: string) => {
    const validate = ajv.getSchema(id);
    if (!validate) throw new Error(`no schema ${id}`);
    if (!validate(value))
      errors.push(...(validate.errors ?? []).map((e) => `${where}${e.instancePath} ${e.message} (${e.schemaPath})`));
  };
  check(`${SPEC}/2-0-2/OpenLineage.json#/$defs/RunEvent`, event, 'event');
  const e = event as {
    run?: { facets?: Record<string, unknown> };
    job?: { facets?: Record<string, unknown> };
    outputs?: { facets?: Record<string, unknown>; outputFacets?: Record<string, unknown> }[];
  };
  const facetGroups = [
    e.run?.facets,
    e.job?.facets,
    ...(e.outputs ?? []).flatMap((output) => [output.facets, output.outputFacets]),
  ];
  for (const group of facetGroups) {
    for (const [key, facet] of Object.entries(group ?? {})) {
      const id = FACET_SCHEMAS[key];
      if (!id) {
        errors.push(`facet ${key} has no schema known to this test`);
        continue;
      }
      check(id, { [key]: facet }, `facet ${key}`);
      const schemaURL = (facet as { _schemaURL?: string })._schemaURL ?? '';
      if (!schemaURL.startsWith(`${id}#/$defs/`)) errors.push(`facet ${key}: _schemaURL ${schemaURL} is not ${id}`);
    }
  }
  return errors;
}
