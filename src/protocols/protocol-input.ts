/**
 * The JSON files a protocol mode is handed (config, catalog, state): read whole and parsed,
 * or refused with one line naming the file and what is wrong. Each protocol reports the
 * refusal its own way (Airbyte: an error TRACE with `config_error`; Singer: stderr, exit 2).
 */
import { readFile } from 'node:fs/promises';
import { AivisError, ExitCode } from '../errors.ts';

/** A config, catalog or state file that is missing, unreadable, not JSON or not of its shape. */
export class ProtocolInputError extends AivisError {
  constructor(message: string) {
    super(message, ExitCode.Usage);
  }
}

export async function readJsonFile(kind: 'config' | 'catalog' | 'state', file: string | undefined): Promise<unknown> {
  // An empty path is none given (the Airbyte image clears AIVIS_CONFIG, the YAML config's default).
  if (!file) throw new ProtocolInputError(`no ${kind} file given: pass --${kind} FILE`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ProtocolInputError(
      `${kind} file ${file}: ${code === 'ENOENT' ? 'not found' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${code ?? String(error)})`}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ProtocolInputError(`${kind} file ${file}: not valid JSON (${(error as Error).message})`);
  }
}
