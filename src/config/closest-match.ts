/** "Did you mean": the allowed key or value closest to a misspelt one, when it is close enough. */

/** The closest of `allowed` to `word`, or undefined when none is within a typo's reach. */
export function closestMatch(word: string, allowed: readonly string[]): string | undefined {
  // A third of the length (at least 2 edits) catches `shema`, `api-key`, `requests_per_min`
  // without suggesting an unrelated key for a word that merely shares letters.
  const reach = Math.max(2, Math.floor(word.length / 3));
  let best: { key: string; distance: number } | undefined;
  for (const candidate of allowed) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance <= reach && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}
