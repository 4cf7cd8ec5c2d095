// The lint bench's catalog: 1,000 distinct tools derived from the seed robot tools (renamed and
// varied, every seventh broken so the reporting paths run too). Deterministic.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const words = ['north', 'south', 'east', 'west', 'upper', 'lower', 'left', 'right', 'front', 'rear'];

export function lintCatalog(count = 1000): Record<string, unknown>[] {
  const seeds = (JSON.parse(readFileSync(join(root, 'test/fixtures/lint/seed-good.json'), 'utf8')) as { tools: Record<string, unknown>[] }).tools;
  const variant = (i: number): Record<string, unknown> => {
    const seed = structuredClone(seeds[i % seeds.length]!);
    const suffix = `${words[i % words.length]}_${words[Math.floor(i / words.length) % words.length]}_${Math.floor(i / 100)}`;
    seed.name = `${String(seed.name)}_${suffix}`;
    seed.description = `${String(seed.description)} Station ${suffix.replace(/_/g, ' ')}.`;
    // Distinct schemas (as in a real catalog), so no cache keyed on schema content can help.
    for (const property of Object.values((seed.inputSchema as { properties: Record<string, Record<string, unknown>> }).properties)) {
      property.description = `${String(property.description)} (${suffix.replace(/_/g, ' ')})`;
      if (typeof property.maximum === 'number') property.maximum += i;
    }
    if (i % 7 === 3) (seed.inputSchema as Record<string, unknown>).additionalProperties = true;
    if (i % 7 === 5) seed.description = 'Controls it.';
    if (i % 7 === 6) seed.inputSchema = {};
    return seed;
  };
  return Array.from({ length: count }, (_, i) => variant(i));
}
