// Shared by the host tests: the corpus of tricky tools and the profile variants they run through.
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MapOptions, ToolDescriptor } from '../../src/host/index.js';

const here = dirname(fileURLToPath(import.meta.url));
export const FIXTURES = join(here, '..', 'fixtures', 'host');

export function loadCorpus(): ToolDescriptor[] {
  return JSON.parse(readFileSync(join(FIXTURES, 'corpus.json'), 'utf8')) as ToolDescriptor[];
}

export function corpusTool(name: string): ToolDescriptor {
  const tool = loadCorpus().find((t) => t.name === name);
  if (!tool) throw new Error(`no corpus tool ${name}`);
  return tool;
}

/** Every profile variant the corpus goes through, with the golden file it is compared to. */
export const VARIANTS: ReadonlyArray<{ id: string; options: MapOptions }> = [
  { id: 'openai-chat-strict', options: { provider: 'openai-chat', strict: 'auto' } },
  { id: 'openai-chat-nonstrict', options: { provider: 'openai-chat', strict: false } },
  { id: 'openai-responses-strict', options: { provider: 'openai-responses', strict: 'auto' } },
  { id: 'openai-responses-nonstrict', options: { provider: 'openai-responses', strict: false } },
  { id: 'anthropic', options: { provider: 'anthropic' } },
  { id: 'anthropic-strict', options: { provider: 'anthropic', strict: 'auto' } },
  { id: 'gemini', options: { provider: 'gemini' } },
  { id: 'gemini-legacy', options: { provider: 'gemini-legacy' } },
];

/** Compare with a committed golden file; `UPDATE_GOLDEN=1` rewrites it instead. */
export function golden(name: string, actual: unknown): unknown {
  const path = join(FIXTURES, 'golden', `${name}.json`);
  const text = `${JSON.stringify(actual, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(path)) {
    if (process.env.UPDATE_GOLDEN !== '1') throw new Error(`golden file ${path} is missing; run with UPDATE_GOLDEN=1 to create it`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return JSON.parse(readFileSync(path, 'utf8')) as unknown;
}
