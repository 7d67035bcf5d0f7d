/** Why a file could not be read, in words rather than errno codes. */
import { SmallFileRefusal } from '../files/small-file.ts';

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'it is a folder, not a file',
};

export function describeReadFailure(error: unknown): string {
  if (error instanceof SmallFileRefusal) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (code && REASONS[code]) ?? code ?? String(error);
}
