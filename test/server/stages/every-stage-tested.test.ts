/** Every stage of the pipeline has its unit test beside it here, and every test here names a stage. */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { it } from 'node:test';
import { STAGES } from '../../../src/server/stages/stage-list.js';
import { repoPath } from '../../support/repo-paths.js';

it('has one <stage>.test.ts per stage of STAGES', () => {
  const tested = readdirSync(repoPath('test', 'server', 'stages'))
    .filter((f) => f.endsWith('.test.ts') && f !== 'every-stage-tested.test.ts')
    .map((f) => f.slice(0, -'.test.ts'.length))
    .sort();
  assert.deepEqual(tested, [...STAGES].sort());
});
