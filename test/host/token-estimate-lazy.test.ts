// The tokenizer's tables cost seconds of start-up and tens of MB: a server that imports Toolwright
// must not pay for them until something counts a token.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';

const probe = `
import { createRequire } from 'node:module';
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('gpt-tokenizer'));
const root = await import(${JSON.stringify(pathToFileURL(repoPath('src', 'index.ts')).href)});
const host = await import(${JSON.stringify(pathToFileURL(repoPath('src', 'host', 'index.ts')).href)});
const before = loaded();
const count = host.countTextTokens('Grip force in newtons');
console.log(JSON.stringify({ before, after: loaded(), count, empty: host.countTextTokens(''), createServer: typeof root.createServer }));
`;

test('importing the root and host entry points does not load gpt-tokenizer; the first count does', () => {
  const out = execFileSync(process.execPath, ['--import', TSX_LOADER, '--input-type=module', '-e', probe], { encoding: 'utf8', timeout: 120_000 });
  const result = JSON.parse(out.trim().split('\n').at(-1) as string) as { before: boolean; after: boolean; count: number; empty: number; createServer: string };
  assert.equal(result.createServer, 'function');
  assert.equal(result.before, false, 'gpt-tokenizer was loaded at import');
  assert.equal(result.after, true);
  assert.equal(result.count, 5); // o200k_base splits it into five tokens
  assert.equal(result.empty, 0);
});
