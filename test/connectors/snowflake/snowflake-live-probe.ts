/**
 * Values the live Snowflake test reads back as the driver returns them, to hold the stand-in's
 * encodings (test/stand-ins/snowflake/number-text.ts, variant-text.ts) to real Snowflake: a FLOAT
 * that needs 16 digits, and a VARIANT with unsorted keys, exact NUMBERs and DOUBLEs.
 */
export const PROBE_FLOAT = Math.PI;
export const PROBE_JSON =
  '{"b":[123.12,1.912e2,-17,0.30000000000000004,1e-7,12345678901234567890123456789012345678,123456789012345678901234567890123456789],"a":{"z":null,"y":true}}';
/** Binds: PROBE_FLOAT as text, PROBE_JSON. Columns F and V (fetched as strings). */
export const PROBE_SQL = 'SELECT ?::FLOAT AS F, PARSE_JSON(?) AS V';
