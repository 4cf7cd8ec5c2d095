/** docs/compose.md's proxy example (examples/compose/proxy-front.ts) in front of server-everything, served on loopback and called. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { connect } from '../../../src/client/index.js';
import { lintTools } from '../../../src/lint/index.js';
import { proxyFront } from '../../../examples/compose/proxy-front.js';
import { SERVERS } from '../../client/fixtures/spawn-server.js';

it('the proxy example lists the filtered, renamed, prefixed tools; add waits for the operator, then runs upstream; all audited', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-proxy-doc-'));
  const front = await proxyFront(SERVERS.everything, join(dir, 'log', 'calls.jsonl'), join(dir, 'keys'));
  const listener = await front.server.listen({ port: 0 });
  const client = connect(listener.url, { onWarning: () => {} });
  const stop = front.server.approvals.subscribe((event) => {
    if (event.type === 'pending') void front.server.approvals.decide(event.pending.id, { approve: true, operator: 'olga', digest: event.pending.digest });
  });
  try {
    const tools = (await client.listTools()).tools;
    assert.ok(tools.every((t) => t.name.startsWith('every__') && t.annotations?.readOnlyHint === true));
    assert.deepEqual(front.everything.names.find((n) => n.local === 'every__add'), { local: 'every__add', upstream: 'get-sum' });
    const result = await client.callTool('every__add', { a: 40, b: 2 });
    assert.match((result.content[0] as { text: string }).text, /The sum of 40 and 2 is 42\./);
    const lint = lintTools(front.server.listToolDescriptors());
    assert.equal(lint.toolCount, tools.length, 'the proxied definitions are linted like local ones');
  } finally {
    stop();
    await client.close();
    await listener.close();
    await front.close();
  }
  const records = readFileSync(join(dir, 'log', 'calls.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.ok(records.some((r) => r.tool === 'every__add' && r.outcome === 'respond'));
  rmSync(dir, { recursive: true, force: true });
});
