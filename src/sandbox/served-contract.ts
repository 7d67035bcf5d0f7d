/**
 * The document `GET /public/v2/openapi.json` serves (spec 4.9): the bundled contract
 * (schemas/openapi.ts, the same document as schemas/openapi.json) unless a served-contract
 * variant asks for another: one that declares more (citation fields, a mention field, a
 * metric, a reason value, a type change), one a client cannot use, or a hostile one.
 */
import { buildOpenApiDocument } from '../../schemas/openapi.ts';
import { NEW_MENTION_FIELD, NEW_METRIC, NEW_REASON } from './data/contract-records.ts';
import type { Reply } from './http/reply.ts';
import type { SandboxVariant } from './variants.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is edited by JSON path
type Json = Record<string, any>;

const percent = (description: string) => ({
  anyOf: [{ type: 'number', minimum: 0, maximum: 100 }, { type: 'null' }],
  description,
});

/** Where `contract_external_ref` points: a URL and a file, neither of which a client may read. */
export const EXTERNAL_REFS = ['https://contracts.example.invalid/citation.json#/Title', 'file:///etc/hostname'];
/** Size of the `contract_huge` document: twice what a client reads. */
const HUGE_BYTES = 10 * 1024 * 1024;
/** `contract_ref_chain`: references in a row, each pointing at the next. */
const REF_CHAIN = 10_000;
/** `contract_deep_nesting`: levels of the nested field, written as text (`JSON.stringify` recurses). */
const DEEP_NESTING = 3_000;
const DEEP_PLACEHOLDER = 'contract_deep_nesting: the nested field';
const deepField = () =>
  `${'{"type":"object","properties":{"next":'.repeat(DEEP_NESTING / 2)}{"type":"string"}${'}}'.repeat(DEEP_NESTING / 2)}`;
/** `contract_repeated_description`: fields sharing one schema whose description is `LONG_DESCRIPTION` characters. */
const REPEATED_FIELDS = 300;
const LONG_DESCRIPTION = 3_000_000;

function declareCitationFields(schemas: Json): void {
  const text = (description: string) => ({ type: 'string', description });
  schemas.Citation = {
    type: 'object',
    properties: {
      id: text('The citation id.'),
      website_id: { $ref: '#/components/schemas/WebsiteId' },
      analysis_id: { $ref: '#/components/schemas/AnalysisId' },
      provider: { $ref: '#/components/schemas/ProviderName' },
      observed_at: { $ref: '#/components/schemas/Timestamp' },
      available_at: { $ref: '#/components/schemas/Timestamp' },
      url: { type: 'string', format: 'uri', description: 'The cited page.' },
      domain: text('The host of the cited page.'),
      title: { type: ['string', 'null'], description: "The cited page's title; null when unknown." },
      rank: {
        type: 'integer',
        minimum: 1,
        description: 'Where the citation stands among the answer’s sources, 1 first.',
      },
    },
    required: ['id', 'analysis_id', 'provider', 'observed_at', 'available_at', 'url', 'domain', 'rank'],
    additionalProperties: {},
  };
}

function declareNewMetric(schemas: Json): void {
  schemas.Metrics.properties[NEW_METRIC] = percent('Share of answers that recommend the brand, 0 to 100.');
  schemas.Metrics.required.push(NEW_METRIC);
  schemas.UnavailableReasons.propertyNames.enum.push(NEW_METRIC);
  const versions = [
    schemas.SnapshotMeta.properties.metric_definition_versions,
    schemas.HistoryPoint.properties.meta.properties.metric_definition_versions,
  ];
  for (const object of versions) object.properties[NEW_METRIC] = { ...object.properties.visibility };
}

