/**
 * The check of PARSE_JSON's argument as a DuckDB scalar function of the stand-in's account:
 * the text as is when Snowflake takes it, NULL when it is empty or whitespace only, else the
 * statement fails with Snowflake's message (parse-json-check.ts), which `fromDuckDb` turns into
 * error 100069.
 */
import { DuckDBScalarFunction, VARCHAR } from '@duckdb/node-api';
import { parseJsonRefusal, refusalMessage } from './parse-json-check.ts';

export const PARSE_JSON_CHECK = 'SNOWFLAKE_PARSE_JSON_CHECK';

export function parseJsonCheckFunction(): DuckDBScalarFunction {
  return DuckDBScalarFunction.create({
    name: PARSE_JSON_CHECK,
    returnType: VARCHAR,
    parameterTypes: [VARCHAR],
    specialHandling: true,
    mainFunction: (info, input, output) => {
      const texts = input.getColumnValues(0);
      for (const [row, value] of texts.entries()) {
        const text = value === null || String(value).trim() === '' ? null : String(value);
        const refusal = text === null ? undefined : parseJsonRefusal(text);
        if (refusal) {
          info.setError(refusalMessage(refusal));
          return;
        }
        output.setItem(row, text);
      }
      output.flush();
    },
  });
}
