/**
 * Every JSDoc `@example` in src/ is a whole TypeScript module that compiles against the package's
 * public API (test/support/jsdoc-examples.ts), so an example cannot drift from the API it shows.
 * The checker itself is shown to refuse an example that does not compile and one that is not a
 * fenced block.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileExamples, examplesIn, findExamples } from '../support/jsdoc-examples.js';
import { repoPath, REPO_ROOT } from '../support/repo-paths.js';

const FENCE = '```';

describe('JSDoc examples', () => {
  const examples = findExamples(REPO_ROOT, repoPath('src'));

  it('finds the examples of the sources, each one fenced ts block', () => {
    assert.ok(examples.length >= 20, `only ${examples.length} @example tags found under src/`);
    const unfenced = examples.filter((example) => example.code === undefined).map((example) => `${example.file}:${example.line}: ${example.text.split('\n')[0]}`);
    assert.deepEqual(unfenced, [], 'every @example must be one fenced ts block holding a whole module');
  });

  it('every example compiles against the public API, strict', { timeout: 120_000 }, () => {
    assert.deepEqual(compileExamples(examples, REPO_ROOT), []);
  });

  it('the checker refuses an example that does not compile, naming its file and line, and finds unfenced ones', { timeout: 120_000 }, () => {
    const source = [
      '/**',
      ' * Adds.',
      ' * @example',
      ` * ${FENCE}ts`,
      " * import { defineTool } from 'toolwright';",
      " * defineTool({ name: 'x', inputSchema: { type: 'object' }, run: () => 'ok' }).nonsense();",
      ` * ${FENCE}`,
      ' */',
      'export const a = 1;',
      '/** @example a + 1 */',
      'export const b = 2;',
    ].join('\n');
    const found = examplesIn('fixture.ts', source);
    assert.deepEqual(found.map((example) => ({ line: example.line, fenced: example.code !== undefined })), [{ line: 3, fenced: true }, { line: 10, fenced: false }]);
    const problems = compileExamples(found, REPO_ROOT);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0]!, /^fixture\.ts:3 \(@example line 2\): Property 'nonsense' does not exist on type/);
  });
});