/** Documents that are valid JSON and hostile to a reader: no reader may crash or stall on them. */
function declareHostile(variants: ReadonlySet<SandboxVariant>, schemas: Json): void {
  const mention = schemas.Mention.properties;
  if (variants.has('contract_bad_pointer')) mention.sentiment = { $ref: '#/components/%E0%A4%A' };
  if (variants.has('contract_ref_chain')) {
    for (let i = 0; i < REF_CHAIN; i++) schemas[`Chain${i}`] = { $ref: `#/components/schemas/Chain${i + 1}` };
    schemas[`Chain${REF_CHAIN}`] = { type: 'string' };
    mention.sentence_text = { $ref: '#/components/schemas/Chain0' };
  }
  if (variants.has('contract_deep_nesting')) mention.extensions = DEEP_PLACEHOLDER;
  if (variants.has('contract_repeated_description')) {
    schemas.LongNote = { type: 'string', description: 'n'.repeat(LONG_DESCRIPTION) };
    declareCitationFields(schemas);
    for (let i = 1; i <= REPEATED_FIELDS; i++)
      schemas.Citation.properties[`note_${String(i).padStart(3, '0')}`] = { $ref: '#/components/schemas/LongNote' };
  }
}

/** The bundled document edited as the variants say (served-contract variants that declare more). */
function declaredDocument(variants: ReadonlySet<SandboxVariant>): Json {
  // A copy: the built document shares its objects with every other build.
  const document: Json = structuredClone(buildOpenApiDocument());
  const schemas = document.components.schemas;
  if (variants.has('contract_citation_fields')) declareCitationFields(schemas);
  if (variants.has('contract_new_mention_field')) {
    schemas.Mention.properties[NEW_MENTION_FIELD] = {
      type: ['string', 'null'],
      description: 'The language of the answer (BCP 47); null when not detected.',
    };
    schemas.Mention.required.push(NEW_MENTION_FIELD);
  }
  if (variants.has('contract_new_metric')) declareNewMetric(schemas);
  if (variants.has('contract_new_reason')) schemas.UnavailableReasons.additionalProperties.enum.push(NEW_REASON);
  if (variants.has('contract_type_change'))
    schemas.Mention.properties.position_in_response = {
      anyOf: [{ type: 'number', minimum: 1 }, { type: 'null' }],
      description: 'Where in the response the mention comes; fractional between two sentences.',
    };
  if (variants.has('contract_drops_paging')) {
    delete schemas.ListMeta.properties.next_cursor;
    schemas.ListMeta.required = schemas.ListMeta.required.filter((name: string) => name !== 'next_cursor');
  }
  if (variants.has('contract_missing_paths')) delete document.paths['/public/v2/websites/{website_id}/mentions'];
  if (variants.has('contract_not_openapi')) {
    const { openapi: _, ...rest } = document;
    return { swagger: '2.0', ...rest };
  }
  if (variants.has('contract_external_ref')) {
    schemas.Mention.properties.sentence_text = { $ref: EXTERNAL_REFS[0] };
    schemas.Mention.properties.mention_spans = { $ref: EXTERNAL_REFS[1] };
  }
  if (variants.has('contract_ref_cycle')) {
    schemas.Loop = { $ref: '#/components/schemas/LoopBack' };
    schemas.LoopBack = { $ref: '#/components/schemas/Loop' };
    schemas.Mention.properties.sentence_text = { $ref: '#/components/schemas/Loop' };
  }
  declareHostile(variants, schemas);
  if (variants.has('contract_huge')) document['x-padding'] = 'x'.repeat(HUGE_BYTES);
  return document;
}

/** The reply of `GET /public/v2/openapi.json` under these variants. */
export function servedContractReply(variants: ReadonlySet<SandboxVariant>): Reply {
  const body = declaredDocument(variants);
  if (variants.has('contract_deep_nesting')) {
    const text = JSON.stringify(body).replace(JSON.stringify(DEEP_PLACEHOLDER), deepField);
    return { status: 200, body: null, raw: true, text };
  }
  if (variants.has('contract_truncated')) {
    const text = JSON.stringify(body);
    return { status: 200, body: null, raw: true, text: text.slice(0, Math.floor(text.length / 2)) };
  }
  return { status: 200, body, raw: true };
}
