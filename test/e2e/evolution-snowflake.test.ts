import { createSnowflakeDestination } from '../../connectors/snowflake/index.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { useSnowflakeStandIn } from '../stand-ins/snowflake/stand-in-hooks.ts';
import { runEvolutionSuite } from './evolution-suite.ts';

const sf = useSnowflakeStandIn();
runEvolutionSuite({
  name: 'snowflake',
  create: async (schema) => createSnowflakeDestination(sf.setup().config(schema), { logger: silentLogger }),
  readRows: (_destination, schema, table) => sf.reader().rows(schema, table),
});
