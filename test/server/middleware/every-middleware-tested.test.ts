/**
 * Every middleware folder under src/server/middleware/ has a unit test here: a test file that imports
 * the folder's module and calls `handle` itself (not only through a running server).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { it } from 'node:test';
import { repoPath } from '../../support/repo-paths.js';

/** The folders of `folders` that no file of `tests` unit-tests: none imports `<folder>/index.js` and calls `.handle(`. */
export function untestedMiddleware(folders: readonly string[], tests: readonly { name: string; text: string }[]): string[] {
  return folders.filter((folder) => !tests.some(({ text }) => text.includes(`/src/server/middleware/${folder}/index.js'`) && text.includes('.handle(')));
}

const folders = readdirSync(repoPath('src', 'server', 'middleware'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const testDir = repoPath('test', 'server', 'middleware');
const tests = readdirSync(testDir).filter((f) => f.endsWith('.test.ts') && f !== 'every-middleware-tested.test.ts').map((name) => ({ name, text: readFileSync(`${testDir}/${name}`, 'utf8') }));

it('has a unit test calling handle for each middleware folder', () => {
  assert.ok(folders.length >= 5, `found the middleware folders: ${folders.join(', ')}`);
  assert.deepEqual(untestedMiddleware(folders, tests), []);
});

it('finds a planted folder without a unit test, and one whose test only serves it over HTTP', () => {
  const servedOnly = { name: 'planted.test.ts', text: "import { planted } from '../../../src/server/middleware/planted/index.js';\nawait serve({ use: [planted()] });" };
  assert.deepEqual(untestedMiddleware([...folders, 'planted'], tests), ['planted']);
  assert.deepEqual(untestedMiddleware([...folders, 'planted'], [...tests, servedOnly]), ['planted']);
});
