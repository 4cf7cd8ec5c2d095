/**
 * GitHub's published OpenAPI description (api.github.com, from `@octokit/openapi`, installed on
 * demand in test-deps/openapi) imported whole: every operation becomes a tool or a reported
 * problem, every tool name fits every provider profile and is unique, and the import is linted.
 * Prints the tool count, import time and findings count (measured, not asserted).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { toolsFromOpenApi } from '../../../src/compose/openapi/index.js';
import { createServer } from '../../../src/index.js';
import { testDeps } from '../../support/test-deps.js';

const DESCRIPTION = 'node_modules/@octokit/openapi/generated/api.github.com.json';
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

it('imports GitHub\'s whole OpenAPI description, lints it, and the tools register on a server', { timeout: 600_000 }, async (t) => {
  let file: string;
  try {
    file = join(testDeps('openapi').dir, DESCRIPTION);
    if (!existsSync(file)) throw new Error(`${DESCRIPTION} is not in @octokit/openapi`);
  } catch (error) {
    const reason = `GitHub's description is unavailable: ${error instanceof Error ? error.message : String(error)}`;
    process.stdout.write(`# skipped: ${reason}\n`);
    t.skip(reason);
    return;
  }
  const started = performance.now();
  const result = await toolsFromOpenApi(file);
  const importMs = performance.now() - started;
  const { default: raw } = await import(file, { with: { type: 'json' } }) as { default: { paths: Record<string, Record<string, unknown>> } };
  const operationCount = Object.values(raw.paths).reduce((sum, item) => sum + Object.keys(item).filter((key) => METHODS.has(key)).length, 0);
  const skipped = result.problems.filter((problem) => problem.severity === 'skipped');
  const skippedOperations = new Set(skipped.map((problem) => problem.operation));
  process.stdout.write(`# github: ${operationCount} operations -> ${result.tools.length} tools in ${importMs.toFixed(0)} ms; ` +
    `${skippedOperations.size} skipped (${[...new Set(skipped.map((p) => p.code))].join(', ') || 'none'}); ${result.problems.length} problems; ` +
    `lint ${result.lint.findings.length} findings (${result.lint.counts.error} error, ${result.lint.counts.warning} warning, ${result.lint.counts.info} info); ` +
    `heap ${(process.memoryUsage().heapUsed / 1048576).toFixed(0)} MiB\n`);
  assert.equal(result.tools.length + skippedOperations.size, operationCount, 'every operation is a tool or a skipped, reported problem');
  assert.ok(result.tools.length > 900, `expected about a thousand tools, got ${result.tools.length}`);
  assert.equal(new Set(result.tools.map((tool) => tool.name)).size, result.tools.length);
  for (const tool of result.tools) assert.match(tool.name, /^[A-Za-z_][A-Za-z0-9_]{0,63}$/);
  assert.equal(result.operations.find((op) => op.operationId === 'repos/get-content')?.tool, 'repos_get_content');
  assert.equal(result.lint.toolCount, result.tools.length);
  // The server compiles every schema at registration: the produced tools are valid Toolwright tools.
  const server = createServer({ name: 'github', version: '1.0.0', tools: result.tools });
  assert.equal(server.tools.length, result.tools.length);
});
