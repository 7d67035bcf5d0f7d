/**
 * Snowflake's error replies (HTTP 200, `success: false`) and the mapping from DuckDB's
 * messages to the Snowflake codes a connector may react to.
 */

/** A statement or login failure with Snowflake's code, SQL state and message. */
export class SnowflakeStandInError extends Error {
  readonly code: string;
  readonly sqlState: string;
  constructor(code: string, sqlState: string, message: string) {
    super(message);
    this.code = code;
    this.sqlState = sqlState;
  }
}

export const loginFailed = () =>
  new SnowflakeStandInError('390100', '08004', 'Incorrect username or password was specified.');
export const jwtInvalid = () => new SnowflakeStandInError('390144', '08004', 'JWT token is invalid.');
export const sessionGone = () =>
  new SnowflakeStandInError('390112', '08001', 'Your session has expired. Please login again.');
export const masterTokenExpired = () =>
  new SnowflakeStandInError('390114', '08001', 'Authentication token has expired.  The user must authenticate again.');
export const duplicateMergeRow = () =>
  new SnowflakeStandInError('100090', '42P18', 'Duplicate row detected during DML action\nRow Values: [...]');
export const stageBindRefused = () =>
  new SnowflakeStandInError(
    '003001',
    '42501',
    'SQL access control error:\nInsufficient privileges to operate on stage (the stand-in refuses stage-based binds and PUT)',
  );
export const noWarehouse = () =>
  new SnowflakeStandInError(
    '000606',
    '57P03',
    "No active warehouse selected in the current session.  Select an active warehouse with the 'use warehouse' command.",
  );
/** A database a name resolves to that the account does not hold (an unquoted name resolves upper-case). */
export const missingDatabase = (name: string) =>
  new SnowflakeStandInError(
    '002003',
    '02000',
    `SQL compilation error:\nDatabase '${name}' does not exist or not authorized.`,
  );
export const insufficientPrivileges = (object: string) =>
  new SnowflakeStandInError(
    '003001',
    '42501',
    `SQL access control error:\nInsufficient privileges to operate on ${object}`,
  );

/** Several statements in one request while MULTI_STATEMENT_COUNT is 1 (Snowflake's default). */
export const statementCount = (count: number) =>
  new SnowflakeStandInError(
    '000008',
    '0A000',
    `Actual statement count ${count} did not match the desired statement count 1.`,
  );

/** Snowflake's syntax error at `index` of `sql`, where it met `word`: lines and positions as Snowflake counts them. */
export function syntaxError(sql: string, index: number, word: string): SnowflakeStandInError {
  const before = sql.slice(0, index).split('\n');
  return new SnowflakeStandInError(
    '001003',
    '42000',
    `SQL compilation error:\nsyntax error line ${before.length} at position ${before.at(-1)!.length} unexpected '${word}'.`,
  );
}

/** DuckDB's error text as the Snowflake error a connector would see for the same mistake. */
export function fromDuckDb(error: unknown): SnowflakeStandInError {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split('\n')[0] ?? message;
  const missing = /^Catalog Error: (?:Table|Schema) with name "?([^"!]+?)"? does not exist/.exec(first);
  if (missing)
    return new SnowflakeStandInError(
      '002003',
      '42S02',
      `SQL compilation error:\nObject '${missing[1]}' does not exist or not authorized.`,
    );
  const database = /^(?:Binder|Catalog) Error: Catalog (?:with name )?"?([^"!]+?)"? does not exist/.exec(first);
  if (database)
    return new SnowflakeStandInError(
      '002003',
      '02000',
      `SQL compilation error:\nDatabase '${database[1]}' does not exist or not authorized.`,
    );
  const json = /^Invalid Input Error: (Error parsing JSON: .*)$/.exec(first);
  if (json) return new SnowflakeStandInError('100069', '22P02', json[1]!);
  const conversion = /^Conversion Error: Could not convert string "(.*)" to /.exec(first);
  if (conversion)
    return new SnowflakeStandInError('100038', '22018', `Numeric value '${conversion[1]}' is not recognized`);
  if (first.startsWith('Conversion Error') || first.startsWith('Invalid Input Error'))
    return new SnowflakeStandInError('100069', '22P02', first);
  return new SnowflakeStandInError('001003', '42000', `SQL compilation error:\n${first}`);
}

/** An expression Snowflake cannot evaluate while compiling, in an INSERT's VALUES clause. */
export const arrayInValues = (expression: string) =>
  new SnowflakeStandInError(
    '002014',
    '22000',
    `SQL compilation error:\nInvalid expression [${expression}] in VALUES clause`,
  );
