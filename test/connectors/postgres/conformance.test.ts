/** The conformance suite on a real PostgreSQL server, a schema per test. */
import { afterAll, inject } from 'vitest';
import { storedText } from '../../../connectors/postgres/postgres-types.ts';
import { postgresTarget } from '../../support/targets/postgres-target.ts';
import { runConformanceSuite } from '../../conformance/suite.ts';

const target = postgresTarget(inject('postgresUrl'));
afterAll(() => target.close());
// Postgres cannot store U+0000: the connector's documented rule replaces it.
runConformanceSuite({ ...target, storedText });
