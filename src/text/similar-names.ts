/**
 * How alike two names are, for "did you mean" (the CLI's flags and commands) and for the diff's
 * rename guess: one edit distance for the whole project.
 */

/**
 * The candidate nearest to `typed` (case-insensitive edit distance at most a third of the candidate's length, at
 * least 1), or undefined when none is that near: "did you mean" for options and commands alike.
 */
export function closestWord(typed: string, candidates: readonly string[]): string | undefined {
  let best: { word: string; distance: number } | undefined;
  for (const word of candidates) {
    const distance = editDistance(typed.toLowerCase(), word.toLowerCase());
    if (distance <= Math.max(1, Math.floor(word.length / 3)) && (best === undefined || distance < best.distance)) best = { word, distance };
  }
  return best?.word;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps each cost 1. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The words of a tool-like name: split at `_ - . /` and camelCase humps, lower-cased. */
export function nameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[\s_\-./]+/).filter((w) => w !== '');
}

/**
 * Whether two names could be one thing renamed: they share a word of four letters or more
 * (`get_weather` / `fetch_weather`; short words such as `get` or `arm` say little), or one is a small
 * edit of the other (`getWeather` / `get_weather`, at most a third of the longer name).
 * `list_files` and `get_status` are not alike, nor are `grip` and `grasp`.
 */
export function namesAlike(a: string, b: string): boolean {
  const words = new Set(nameWords(a).filter((w) => w.length >= 4));
  if (nameWords(b).some((w) => words.has(w))) return true;
  const plainA = nameWords(a).join('');
  const plainB = nameWords(b).join('');
  return editDistance(plainA, plainB) <= Math.floor(Math.max(plainA.length, plainB.length) / 3);
}
