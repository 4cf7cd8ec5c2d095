/** `toolwright call` as a real child process against every third-party target (see fixtures/interop-targets.ts). */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CASES, cli, dir, node, SERVERS, startTargets, stopTargets } from './fixtures/interop-targets.js';

before(startTargets);
after(stopTargets);

describe('toolwright call against third-party servers', () => {
  for (const c of CASES) {
    it(`${c.name}: runs the tool (exit 0) and prints its content`, async () => {
      const { code, stdout, stderr } = await cli(['call', ...c.target(), c.tool, c.args, '--json', '--timeout', '30000']);
      assert.equal(code, 0, stderr);
      const out = JSON.parse(stdout) as { result: { content: Array<{ text?: string }>; isError?: boolean }; stages: Array<{ stage: string; status: string }> };
      assert.match(out.result.content.map((b) => b.text ?? '').join('\n'), c.text);
      assert.equal(out.result.isError ?? false, false);
      assert.equal(out.stages.find((s) => s.stage === 'request')?.status, 'ok');
    });
  }
});

describe('toolwright call --root', () => {
  it('offers the directory as a root: server-everything lists it back', async () => {
    const { code, stdout, stderr } = await cli(['call', '--stdio', node(SERVERS.everything, 'stdio'), 'get-roots-list', '{}', '--root', dir, '--json']);
    assert.equal(code, 0, stderr);
    assert.match(stdout, new RegExp(`URI: file://${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('refuses a --root that is missing or not a directory, before starting anything (exit 2)', async () => {
    const missing = await cli(['call', '--stdio', node(SERVERS.everything, 'stdio'), 'get-sum', '{}', '--root', join(dir, 'missing')]);
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, `toolwright call: --root ${join(dir, 'missing')}: no such directory\n`);
    const file = await cli(['call', '--stdio', node(SERVERS.everything, 'stdio'), 'get-sum', '{}', '--root', join(dir, 'note.txt')]);
    assert.equal(file.code, 2);
    assert.equal(file.stderr, `toolwright call: --root ${join(dir, 'note.txt')}: not a directory\n`);
  });
});
