/**
 * What the warehouse SDKs do with the same proxy variables as the API client (docs/configuration.md#networks), checked where it is cheap: the real SDKs against the local stand-ins on
 * loopback, a forward proxy on loopback logging what it forwarded. (The https paths,
 * CONNECT through the proxy, are the SDKs' own code and are described from it.)
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBigqueryDestination } from '../../connectors/bigquery/index.ts';
import { createSnowflakeDestination } from '../../connectors/snowflake/index.ts';
import type { Destination } from '../../src/destination/destination.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { ENGINE_TABLES } from '../../src/tables/index.ts';
import { uniqueSchema } from '../conformance/harness.ts';
import { startBigqueryStandIn, type BigqueryStandIn } from '../stand-ins/bigquery/bigquery-stand-in.ts';
import { fakeAuthClient } from '../stand-ins/bigquery/fake-auth.ts';
import { startStandIn, type StandInSetup } from '../stand-ins/snowflake/stand-in-fixture.ts';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.ts';

let proxy: ForwardProxy;
let bigquery: BigqueryStandIn;
let snowflake: StandInSetup;

beforeAll(async () => {
  proxy = await startForwardProxy();
  bigquery = await startBigqueryStandIn();
  snowflake = await startStandIn();
});
afterAll(async () => {
  await snowflake.standIn.close();
  await bigquery.close();
  await proxy.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
  proxy.log.length = 0;
});

/** Every proxy variable cleared, then `env` set. */
function proxyEnv(env: Record<string, string>): void {
  for (const name of ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY'])
    vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
}

/** Opens `destination` and creates the engine tables: a login and a few statements. */
async function exercise(destination: Destination): Promise<void> {
  await destination.open();
  try {
    await destination.ensureTables([...ENGINE_TABLES]);
  } finally {
    await destination.close();
  }
}

const bigqueryDestination = () =>
  createBigqueryDestination(
    {
      type: 'bigquery',
      project: bigquery.projectId,
      dataset: uniqueSchema('px'),
      location: 'US',
      api_endpoint: bigquery.url,
    },
    { logger: silentLogger, authClient: fakeAuthClient() },
  );
const snowflakeDestination = () =>
  createSnowflakeDestination(snowflake.config(uniqueSchema('px').toUpperCase()), { logger: silentLogger });
/** Every line the proxy logged goes to the BigQuery stand-in, and there was at least one. */
const expectBigqueryThroughProxy = () => {
  expect(proxy.log.length).toBeGreaterThan(0);
  for (const { line } of proxy.log)
    expect(line).toMatch(new RegExp(`^(GET|POST|PATCH|DELETE) ${bigquery.url}/bigquery/v2/projects/`));
};

describe('@google-cloud/bigquery and the proxy variables', () => {
  it('sends its REST calls through HTTP_PROXY, a loopback endpoint included', async () => {
    proxyEnv({ HTTP_PROXY: proxy.url });
    await exercise(await bigqueryDestination());
    expectBigqueryThroughProxy();
  });

  it('prefers HTTP_PROXY to HTTPS_PROXY, and takes HTTPS_PROXY when it is the only one (whatever the scheme)', async () => {
    proxyEnv({ HTTP_PROXY: proxy.url, HTTPS_PROXY: 'http://127.0.0.1:9' });
    await exercise(await bigqueryDestination());
    expectBigqueryThroughProxy();
    proxy.log.length = 0;
    proxyEnv({ HTTPS_PROXY: proxy.url });
    await exercise(await bigqueryDestination());
    expectBigqueryThroughProxy();
  });

  it('goes direct for a host NO_PROXY names', async () => {
    proxyEnv({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' });
    await exercise(await bigqueryDestination());
    expect(proxy.log).toEqual([]);
  });
});

describe('snowflake-sdk and the proxy variables', () => {
  it('picks the variable by the account URL scheme: HTTPS_PROXY alone leaves an http:// URL direct', async () => {
    proxyEnv({ HTTPS_PROXY: proxy.url });
    await exercise(await snowflakeDestination());
    expect(proxy.log).toEqual([]);
  });

  it('goes direct for a host NO_PROXY names', async () => {
    proxyEnv({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' });
    await exercise(await snowflakeDestination());
    expect(proxy.log).toEqual([]);
  });
});
