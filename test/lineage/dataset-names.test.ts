/** OpenLineage's naming conventions per destination, and no credential in any name. */
import { describe, expect, it } from 'vitest';
import { configSchemaOf } from '../../connectors/registry.ts';
import { streamDataset, tableDataset } from '../../src/lineage/dataset-names.ts';
import { runEvent, tableFields } from '../../src/lineage/run-event.ts';
import { mentionsTable } from '../../src/tables/index.ts';
import { runEventErrors } from '../support/openlineage-schema.ts';

const destination = (block: Record<string, unknown>) =>
  configSchemaOf().parse({ source: { base_url: 'https://api.example.com', api_key: 'k' }, destination: block })
    .destination;

describe('dataset names', () => {
  it('name each destination table as OpenLineage does', () => {
    expect(
      tableDataset(
        destination({ type: 'postgres', url: 'postgres://loader:s3cret@db.internal:6543/analytics', schema: 'aivis' }),
        'mentions',
      ),
    ).toEqual({ namespace: 'postgres://db.internal:6543', name: 'analytics.aivis.mentions' });
    expect(
      tableDataset(destination({ type: 'postgres', url: 'postgresql://loader@db.internal/warehouse' }), 'websites'),
    ).toEqual({
      namespace: 'postgres://db.internal:5432',
      name: 'warehouse.aivis.websites',
    });
    expect(
      tableDataset(destination({ type: 'bigquery', project: 'acme-data', dataset: 'raw_aivis' }), 'citations'),
    ).toEqual({
      namespace: 'bigquery',
      name: 'acme-data.raw_aivis.citations',
    });
    expect(
      tableDataset(
        destination({
          type: 'snowflake',
          account: 'MyOrg-Prod',
          username: 'u',
          password: 'p',
          warehouse: 'WH',
          database: 'raw',
          schema: 'aivis',
        }),
        'mentions',
      ),
    ).toEqual({ namespace: 'snowflake://myorg-prod', name: 'RAW.AIVIS.MENTIONS' });
    expect(tableDataset(destination({ type: 'duckdb', path: '/data/aivis.duckdb' }), 'mentions')).toEqual({
      namespace: 'duckdb:///data/aivis.duckdb',
      name: 'aivis.mentions',
    });
  });

  it('name a Snowflake table by the names Snowflake stores: a quoted database or schema exactly', () => {
    const snowflake = (database: string, schema: string) =>
      destination({
        type: 'snowflake',
        account: 'acme',
        username: 'u',
        password: 'p',
        warehouse: 'WH',
        database,
        schema,
      });
    expect(tableDataset(snowflake('"MyDb"', '"Mixed Case"'), 'websites')).toEqual({
      namespace: 'snowflake://acme',
      name: 'MyDb.Mixed Case.WEBSITES',
    });
    expect(tableDataset(snowflake('"My""Db"', 'raw_aivis'), 'mentions').name).toBe('My"Db.RAW_AIVIS.MENTIONS');
  });

  it('name a stream by the API base URL, without credentials', () => {
    expect(streamDataset('https://user:pw@api.example.com/', 'mentions')).toEqual({
      namespace: 'https://api.example.com',
      name: 'mentions',
    });
  });

  it('build events the official schemas accept, START and FAIL alike', () => {
    const common = {
      eventTime: new Date('2026-01-02T03:04:05Z'),
      runId: '0b6a8f3e-2c1d-4e5f-9a7b-1c2d3e4f5a6b',
      job: { namespace: 'aivis', name: 'default.sync' },
      inputs: [streamDataset('https://api.example.com', 'mentions')],
      version: '0.1.0',
    };
    const output = { dataset: { namespace: 'bigquery', name: 'p.d.mentions' }, fields: tableFields(mentionsTable) };
    expect(runEventErrors(runEvent({ ...common, eventType: 'START', outputs: [output] }))).toEqual([]);
    const fail = runEvent({
      ...common,
      eventType: 'FAIL',
      outputs: [{ ...output, rowCount: 12 }],
      errorMessage: 'boom',
    });
    expect(runEventErrors(fail)).toEqual([]);
    expect(fail).toMatchObject({
      run: { facets: { errorMessage: { message: 'boom', programmingLanguage: 'JavaScript' } } },
      outputs: [{ outputFacets: { outputStatistics: { rowCount: 12 } } }],
    });
  });
});
