/** Reads the input: a table or query of the destination, else the file by its extension (`.csv` or `.jsonl`). */
import { extname } from 'node:path';
import { ConfigError } from '../errors.ts';
import { readCsvItems } from './csv-items.ts';
import type { ImportOptions } from './import-options.ts';
import type { InputRecord } from './input-record.ts';
import { readJsonlItems } from './jsonl-items.ts';

export function readInputItems(options: Pick<ImportOptions, 'file' | 'warehouse'>): AsyncGenerator<InputRecord> {
  if (options.warehouse) return options.warehouse.items();
  const path = options.file;
  const extension = extname(path).toLowerCase();
  if (extension === '.csv') return readCsvItems(path);
  if (extension === '.jsonl') return readJsonlItems(path);
  throw new ConfigError(`--file ${path}: the file must end in .csv or .jsonl (got "${extension || 'no extension'}")`);
}
