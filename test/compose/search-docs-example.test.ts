/** docs/compose.md's search example (examples/compose/search-server.ts), served on loopback and called with the project's client. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { connect } from '../../src/client/index.js';
import { searchServer } from '../../examples/compose/search-server.js';

it('the search example lists two tools, finds issues_create and runs it through call_tool', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-search-doc-'));
  const server = searchServer(join(dir, 'audit.jsonl'));
  const listener = await server.listen({ port: 0, host: '127.0.0.1' });
  const client = connect(listener.url, { onWarning: () => {} });
  try {
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['search_tools', 'call_tool']);
    const found = await client.callTool('search_tools', { query: 'open an issue' });
    const answer = JSON.parse(found.content.map((b) => (b.type === 'text' ? b.text : '')).join('')) as { tools: { name: string }[] };
    assert.equal(answer.tools[0]!.name, 'issues_create');
    const ran = await client.callTool('call_tool', { name: 'issues_create', arguments: { repo: 'tw', title: 'hello' } });
    assert.deepEqual(ran.content, [{ type: 'text', text: 'opened "hello" in tw' }]);
  } finally {
    await client.close();
    await listener.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
