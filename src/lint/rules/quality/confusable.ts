import { nameSegments, wordsOf } from '../../text-signals.js';
import type { LintRule, ToolView } from '../../types.js';

function bigrams(text: string): Set<string> {
  const grams = new Set<string>();
  for (let i = 0; i < text.length - 1; i++) grams.add(text.slice(i, i + 2));
  return grams;
}

function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const item of small) if (large.has(item)) shared++;
  return (2 * shared) / (a.size + b.size);
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const item of small) if (large.has(item)) shared++;
  return shared / (a.size + b.size - shared);
}

interface Signature { tool: ToolView; compact: string; grams: Set<string>; segments: Set<string>; words: Set<string> }

/**
 * Two tools the model cannot tell apart: names that differ only by separators, case or a typo
 * (bigram Dice ≥ nameThreshold), or descriptions with nearly the same words (Jaccard ≥
 * descriptionThreshold over at least 5 words). Pairs are compared once, each with precomputed sets,
 * so a 1,000-tool catalog stays fast.
 */
export const confusableTools: LintRule = {
  id: 'quality/confusable-tools',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'No two tools have names or descriptions too similar to tell apart.',
  defaultOptions: { nameThreshold: 0.85, descriptionThreshold: 0.8 },
  checkCatalog(catalog, ctx) {
    const nameThreshold = Number(ctx.options.nameThreshold);
    const descriptionThreshold = Number(ctx.options.descriptionThreshold);
    const sigs: Signature[] = catalog.tools.map((tool) => {
      const compact = nameSegments(tool.name).join('');
      return { tool, compact, grams: bigrams(compact), segments: new Set(nameSegments(tool.name)), words: new Set(wordsOf(tool.description)) };
    });
    for (let i = 0; i < sigs.length; i++) {
      const a = sigs[i]!;
      for (let j = i + 1; j < sigs.length; j++) {
        const b = sigs[j]!;
        if (a.tool.name === b.tool.name) continue; // spec/name-unique reports exact duplicates
        const sameWords = a.compact === b.compact;
        const nameScore = sameWords ? 1 : dice(a.grams, b.grams);
        if (nameScore >= nameThreshold) {
          ctx.report({
            tool: b.tool,
            pointer: '/name',
            message: `tool name "${b.tool.name}" is ${sameWords ? 'the same words as' : 'nearly the same as'} "${a.tool.name}" (similarity ${nameScore.toFixed(2)})`,
            fix: 'rename one of them so the names say how the tools differ',
          });
          continue;
        }
        if (a.words.size < 5 || b.words.size < 5) continue;
        const descriptionScore = jaccard(a.words, b.words);
        if (descriptionScore < descriptionThreshold) continue;
        ctx.report({
          tool: b.tool,
          pointer: '/description',
          message: `the description of "${b.tool.name}" is nearly the same as that of "${a.tool.name}" (word overlap ${descriptionScore.toFixed(2)})`,
          fix: 'say in each description how the tools differ and when to use one rather than the other',
        });
      }
    }
  },
};
