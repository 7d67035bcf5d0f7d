/**
 * `components.schemas` of the OpenAPI document, converted from the zod schemas by
 * `z.toJSONSchema` (draft 2020-12, the dialect of OpenAPI 3.1), so the document and the
 * validators cannot disagree. A registered schema becomes a named component and a `$ref`
 * wherever it is used.
 */
import { z } from 'zod';
import {
  analysisIdSchema,
  countSchema,
  dataEnvelope,
  listMetaSchema,
  looseRecord,
  mentionIdSchema,
  nullableTimestampSchema,
  percentSchema,
  promptImportIdSchema,
  providerNameSchema,
  requestIdSchema,
  requestMetaSchema,
  timestampSchema,
  websiteIdSchema,
} from './common.ts';
import { websiteSchema } from './website.ts';
import {
  competitorEntrySchema,
  countsSchema,
  historyPointSchema,
  metricsSchema,
  providerEntrySchema,
  snapshotDataSchema,
  snapshotMetaSchema,
  unavailableReasonsSchema,
} from './analytics.ts';
import { mentionSchema } from './mention.ts';
import { citationSchema } from './citation.ts';
import { errorEnvelopeSchema } from './error.ts';
import { promptImportItemSchema, promptImportRequestSchema } from './prompt-import.ts';
import {
  importErrorSchema,
  promptImportItemResultSchema,
  promptImportReceiptEnvelopeSchema,
  promptImportReceiptSchema,
} from './prompt-import-receipt.ts';

const listOf = (record: z.ZodType) => looseRecord({ data: z.array(record), meta: listMetaSchema });

/** Component name -> schema. Envelopes are named after the response they describe. */
export const COMPONENT_SCHEMAS = {
  Timestamp: timestampSchema,
  NullableTimestamp: nullableTimestampSchema,
  WebsiteId: websiteIdSchema,
  AnalysisId: analysisIdSchema,
  MentionId: mentionIdSchema,
  PromptImportId: promptImportIdSchema,
  RequestId: requestIdSchema,
  ProviderName: providerNameSchema,
  Percent: percentSchema,
  Count: countSchema,
  RequestMeta: requestMetaSchema,
  ListMeta: listMetaSchema,
  Website: websiteSchema,
  Metrics: metricsSchema,
  Counts: countsSchema,
  UnavailableReasons: unavailableReasonsSchema,
  ProviderEntry: providerEntrySchema,
  CompetitorEntry: competitorEntrySchema,
  Snapshot: snapshotDataSchema,
  SnapshotMeta: snapshotMetaSchema,
  HistoryPoint: historyPointSchema,
  Mention: mentionSchema,
  Citation: citationSchema,
  ErrorEnvelope: errorEnvelopeSchema,
  PromptImportItem: promptImportItemSchema,
  PromptImportRequest: promptImportRequestSchema,
  PromptImportItemResult: promptImportItemResultSchema,
  PromptImportError: importErrorSchema,
  PromptImportReceipt: promptImportReceiptSchema,
  PromptImportReceiptResponse: promptImportReceiptEnvelopeSchema,
  WebsiteList: listOf(websiteSchema),
  WebsiteResponse: dataEnvelope(websiteSchema, requestMetaSchema),
  SnapshotResponse: dataEnvelope(snapshotDataSchema, snapshotMetaSchema),
  HistoryList: listOf(historyPointSchema),
  MentionList: listOf(mentionSchema),
  CitationList: listOf(citationSchema),
} satisfies Record<string, z.ZodType>;
export type ComponentName = keyof typeof COMPONENT_SCHEMAS;

/** `#/components/schemas/<name>`; the name type makes a reference to a missing component a type error. */
export const componentRef = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` });

/** JSON Schemas of every component, without the per-schema `$schema`/`$id` the document sets once. */
export function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENT_SCHEMAS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, schema]),
  );
}

/**
 * A parameter's JSON Schema, inline. Output side: the `limit` parser's text-to-number step has
 * no JSON Schema, the integer it yields does (and its default still shows).
 */
export function parameterSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' });
  return json;
}
