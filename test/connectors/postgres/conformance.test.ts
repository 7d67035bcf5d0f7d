/**
 * The conformance suite on a real PostgreSQL server, a schema per test; the literals topic
 * again as a loader whose role and database carry `standard_conforming_strings = off`, a legacy
 * setting under which a backslash escapes a quote in a plain string literal.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { storedText } from '../../../connectors/postgres/postgres-types.ts';
import { postgresTarget } from '../../support/targets/postgres-target.ts';
import { runConformanceSuite } from '../../conformance/suite.ts';
import { literalsTopic } from '../../conformance/topics/literals.ts';

const url = inject('postgresUrl');
const target = postgresTarget(url);
afterAll(() => target.close());
// Postgres cannot store U+0000: the connector's documented rule replaces it.
runConformanceSuite({ ...target, storedText });

describe('postgres with standard_conforming_strings = off on the role and the database', () => {
  const name = `legacy_${randomBytes(4).toString('hex')}`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const legacyUrl = new URL(url);
  legacyUrl.username = name;
  legacyUrl.password = password;
  legacyUrl.pathname = `/${name}`;
  const legacy = postgresTarget(legacyUrl.toString());
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      for (const statement of [
        `CREATE ROLE ${name} LOGIN PASSWORD '${password}'`,
        `CREATE DATABASE ${name} OWNER ${name}`,
        `ALTER ROLE ${name} SET standard_conforming_strings = off`,
        `ALTER DATABASE ${name} SET standard_conforming_strings = off`,
      ])
        await admin.query(statement);
    } finally {
      await admin.end();
    }
  });
  afterAll(() => legacy.close());
  literalsTopic({ ...legacy, name: 'postgres (legacy strings)', storedText });
});
