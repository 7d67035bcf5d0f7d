/**
 * DuckDB creates its database file, and the write-ahead log (`<file>.wal`) it keeps beside it
 * while a session writes, with mode 0666 minus the process umask: readable by every local
 * user under the usual umask 022. Rows of the warehouse are no one else's to read, so while a
 * DuckDB session is open the process umask also masks group and others (`| 0o077`), and the
 * previous umask comes back when the last session closes. The umask is process-wide: files
 * anything else in the process creates meanwhile are private too, which aivis wants anyway.
 */
let openSessions = 0;
let previousUmask = 0;

/** Makes files created from now on private; call the returned function once when done. */
export function holdPrivateFiles(): () => void {
  if (openSessions++ === 0) {
    previousUmask = process.umask(0o077);
    process.umask(previousUmask | 0o077);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--openSessions === 0) process.umask(previousUmask);
  };
}
