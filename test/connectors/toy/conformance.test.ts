/** The conformance suite on the toy destination, as every destination runs it; rows read back from its DuckDB files. */
import path from 'node:path';
import { afterAll } from 'vitest';
import { duckdbTarget } from '../../support/targets/duckdb-target.ts';
import { runConformanceSuite } from '../../conformance/suite.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { createToyDestination } from './index.ts';

const files = duckdbTarget();
afterAll(() => files.close());
runConformanceSuite({
  ...files,
  name: 'toy',
  create: async (schema) =>
    createToyDestination(
      { type: 'toy', folder: path.dirname(files.file(schema)), token: 'unused', schema },
      { logger: silentLogger },
    ),
});
