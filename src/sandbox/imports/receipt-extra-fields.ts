/**
 * The `receipts_with_extra_fields` variant: a receipt whose parts the spec does not show are
 * placed as another server might place them. Field provenance becomes a list under each
 * item's `classification`, the classifier version moves to `classifier.version`, the
 * capacity counts leave the summary for `capacity`, and every item gains `warnings`. Still no
 * prompt content: only sources, counts and versions move.
 */

const CAPACITY_KEYS = ['would_create', 'active_count', 'projected_active_count', 'prompt_limit'];

export function withExtraFields(data: Record<string, unknown>): Record<string, unknown> {
  const { classifier_version, summary, items, ...rest } = data;
  const out: Record<string, unknown> = { ...rest };
  if (classifier_version !== undefined) out.classifier = { version: classifier_version };
  if (summary && typeof summary === 'object') {
    const entries = Object.entries(summary);
    const capacity = entries.filter(([key]) => CAPACITY_KEYS.includes(key));
    out.summary = Object.fromEntries(entries.filter(([key]) => !CAPACITY_KEYS.includes(key)));
    if (capacity.length > 0) out.capacity = Object.fromEntries(capacity);
  }
  if (Array.isArray(items)) {
    out.items = items.map(({ provenance, ...item }: Record<string, unknown>) => ({
      ...item,
      ...(provenance
        ? {
            classification: {
              provenance: Object.entries(provenance).map(([field, origin]) => ({ field, ...(origin as object) })),
            },
          }
        : {}),
      warnings: [],
    }));
  }
  return out;
}
