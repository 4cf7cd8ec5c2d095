import { nameSegments, wordsOf } from '../../text-signals.js';
import { optionsOfDefaults } from '../../rule-options.js';
import type { LintRule, ToolView } from '../../types.js';

/** Sorted distinct ids of the character bigrams of a text (ids shared through `ids`, keyed by the two UTF-16 units). */
function bigrams(text: string, ids: Map<number, number>): Int32Array {
  const grams = new Set<number>();
  for (let i = 0; i < text.length - 1; i++) {
    const gram = text.charCodeAt(i) * 0x10000 + text.charCodeAt(i + 1);
    let id = ids.get(gram);
    if (id === undefined) ids.set(gram, (id = ids.size));
    grams.add(id);
  }
  return Int32Array.from(grams).sort();
}

/**
 * How many ids two sorted lists share, or -1 as soon as they can no longer share `needed`
 * (most pairs of a large catalog are dismissed after a few steps).
 */
function sharedCount(a: Int32Array, b: Int32Array, needed: number): number {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (shared + Math.min(a.length - i, b.length - j) < needed) return -1;
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) { shared++; i++; j++; } else if (x < y) i++; else j++;
  }
  return shared >= needed ? shared : -1;
}

/**
 * Dice coefficient of two sorted id lists, or 0 when it is below `threshold`, or when it is below
 * `beat` (a score already found: the merge then stops as soon as it cannot reach it).
 */
function dice(a: Int32Array, b: Int32Array, threshold: number, beat = 0): number {
  const size = a.length + b.length;
  if (size === 0) return 0;
  // Fewer than floor(beat·size/2) shared ids score below `beat` (one less than exact, against rounding).
  const shared = sharedCount(a, b, Math.max(Math.ceil((threshold * size) / 2 - 1e-9), Math.floor((beat * size) / 2 - 1e-9)));
  return shared < 0 ? 0 : (2 * shared) / size;
}

/** Jaccard similarity of two sorted lists of distinct ids, or 0 when it is below `threshold`. */
function jaccard(a: Int32Array, b: Int32Array, threshold: number): number {
  const shared = sharedCount(a, b, Math.ceil((threshold * (a.length + b.length)) / (1 + threshold) - 1e-9));
  return shared < 0 ? 0 : shared / (a.length + b.length - shared);
}

interface Signature { tool: ToolView; compact: string; grams: Int32Array; words: Int32Array }

interface Match { other: Signature; kind: 'name' | 'description'; score: number; same: boolean }

/**
 * For each tool, the earlier tool it is most confusable with: the best name match if any pair
 * reaches nameThreshold (first on a tie), else the best description match. In its own function so
 * V8 compiles the n² loop once, not again with the reporting code around it.
 */
