/**
 * The texts a website already has, as far as this destination's receipts know: digests of
 * items that a succeeded write created or skipped as a duplicate (docs/prompt-import.md#only-what-is-new).
 * A validation creates nothing, and a failed operation's request duplicate was not created
 * either, so neither counts. Read through the destination's query role, past the same gate as
 * every statement it runs, into a compact `KnownDigests`.
 */
import { assertReadOnlyStatement, type QueryRole } from '../destination/read-only-query.ts';
import { KnownDigests } from './prompt-digest.ts';

/** `websiteId` is checked to be `web_` and [A-Za-z0-9_-] before it gets here, so it is a safe literal. */
export async function readKnownPrompts(role: QueryRole, websiteId: string): Promise<KnownDigests> {
  const table = (name: string) => role.qualify?.(name) ?? name;
  const sql =
    `SELECT DISTINCT i.text_sha256 FROM ${table('prompt_import_items')} AS i JOIN ${table('prompt_imports')} AS p ON p.id = i.import_id ` +
    `WHERE i.website_id = '${websiteId.replaceAll("'", "''")}' AND p.status = 'succeeded' AND p.validate_only = false ` +
    "AND i.status IN ('created', 'skipped') AND i.text_sha256 IS NOT NULL";
  const result = await role.run(await assertReadOnlyStatement(sql, role, 'import-prompts'), 10_000);
  const known = new KnownDigests();
  for await (const page of result.pages)
    for (const [digest] of page) if (typeof digest === 'string') known.append(digest);
  return known.seal();
}
