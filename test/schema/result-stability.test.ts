/**
 * An invalid result never changes after it is made (its messages are kept beside it), so the first
 * read of a result's messages leaves the optimised validators that create results optimised. When
 * a result's own field went from undefined to the message array, V8 threw their code away at that
 * read (it depended on the field's kind), and the trajectory bench fixture's validator sometimes
 * stayed unoptimised for the rest of the process. A child process with V8's test intrinsics
 * (--allow-natives-syntax) optimises the validator, reads messages, and reports its state.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';
import { runChild } from '../support/child-process.js';

const PROGRAM = `
import { compileSchema } from ${JSON.stringify(pathToFileURL(repoPath('src/schema/index.ts')).href)};
const compiled = compileSchema({ type: 'object', properties: { a: { type: 'integer', maximum: 3 } }, required: ['a'], additionalProperties: false, title: 'result stability' });
const instances = [{ a: 1 }, { a: 9 }, { b: 1 }];
compiled.validate(instances[0]);
const validate = compiled.validate;
const optimised = () => (%GetOptimizationStatus(validate) & 16) !== 0;
%PrepareFunctionForOptimization(validate);
for (let i = 0; i < 50; i++) for (const x of instances) validate(x);
%OptimizeFunctionOnNextCall(validate);
for (const x of instances) validate(x);
const before = optimised();
const first = validate({ a: 9 });
const messages = first.errors.map((e) => e.message);
const again = first.errors === first.errors;
for (const x of instances) validate(x);
console.log(JSON.stringify({ before, after: optimised(), messages, again, json: JSON.parse(JSON.stringify(first)) }));
`;

it('reading an invalid result\'s messages leaves the validator optimised, and the messages are made once', async () => {
  const run = await runChild({ args: ['--allow-natives-syntax', '--import', TSX_LOADER, '--input-type=module', '-e', PROGRAM], timeoutMs: 60_000 });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), {
    before: true, after: true, messages: ['/a: expected number <= 3, got number 9'], again: true,
    json: { valid: false, errors: [{ instancePath: '/a', keyword: 'maximum', message: '/a: expected number <= 3, got number 9', schemaPath: '#/properties/a/maximum' }] },
  });
});
