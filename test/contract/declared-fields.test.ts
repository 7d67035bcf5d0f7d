import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../schemas/openapi.ts';
import { readContractDocument } from '../../src/contract/contract-document.ts';
import { declaredFields, declaredMetaFields } from '../../src/contract/declared-fields.ts';
import { fieldType } from '../../src/contract/field-type.ts';

const bundled = await readContractDocument(buildOpenApiDocument());

const summary = (fields: ReturnType<typeof declaredFields>) =>
  fields.map((f) => `${f.name}:${fieldType(f.schema)}${f.required ? '' : '?'}${f.nullable ? '|null' : ''}`);

describe('declaredFields', () => {
  it('lists the mention fields of the bundled contract, typed, required and nullable as spec 2.5 says', () => {
    expect(summary(declaredFields(bundled, 'mentions'))).toEqual([
      'id:string',
      'analysis_id:string',
      'observed_at:timestamp',
      'available_at:timestamp',
      'provider:string',
      'sentence_text:string',
      'sentence_text_truncated:boolean',
      'position_in_response:int64|null',
      'sentiment:float64|null',
      'mention_spans:json',
    ]);
  });

  it('reaches metrics and counts inside records and provider entries', () => {
    expect(declaredFields(bundled, 'analytics', ['metrics']).map((f) => f.name)).toEqual([
      'visibility',
      'share_of_voice',
      'sentiment',
      'citation_share',
      'average_mention_position',
    ]);
    expect(declaredFields(bundled, 'analytics', ['providers', 'counts'])).toHaveLength(11);
    expect(declaredFields(bundled, 'analytics_history', ['counts'])).toHaveLength(13);
    expect(declaredFields(bundled, 'analytics', ['competitors', 'metrics']).map((f) => f.name)).toEqual([
      'visibility',
      'share_of_voice',
      'citation_share',
      'average_mention_position',
    ]);
  });

  it('lists the keys a reason map may hold as optional fields, and the paging fields of a list meta', () => {
    expect(summary(declaredMetaFields(bundled, 'analytics', ['unavailable_reasons']))).toEqual([
      'visibility:string?',
      'share_of_voice:string?',
      'sentiment:string?',
      'citation_share:string?',
      'average_mention_position:string?',
    ]);
    expect(summary(declaredMetaFields(bundled, 'mentions'))).toEqual([
      'request_id:string',
      'has_more:boolean',
      'next_cursor:string|null',
      'scan_upper_bound:timestamp?',
    ]);
  });

  it('declares no citation field in the bundled contract (spec 2.6 shows none)', () => {
    expect(declaredFields(bundled, 'citations')).toEqual([]);
  });
});
