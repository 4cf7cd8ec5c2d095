/**
 * A 2025 request's params, as the 2025 wire forwards them (withMeta, and mergeMeta for a client's
 * own `_meta`), share one hidden class from call to call. `{ ...params, _meta }` and
 * `{ ...clientMeta, ...translated }` did not: once the code was optimised, V8 gave each copy of a
 * JSON.parse'd object plus members it lacked a hidden class of its own, and every stage then read
 * the params through megamorphic lookups. A child process with V8's test intrinsics
 * (--allow-natives-syntax) builds the params in optimised code and compares hidden classes.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';
import { runChild } from '../support/child-process.js';

const PROGRAM = `
import { mergeMeta, withMeta } from ${JSON.stringify(pathToFileURL(repoPath('src/server/legacy/session.ts')).href)};
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/logLevel': 'debug' };
let id = 0;
const bodyOf = (clientMeta) => JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'calculate_sum', arguments: { a: 20, b: 22 }, ...(clientMeta ? { _meta: { progressToken: id } } : {}) } });
const plain = () => withMeta(JSON.parse(bodyOf(false)).params, meta);
const withProgress = () => { const params = JSON.parse(bodyOf(true)).params; return withMeta(params, mergeMeta(params._meta, meta)); };
const report = {};
for (const [name, build] of Object.entries({ plain, withProgress })) {
  %PrepareFunctionForOptimization(build);
  for (let i = 0; i < 2000; i++) build();
  %OptimizeFunctionOnNextCall(build);
  const first = build();
  const second = build();
  report[name] = { sameShape: %HaveSameMap(first, second) && %HaveSameMap(first._meta, second._meta), fast: %HasFastProperties(first) && %HasFastProperties(first._meta), keys: Object.keys(first), metaKeys: Object.keys(first._meta).sort() };
}
console.log(JSON.stringify(report));
`;

it('the params (and their _meta) of two forwarded 2025 calls share one hidden class, with fast properties, with and without a client _meta', async () => {
  const run = await runChild({ args: ['--allow-natives-syntax', '--import', TSX_LOADER, '--input-type=module', '-e', PROGRAM], timeoutMs: 60_000 });
  assert.equal(run.code, 0, run.stderr);
  const translated = ['io.modelcontextprotocol/clientCapabilities', 'io.modelcontextprotocol/logLevel', 'io.modelcontextprotocol/protocolVersion'];
  assert.deepEqual(JSON.parse(run.stdout), {
    plain: { sameShape: true, fast: true, keys: ['name', 'arguments', '_meta'], metaKeys: translated },
    withProgress: { sameShape: true, fast: true, keys: ['name', 'arguments', '_meta'], metaKeys: [...translated, 'progressToken'] },
  });
});
