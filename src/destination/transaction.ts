/**
 * BEGIN, the work, COMMIT; ROLLBACK and rethrow on any error. `execute` runs one statement
 * on the connection that must hold the transaction. A failed ROLLBACK (connection gone) is
 * ignored: the work's own error is the one worth reporting.
 */
export async function inTransaction<T>(execute: (sql: string) => Promise<unknown>, work: () => Promise<T>): Promise<T> {
  await execute('BEGIN');
  try {
    const result = await work();
    await execute('COMMIT');
    return result;
  } catch (error) {
    await execute('ROLLBACK').catch(() => {});
    throw error;
  }
}
