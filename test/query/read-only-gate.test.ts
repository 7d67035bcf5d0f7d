/**
 * The read-only gate's own layer (src/destination/read-only-query.ts): the leading keyword,
 * found past comments and parentheses, is judged before the engine is asked anything; the
 * engine's reading then decides. The engines' readings themselves are tested through the CLI
 * on each destination (test/query/<destination>.test.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  assertReadOnlyStatement,
  leadingKeyword,
  type StatementReading,
} from '../../src/destination/read-only-query.ts';
import { ConfigError } from '../../src/errors.ts';

/** An engine whose reading is given, recording what it was asked. */
function engine(reading: StatementReading) {
  const asked: string[] = [];
  return {
    asked,
    role: {
      engine: 'TestDB',
      inspect: async (sql: string) => {
        asked.push(sql);
        return reading;
      },
    },
  };
}

const SELECT: StatementReading = { several: false, kind: 'SELECT', reads: true };

describe('the read-only gate', () => {
  it('finds the leading keyword past blanks, comments, semicolons and parentheses', () => {
    expect(leadingKeyword('  select 1')).toBe('SELECT');
    expect(leadingKeyword('-- why\n/* what\n */ ((Values (1)))')).toBe('VALUES');
    expect(leadingKeyword(';\n  with x as (select 1) select * from x')).toBe('WITH');
    expect(leadingKeyword('/* a comment */ insert into t values (1)')).toBe('INSERT');
    expect(leadingKeyword('-- only a comment')).toBeUndefined();
    expect(leadingKeyword(' ; ')).toBeUndefined();
  });

  it('refuses a statement that does not start by reading before the engine is asked', async () => {
    for (const [sql, kind] of [
      ['/* hidden */ DELETE FROM t', 'a DELETE'],
      ['(insert into t values (1))', 'an INSERT'],
      ['copy t to stdout', 'a COPY'],
    ] as const) {
      const { role, asked } = engine(SELECT);
      const refusal = await assertReadOnlyStatement(sql, role, '--from-query').catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(ConfigError);
      expect((refusal as ConfigError).message).toBe(
        `--from-query runs read-only statements only, and this is ${kind} statement: refused before it ran (read with SELECT; change data with the warehouse's own tools)`,
      );
      expect((refusal as ConfigError).exitCode).toBe(2);
      expect(asked).toEqual([]);
    }
  });

  it("then follows the engine's reading: several statements, or a kind that does not read", async () => {
    const several = engine({ several: true, kind: 'SCRIPT', reads: false });
    await expect(assertReadOnlyStatement('select 1; select 2', several.role, 'aivis query')).rejects.toThrow(
      'aivis query runs one statement, and this text holds more than one: refused before any ran (run them one at a time)',
    );
    const writes = engine({ several: false, kind: 'INSERT', reads: false });
    await expect(
      assertReadOnlyStatement('with x as (select 1) insert into t select * from x', writes.role, 'aivis query'),
    ).rejects.toThrow('aivis query runs read-only statements only, and this is an INSERT statement');
  });

  it('passes one statement that reads, as the engine read it', async () => {
    const { role, asked } = engine(SELECT);
    const statement = await assertReadOnlyStatement('select 1', role, 'aivis query');
    expect(statement).toEqual({ sql: 'select 1', caller: 'aivis query' });
    expect(asked).toEqual(['select 1']);
  });
});
