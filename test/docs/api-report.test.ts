/**
 * The committed API reports (docs/api-report/, scripts/api-report-lib.ts) match the code: a change
 * to a public type fails here until `npm run api:report` rewrites the report, so the change shows
 * up as a reviewed diff.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { buildApiReports, entryPointsOf } from '../../scripts/api-report-lib.js';
import { repoPath, REPO_ROOT } from '../support/repo-paths.js';

describe('API report', () => {
  it('has one report per package entry point, each up to date with the code', { timeout: 180_000 }, () => {
    const reports = buildApiReports(REPO_ROOT);
    assert.deepEqual([...reports.keys()].sort(), entryPointsOf(REPO_ROOT).map((entry) => entry.reportName).sort());
    for (const [name, text] of reports) {
      const committed = readFileSync(repoPath('docs', 'api-report', name), 'utf8');
      assert.equal(committed, text, `docs/api-report/${name} is out of date: run npm run api:report and review the diff`);
    }
    // The reports hold declarations as users compile against them, not just names.
    assert.match(reports.get('toolwright.schema.api.md')!, /^function compileSchema\(schema: object \| boolean, options\?: CompileOptions\): CompiledSchema;$/m);
    assert.match(reports.get('toolwright.api.md')!, /^\/\/ createServer\nfunction createServer\(options: ServerOptions\): McpServer;$/m);
  });
});
