/**
 * The prompt library of each sandbox website, as far as the import sees it: existing
 * prompts (active or inactive, keyed by their dedup form) and the website's `prompt_limit`.
 * Tests seed it to provoke duplicate codes and `prompt_limit_exceeded`.
 */
import { normalizeText } from '../../../schemas/prompt-import.ts';

/** A stored prompt; the import never updates, reactivates or reclassifies one (spec 4.7 rule 5). */
export interface StoredPrompt {
  readonly active: boolean;
  /** Always `public_api_v2` for imported prompts (spec 4.7 rule 8); `seed` for test fixtures. */
  readonly source: 'public_api_v2' | 'seed';
  readonly importId?: string;
  readonly fields?: Readonly<Record<string, unknown>>;
}

export const DEFAULT_PROMPT_LIMIT = 5000;

export class PromptStore {
  private readonly libraries = new Map<string, Map<string, StoredPrompt>>();
  private readonly limits = new Map<string, number>();

  /** Test hook: sets a website's limit and adds existing prompts. */
  seed(
    websiteId: string,
    options: { promptLimit?: number; active?: readonly string[]; inactive?: readonly string[] },
  ): void {
    if (options.promptLimit !== undefined) this.limits.set(websiteId, options.promptLimit);
    for (const text of options.active ?? [])
      this.library(websiteId).set(normalizeText(text), { active: true, source: 'seed' });
    for (const text of options.inactive ?? [])
      this.library(websiteId).set(normalizeText(text), { active: false, source: 'seed' });
  }

  find(websiteId: string, normalized: string): StoredPrompt | undefined {
    return this.libraries.get(websiteId)?.get(normalized);
  }

  add(websiteId: string, normalized: string, prompt: StoredPrompt): void {
    this.library(websiteId).set(normalized, prompt);
  }

  activeCount(websiteId: string): number {
    let count = 0;
    for (const prompt of this.libraries.get(websiteId)?.values() ?? []) if (prompt.active) count++;
    return count;
  }

  promptLimit(websiteId: string): number {
    return this.limits.get(websiteId) ?? DEFAULT_PROMPT_LIMIT;
  }

  private library(websiteId: string): Map<string, StoredPrompt> {
    let library = this.libraries.get(websiteId);
    if (!library) this.libraries.set(websiteId, (library = new Map()));
    return library;
  }
}
