/**
 * Meltano's `select` as Meltano applies it to the catalog a tap discovered before it runs the
 * tap, encoded from its definition (meltano/meltano, src/meltano/core/plugin/singer/catalog.py:
 * `select_metadata_rules`, `MetadataExecutor`; src/meltano/core/plugin/singer/tap.py,
 * `apply_catalog_rules`: the rules of `!*.*` first, then those of the extractor's `select`):
 * - a pattern is `stream.property`, `!` in front deselecting; stream and breadcrumb are matched
 *   with `fnmatch` (the breadcrumb joined by `.`, so `*` matches `properties.id`);
 * - a selecting pattern sets `selected: true` on the stream's metadata (breadcrumb `[]`) and on
 *   the properties it names; a deselecting one sets `selected: false` on the properties, and on
 *   the stream only when its property part is `*`;
 * - of one `select` list, the selecting rules come before the deselecting ones; later rules win;
 * - `selected: true` is never set where `inclusion` is `unsupported`.
 */

export interface SingerCatalog {
  streams: { tap_stream_id: string; metadata: { breadcrumb: string[]; metadata: Record<string, unknown> }[] }[];
}

interface Rule {
  readonly stream: RegExp;
  readonly breadcrumb: RegExp;
  readonly selected: boolean;
}

/** Python's fnmatch as a RegExp: `*` any run, `?` any one character, `[...]` a class. */
function fnmatch(pattern: string): RegExp {
  const body = [...pattern]
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c === '[' || c === ']' ? c : c.replace(/[\\^$.|+(){}]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 's');
}

function rules(patterns: readonly string[]): Rule[] {
  const include: Rule[] = [];
  const exclude: Rule[] = [];
  for (const raw of patterns) {
    const negated = raw.startsWith('!');
    const [stream, property] = (negated ? raw.slice(1) : raw).split(/\.(.*)/s) as [string, string | undefined];
    const into = negated ? exclude : include;
    const rule = (breadcrumb: string) => ({
      stream: fnmatch(stream),
      breadcrumb: fnmatch(breadcrumb),
      selected: !negated,
    });
    if (!negated || !property || property === '*') into.push(rule(''));
    if (property)
      into.push(
        rule(
          property
            .split('.')
            .flatMap((p) => ['properties', p])
            .join('.'),
        ),
      );
  }
  return [...include, ...exclude];
}

/** The catalog as Meltano hands it to the tap under the extractor's `select`. */
export function meltanoSelect<C extends SingerCatalog>(catalog: C, select: readonly string[]): C {
  const all = [...rules(['!*.*']), ...rules(select)];
  const copy = structuredClone(catalog);
  for (const stream of copy.streams)
    for (const entry of stream.metadata)
      for (const rule of all)
        if (rule.stream.test(stream.tap_stream_id) && rule.breadcrumb.test(entry.breadcrumb.join('.'))) {
          if (rule.selected && entry.metadata.inclusion === 'unsupported') continue;
          entry.metadata.selected = rule.selected;
        }
  return copy;
}
