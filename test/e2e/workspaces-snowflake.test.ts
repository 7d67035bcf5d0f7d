/** The workspaces suite on Snowflake: concurrent workspaces in one schema through the real driver and the stand-in. */
import { vi } from 'vitest';
import { createSnowflakeDestination } from '../../connectors/snowflake/index.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { SUITE_FAULTS, useSnowflakeStandIn } from '../stand-ins/snowflake/stand-in-hooks.ts';
import type { SyncTarget } from './sync-suite.ts';
import { runWorkspacesSuite } from './workspaces-suite.ts';

// Each test syncs several workspaces, each through its own data and lock sessions.
vi.setConfig({ testTimeout: 180_000 });
const sf = useSnowflakeStandIn({ faults: SUITE_FAULTS });

const target: SyncTarget = {
  name: 'snowflake',
  create: async (schema) => createSnowflakeDestination(sf.setup().config(schema), { logger: silentLogger }),
  readRows: (_destination, schema, table) => sf.reader().rows(schema, table),
};
runWorkspacesSuite(target);
