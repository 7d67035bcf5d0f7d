import type { WarehouseSource } from './warehouse-items.ts';

/** Where the prompts come from: a CSV or JSONL file, or a table or query of the destination. */
export type ImportSource = { readonly file: string } | WarehouseSource;
