/**
 * OpenLineage run events (spec 2-0-2), written against the official JSON Schemas: no
 * JavaScript client exists. One event is `{ eventType, eventTime, run, job, inputs, outputs,
 * producer, schemaURL }`; every facet carries `_producer` and the `_schemaURL` of its
 * published schema. The tests validate every event aivis emits against those schemas.
 */
import type { TableSpec } from '../destination/table-spec.ts';
import type { DatasetName } from './dataset-names.ts';

const SPEC = 'https://openlineage.io/spec';
const RUN_EVENT_SCHEMA = `${SPEC}/2-0-2/OpenLineage.json#/$defs/RunEvent`;
/** The version of each facet schema aivis writes (the `$id`s of `/work/shared/openlineage/facets`). */
const FACETS = {
  schema: `${SPEC}/facets/1-2-0/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet`,
  outputStatistics: `${SPEC}/facets/1-0-2/OutputStatisticsOutputDatasetFacet.json#/$defs/OutputStatisticsOutputDatasetFacet`,
  errorMessage: `${SPEC}/facets/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet`,
  jobType: `${SPEC}/facets/2-0-4/JobTypeJobFacet.json#/$defs/JobTypeJobFacet`,
  processingEngine: `${SPEC}/facets/1-1-1/ProcessingEngineRunFacet.json#/$defs/ProcessingEngineRunFacet`,
} as const;

export type RunEventType = 'START' | 'COMPLETE' | 'FAIL' | 'ABORT';

/** A column of an output, for the `schema` facet (the logical type: `string`, `int64`, `timestamp`, ...). */
export interface SchemaField {
  readonly name: string;
  readonly type: string;
}

/** A dataset this run writes; `rowCount` (rows upserted by the run) only on the event that ends it. */
export interface OutputTable {
  readonly dataset: DatasetName;
  readonly fields?: readonly SchemaField[];
  readonly rowCount?: number;
}

/** A table's columns as `schema` facet fields. */
export function tableFields(table: TableSpec): SchemaField[] {
  return table.columns.map((column) => ({ name: column.name, type: column.type }));
}

export interface RunEventInput {
  readonly eventType: RunEventType;
  readonly eventTime: Date;
  /** A UUID, the same on every event of the run. */
  readonly runId: string;
  readonly job: DatasetName;
  readonly inputs: readonly DatasetName[];
  readonly outputs: readonly OutputTable[];
  /** aivis's version. */
  readonly version: string;
  /** FAIL only: the run's error message, already redacted. */
  readonly errorMessage?: string;
}

/** The producer URI: the aivis release that wrote the event. */
export function producerOf(version: string): string {
  return `https://www.npmjs.com/package/aivis/v/${encodeURIComponent(version)}`;
}

export function runEvent(input: RunEventInput): Record<string, unknown> {
  const producer = producerOf(input.version);
  const facet = (schemaURL: string, fields: Record<string, unknown>) => ({
    _producer: producer,
    _schemaURL: schemaURL,
    ...fields,
  });
  return {
    eventType: input.eventType,
    eventTime: input.eventTime.toISOString(),
    producer,
    schemaURL: RUN_EVENT_SCHEMA,
    run: {
      runId: input.runId,
      facets: {
        processing_engine: facet(FACETS.processingEngine, { name: 'aivis', version: input.version }),
        ...(input.errorMessage === undefined
          ? {}
          : {
              errorMessage: facet(FACETS.errorMessage, {
                message: input.errorMessage,
                programmingLanguage: 'JavaScript',
              }),
            }),
      },
    },
    job: {
      namespace: input.job.namespace,
      name: input.job.name,
      facets: {
        jobType: facet(FACETS.jobType, { processingType: 'BATCH', integration: 'AIVIS', jobType: 'COMMAND' }),
      },
    },
    inputs: input.inputs.map((dataset) => ({ namespace: dataset.namespace, name: dataset.name })),
    outputs: input.outputs.map(({ dataset, fields, rowCount }) => ({
      namespace: dataset.namespace,
      name: dataset.name,
      ...(fields === undefined
        ? {}
        : {
            facets: {
              schema: facet(FACETS.schema, {
                fields: fields.map((field, i) => ({ ...field, ordinal_position: i + 1 })),
              }),
            },
          }),
      ...(rowCount === undefined
        ? {}
        : { outputFacets: { outputStatistics: facet(FACETS.outputStatistics, { rowCount }) } }),
    })),
  };
}
