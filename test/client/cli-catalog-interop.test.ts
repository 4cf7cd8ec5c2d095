/** `toolwright lint` and `preview` as real child processes against third-party targets of each kind (see fixtures/interop-targets.ts). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CASES, cli, startTargets, stopTargets } from './fixtures/interop-targets.js';

before(startTargets);
after(stopTargets);

describe('toolwright lint and preview against third-party servers', () => {
  for (const c of CASES.filter((t) => t.catalog)) {
    it(`${c.name}: both read every tool`, async () => {
      const lint = await cli(['lint', ...c.target(), '--format', 'json']);
      assert.ok(lint.code === 0 || lint.code === 1, `lint exit ${lint.code}: ${lint.stderr}`);
      assert.equal((JSON.parse(lint.stdout) as { summary: { tools: number } }).summary.tools, c.tools);
      const preview = await cli(['preview', ...c.target(), '--provider', 'openai-chat', '--json']);
      assert.ok(preview.code === 0 || preview.code === 1, `preview exit ${preview.code}: ${preview.stderr}`);
      const out = JSON.parse(preview.stdout) as { tools: unknown[]; failures: unknown[] };
      assert.equal(out.tools.length + out.failures.length, c.tools);
    });
  }
});
