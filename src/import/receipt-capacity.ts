/**
 * The capacity counts of a receipt (`active_count`, `projected_active_count`, `prompt_limit`):
 * spec 2.9 names them without placing them, so they are looked for in the summary, then on the
 * receipt itself, then in any object the receipt carries (such as `capacity`).
 */
import type { PromptImportReceipt } from '../../schemas/prompt-import-receipt.ts';

const CAPACITY_KEYS = ['active_count', 'projected_active_count', 'prompt_limit'] as const;
export type Capacity = Partial<Record<(typeof CAPACITY_KEYS)[number], number>>;

export function capacityOf(receipt: PromptImportReceipt): Capacity {
  const data = receipt as unknown as Record<string, unknown>;
  const places = [data.summary, data, ...Object.values(data)].filter(
    (place): place is Record<string, unknown> => typeof place === 'object' && place !== null && !Array.isArray(place),
  );
  const holder = places.find((place) => CAPACITY_KEYS.some((key) => typeof place[key] === 'number'));
  if (!holder) return {};
  return Object.fromEntries(
    CAPACITY_KEYS.filter((key) => typeof holder[key] === 'number').map((key) => [key, holder[key] as number]),
  );
}
