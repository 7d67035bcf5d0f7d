/**
 * The conformance suite on Snowflake: the real `snowflake-sdk` against the local stand-in
 * (test/stand-ins/snowflake), over loopback. The suite reads through a session of its own.
 */
import { createSnowflakeDestination } from '../../../connectors/snowflake/index.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { realAsRead } from '../../stand-ins/snowflake/number-text.ts';
import { useSnowflakeStandIn } from '../../stand-ins/snowflake/stand-in-hooks.ts';
import { runConformanceSuite } from '../../conformance/suite.ts';

const sf = useSnowflakeStandIn();

runConformanceSuite({
  name: 'snowflake',
  create: async (schema) => createSnowflakeDestination(sf.setup().config(schema), { logger: silentLogger }),
  readRows: (_destination, schema, table) => sf.reader().rows(schema, table),
  comments: (schema) => sf.reader().comments(schema),
  // Stored exactly; the driver reads Snowflake's JSON results, which carry 15 significant digits.
  readFloat: realAsRead,
});
