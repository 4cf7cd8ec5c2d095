/**
 * A runtime that refuses code generation from strings (Cloudflare's workerd; here node with
 * --disallow-code-generation-from-strings, the same V8 switch) gets the compliant engine for every
 * schema, with the same verdicts and messages, instead of an error on every validation
 * (docs/deploy.md). A child process, because the switch is per process.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';

const PROGRAM = `
import { compileSchema } from ${JSON.stringify(pathToFileURL(repoPath('src/schema/index.ts')).href)};
const compiled = compileSchema({ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'], additionalProperties: false });
console.log(JSON.stringify({ engine: compiled.engine, bad: compiled.validate({ a: 'x' }), good: compiled.validate({ a: 1 }) }));
`;

function run(flags: string[]): unknown {
  const result = spawnSync(process.execPath, [...flags, '--import', TSX_LOADER, '--input-type=module', '-e', PROGRAM], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

it('without code generation every schema takes the compliant engine, with the fast engine\'s answers', () => {
  const badErrors = [{ instancePath: '/a', keyword: 'type', message: '/a: expected integer, got string "x"', schemaPath: '#/properties/a/type' }];
  assert.deepEqual(run(['--disallow-code-generation-from-strings']), { engine: 'compliant', bad: { valid: false, errors: badErrors }, good: { valid: true, errors: [] } });
  assert.deepEqual(run([]), { engine: 'fast', bad: { valid: false, errors: badErrors }, good: { valid: true, errors: [] } });
});
