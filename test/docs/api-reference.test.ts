/**
 * The API reference check (issue 33 item 9): TypeDoc, configured by typedoc.json, reads the JSDoc
 * of every package entry point and fails on any warning. In CI this proves that every exported
 * function, class, interface, type, variable, enum and method is documented, that every type the
 * API uses is exported, and that no `{@link}` leads nowhere. The fixture run shows the same
 * configuration refusing each of those faults, so the check cannot pass by checking nothing.
 * TypeDoc comes from the on-demand workspace test-deps/docs (not the root install).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoPath, REPO_ROOT } from '../support/repo-paths.js';
import { testDeps } from '../support/test-deps.js';

const TIMEOUT_MS = 240_000;

function typedoc(...args: string[]): { status: number | null; output: string } {
  const { dir } = testDeps('docs');
  const run = spawnSync(process.execPath, [join(dir, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--emit', 'none', ...args], {
    cwd: REPO_ROOT, encoding: 'utf8', timeout: TIMEOUT_MS, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  // Colour codes (if a terminal is detected anyway) would break the exact matches below.
  const output = `${run.stdout}${run.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
  return { status: run.status, output };
}

describe('API reference (TypeDoc)', () => {
  it('documents every entry point listed in package.json exports', () => {
    const config = JSON.parse(readFileSync(repoPath('typedoc.json'), 'utf8')) as { entryPoints: string[] };
    const manifest = JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { exports: Record<string, { default: string }> };
    const sources = Object.values(manifest.exports).map((entry) => entry.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
    assert.deepEqual([...config.entryPoints].sort(), sources.sort());
  });

  it('the package API passes with no warning: everything documented, every used type exported, no broken link', { timeout: TIMEOUT_MS }, () => {
    const run = typedoc();
    assert.equal(run.status, 0, `TypeDoc refused the API reference:\n${run.output}`);
    assert.doesNotMatch(run.output, /\[warning\]/);
  });

  it('the same configuration refuses an undocumented export, a type used but not exported, and a broken link', { timeout: TIMEOUT_MS }, () => {
    const run = typedoc('--options', 'test/fixtures/api-docs/typedoc.json');
    assert.notEqual(run.status, 0);
    assert.match(run.output, /undocumentedExport \(CallSignature\), defined in .*undocumented\.ts, does not have any documentation/);
    assert.match(run.output, /Hidden, defined in .*undocumented\.ts, is referenced by leaksHidden but not included in the documentation/);
    assert.match(run.output, /Failed to resolve link to "nowhereAtAll" in comment for brokenLink/);
    assert.match(run.output, /Found 0 errors and 3 warnings/);
  });
});
