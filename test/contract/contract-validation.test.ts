/**
 * Records are valid when the bundled contract or the document in force allows them; what only
 * the document in force allows is loaded with the typed columns the bundled contract can hold.
 */
import { describe, expect, it } from 'vitest';
import { snapshotMetaSchema } from '../../schemas/analytics.ts';
import { formatIssues } from '../../schemas/format-issues.ts';
import { mentionSchema } from '../../schemas/mention.ts';
import { buildOpenApiDocument } from '../../schemas/openapi.ts';
import { readContractDocument } from '../../src/contract/contract-document.ts';
import { ContractValidation } from '../../src/contract/contract-validation.ts';
import { mention } from '../schemas/fixtures.ts';

type Json = Record<string, any>;

async function validation(edit: (schemas: Json) => void) {
  const served: Json = structuredClone(buildOpenApiDocument());
  edit(served.components.schemas);
  return new ContractValidation(await readContractDocument(served));
}

const meta = (reasons: Record<string, string>) => ({
  request_id: 'req_1',
  includes: [],
  projection_version: 'public_metrics_v1',
  metric_definition_bundle_version: 'public_metric_definitions_v1',
  metric_precision_version: 'metric_precision_v1',
  metric_definition_versions: {
    visibility: 'visibility_v1',
    share_of_voice: 'share_of_voice_v1',
    sentiment: 'sentiment_v1',
    citation_share: 'citation_share_v1',
    average_mention_position: 'average_mention_position_v1',
  },
  unavailable_reasons: reasons,
  data_quality: { is_partial: false },
});

describe('ContractValidation', () => {
  it('accepts a reason value and a metric key the document in force declares, and keeps them', async () => {
    const declared = await validation((schemas) => {
      schemas.UnavailableReasons.additionalProperties.enum.push('sentiment_sampling_paused');
      schemas.UnavailableReasons.propertyNames.enum.push('recommendation_rate');
    });
    const schema = declared.schema('analytics', 'meta', snapshotMetaSchema);
    const reasons = { sentiment: 'sentiment_sampling_paused', recommendation_rate: 'no_eligible_responses' };
    const parsed = schema.safeParse(meta(reasons));
    expect(parsed.success && parsed.data.unavailable_reasons).toEqual(reasons);
  });

  it('rejects a value neither contract allows, with the bundled contract words', async () => {
    const declared = await validation((schemas) => {
      schemas.UnavailableReasons.additionalProperties.enum.push('sentiment_sampling_paused');
    });
    const schema = declared.schema('analytics', 'meta', snapshotMetaSchema);
    const undeclared = meta({ sentiment: 'quota_exhausted' });
    const parsed = schema.safeParse(undeclared);
    const bundled = snapshotMetaSchema.safeParse(undeclared);
    expect(parsed.success).toBe(false);
    expect(formatIssues(parsed.error!)).toBe(formatIssues(bundled.error!));
    expect(formatIssues(parsed.error!)).toContain('(got "quota_exhausted")');
  });

  it('loads a type-changed value into no typed column (null there, _raw keeps it); a required one stays rejected', async () => {
    const position = await validation((schemas) => {
      schemas.Mention.properties.position_in_response = { anyOf: [{ type: 'number', minimum: 1 }, { type: 'null' }] };
    });
    const parsed = position
      .schema('mentions', 'record', mentionSchema)
      .safeParse({ ...mention(), position_in_response: 4.5 });
    expect(parsed.success && parsed.data.position_in_response).toBeNull();

    const truncated = await validation((schemas) => {
      schemas.Mention.properties.sentence_text_truncated = { type: 'string' };
    });
    const changed = { ...mention(), sentence_text_truncated: 'yes' };
    expect(truncated.schema('mentions', 'record', mentionSchema).safeParse(changed).success).toBe(false);
  });

  it('is the bundled schema itself when the bundled contract is in force', () => {
    expect(new ContractValidation(undefined).schema('mentions', 'record', mentionSchema)).toBe(mentionSchema);
  });
});

describe('patterns of the document in force', () => {
  // `(a+)+` backtracks exponentially in a backtracking engine: 2^5,000 steps on the first text.
  it('run in linear time: a backtracking pattern answers at once, and still decides', async () => {
    const declared = await validation((schemas) => {
      schemas.UnavailableReasons.additionalProperties = { type: 'string', pattern: '^(?:sentiment_paused|(a+)+)$' };
    });
    const schema = declared.schema('analytics', 'meta', snapshotMetaSchema);
    expect(schema.safeParse(meta({ sentiment: `${'a'.repeat(5000)}!` })).success).toBe(false);
    expect(schema.safeParse(meta({ sentiment: 'a'.repeat(5000) })).success).toBe(true);
    expect(schema.safeParse(meta({ sentiment: 'sentiment_paused' })).success).toBe(true);
  });

  it('a pattern RE2 cannot run (a backreference, a lookahead) is not checked', async () => {
    const declared = await validation((schemas) => {
      schemas.UnavailableReasons.additionalProperties = { type: 'string', pattern: '^(a)\\1(?=b)$' };
    });
    const schema = declared.schema('analytics', 'meta', snapshotMetaSchema);
    expect(schema.safeParse(meta({ sentiment: 'sentiment_paused' })).success).toBe(true);
  });
});
