/**
 * A 2025 request's params, as the 2025 wire forwards them (withMeta), share one hidden class from
 * call to call. `{ ...params, _meta }` did not: V8 gave each copy of a JSON.parse'd object plus a
 * member it lacked a hidden class of its own once the code was optimised, and every stage then read
 * the params through megamorphic lookups. A child process with V8's test intrinsics
 * (--allow-natives-syntax) builds the params in optimised code and compares hidden classes.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';
import { runChild } from '../support/child-process.js';

const PROGRAM = `
import { withMeta } from ${JSON.stringify(pathToFileURL(repoPath('src/server/legacy/session.ts')).href)};
const body = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"calculate_sum","arguments":{"a":20,"b":22}}}';
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
const build = () => withMeta(JSON.parse(body).params, meta);
%PrepareFunctionForOptimization(build);
for (let i = 0; i < 2000; i++) build();
%OptimizeFunctionOnNextCall(build);
const first = build();
const second = build();
console.log(JSON.stringify({ sameShape: %HaveSameMap(first, second), fast: %HasFastProperties(first), params: first }));
`;

it('the params of two forwarded 2025 calls share one hidden class, with fast properties', async () => {
  const run = await runChild({ args: ['--allow-natives-syntax', '--import', TSX_LOADER, '--input-type=module', '-e', PROGRAM], timeoutMs: 60_000 });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), { sameShape: true, fast: true, params: { name: 'calculate_sum', arguments: { a: 20, b: 22 }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });
});
