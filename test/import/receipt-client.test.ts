import { describe, expect, it } from 'vitest';
import { postPartition, type ImportHttp } from '../../src/import/receipt-client.ts';
import { withDeepField } from '../../src/sandbox/data/deep-field.ts';

describe('receipt decoding', () => {
  it('refuses a receipt nested 5,000 levels deep like any invalid receipt, without crashing', async () => {
    const receipt = withDeepField({
      id: 'pim_1',
      object: 'prompt_import',
      website_id: 'web_1',
      status: 'pending',
      validate_only: false,
      created_at: '2026-01-01T00:00:00Z',
      expires_at: '2026-01-31T00:00:00Z',
    });
    const http: ImportHttp = {
      request: async () => ({
        status: 202,
        headers: {},
        body: { data: receipt, meta: { request_id: 'r1' } },
        requestId: 'r1',
      }),
    };
    await expect(postPartition(http, 'web_1', 'k'.repeat(16), new Uint8Array())).rejects.toThrow(
      'invalid receipt (202, request_id r1) from POST /public/v2/websites/web_1/prompts:import: nested deeper than 100 levels of objects and arrays, the most aivis stores',
    );
  });
});