function bestMatches(sigs: readonly Signature[], nameThreshold: number, descriptionThreshold: number): (Match | undefined)[] {
  const best: (Match | undefined)[] = new Array(sigs.length).fill(undefined);
  // Per-tool numbers in flat arrays, and names as ids, so the n² pair loop compares integers.
  const interned = new Map<string, number>();
  const intern = (text: string): number => {
    let id = interned.get(text);
    if (id === undefined) interned.set(text, (id = interned.size));
    return id;
  };
  const nameIds = Int32Array.from(sigs, (s) => intern(`n\u0000${s.tool.name}`));
  const compactIds = Int32Array.from(sigs, (s) => intern(`c\u0000${s.compact}`));
  const gramCounts = Int32Array.from(sigs, (s) => s.grams.length);
  const wordCounts = Int32Array.from(sigs, (s) => s.words.length);
  for (let i = 0; i < sigs.length; i++) {
    const a = sigs[i]!;
    const aGrams = gramCounts[i]!;
    const aWords = wordCounts[i]!;
    for (let j = i + 1; j < sigs.length; j++) {
      if (nameIds[i] === nameIds[j]) continue; // spec/name-unique reports exact duplicates
      const bGrams = gramCounts[j]!;
      const sizes = aGrams + bGrams;
      const same = compactIds[i] === compactIds[j];
      const previous = best[j];
      // Dice is at most 2·min/sum: a pair that cannot beat tool j's name match changes nothing
      // (nor can its description, which never replaces a name match).
      const upper = (2 * Math.min(aGrams, bGrams)) / (sizes || 1);
      if (!same && previous?.kind === 'name' && upper <= previous.score) continue;
      let nameScore = 0;
      if (same) {
        nameScore = 1;
      } else if (upper >= nameThreshold) {
        // Dice can only reach the threshold when the smaller set is large enough; the rest were skipped cheaply.
        // Once tool j has a name match, a pair that cannot score above it changes nothing (it ends
        // below either way), so its merge may stop early: a third fewer steps on near-identical names.
        nameScore = dice(a.grams, sigs[j]!.grams, nameThreshold, previous?.kind === 'name' ? previous.score : 0);
      }
      if (nameScore >= nameThreshold) {
        if (previous === undefined || previous.kind === 'description' || nameScore > previous.score) best[j] = { other: a, kind: 'name', score: nameScore, same };
        continue;
      }
      const bWords = wordCounts[j]!;
      const small = Math.min(aWords, bWords);
      // Jaccard cannot exceed small/large, so most pairs are dismissed without a merge.
      if (previous?.kind === 'name' || small < 5 || small / Math.max(aWords, bWords) < descriptionThreshold) continue;
      const descriptionScore = jaccard(a.words, sigs[j]!.words, descriptionThreshold);
      if (descriptionScore >= descriptionThreshold && (previous === undefined || descriptionScore > previous.score)) best[j] = { other: a, kind: 'description', score: descriptionScore, same: false };
    }
  }
  return best;
}

const CONFUSABLE_THRESHOLDS = { nameThreshold: 0.85, descriptionThreshold: 0.8 };

/**
 * Two tools the model cannot tell apart: names that differ only by separators, case or a typo
 * (bigram Dice ≥ nameThreshold), or descriptions with nearly the same words (Jaccard ≥
 * descriptionThreshold over at least 5 words). Pairs are compared once, each with precomputed sets,
 * so a 1,000-tool catalog stays fast.
 */
export const confusableTools: LintRule<typeof CONFUSABLE_THRESHOLDS> = {
  id: 'quality/confusable-tools',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'No two tools have names or descriptions too similar to tell apart.',
  defaultOptions: CONFUSABLE_THRESHOLDS,
  prepare: (options) => optionsOfDefaults(CONFUSABLE_THRESHOLDS, options),
  checkCatalog(catalog, ctx) {
    const { nameThreshold, descriptionThreshold } = ctx.prepared;
    const ids = new Map<string, number>();
    const gramIds = new Map<number, number>();
    const sigs: Signature[] = catalog.tools.map((tool) => {
      const compact = nameSegments(tool.name).join('');
      const words = new Set<number>();
      for (const word of wordsOf(tool.description)) {
        let id = ids.get(word);
        if (id === undefined) ids.set(word, (id = ids.size));
        words.add(id);
      }
      return { tool, compact, grams: bigrams(compact, gramIds), words: Int32Array.from(words).sort() };
    });
    const best = bestMatches(sigs, nameThreshold, descriptionThreshold);
    for (let index = 0; index < best.length; index++) {
      const hit = best[index];
      if (hit === undefined) continue;
      const tool = sigs[index]!.tool;
      if (hit.kind === 'name') {
        ctx.report({
          tool,
          pointer: '/name',
          message: `tool name "${tool.name}" is ${hit.same ? 'the same words as' : 'nearly the same as'} "${hit.other.tool.name}" (similarity ${hit.score.toFixed(2)})`,
          fix: 'rename one of them so the names say how the tools differ',
        });
      } else {
        ctx.report({
          tool,
          pointer: '/description',
          message: `the description of "${tool.name}" is nearly the same as that of "${hit.other.tool.name}" (word overlap ${hit.score.toFixed(2)})`,
          fix: 'say in each description how the tools differ and when to use one rather than the other',
        });
      }
    }
  },
};
