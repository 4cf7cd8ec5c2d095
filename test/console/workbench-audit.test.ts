/**
 * A call made from the console workbench is audited as what it is: transport `console`, naming the
 * operator the console was started for (not `stdio` with no one), through real HTTP on loopback.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { auditLog, createServer, verifyHashChainLog } from '../../src/index.js';
import { createWorkbenchConsole } from '../../src/console/index.js';
import { sampleTool } from '../support/sample-tool.js';

const logDir = mkdtempSync(join(tmpdir(), 'tw-wb-audit-log-'));
const keyDir = mkdtempSync(join(tmpdir(), 'tw-wb-audit-key-'));
after(() => {
  rmSync(logDir, { recursive: true, force: true });
  rmSync(keyDir, { recursive: true, force: true });
});

it('records a workbench call with transport console and the operator; an MCP call stays http with no operator', async () => {
  const path = join(logDir, 'calls.jsonl');
  const files = { key: join(keyDir, 'audit.key'), head: join(keyDir, 'calls.head') };
  const server = createServer({ name: 'wb', version: '1', tools: [sampleTool()], use: [auditLog({ path, ...files })] });
  const mount = createWorkbenchConsole(server, { operator: 'Ada Lovelace' });
  await mount.ready();
  const listener = await server.listen({ port: 0, mounts: [mount] });
  try {
    const base = `http://127.0.0.1:${listener.port}`;
    const console = await fetch(`${base}/console/api/call`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-console-token': mount.token }, body: JSON.stringify({ tool: 'echo', arguments: { text: 'hi' } }), signal: AbortSignal.timeout(30_000) });
    assert.equal(console.status, 200);
    const mcp = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'echo', arguments: { text: 'ho' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
      signal: AbortSignal.timeout(30_000),
    });
    assert.equal(mcp.status, 200);
  } finally {
    mount.close();
    await listener.close();
    await server.close();
  }
  const verdict = verifyHashChainLog(path, files);
  assert.deepEqual(verdict.problems, []);
  const calls = verdict.records.filter((r) => r.type === 'tool_call').map((r) => [r.transport, r.operator, r.outcome]);
  assert.deepEqual(calls, [['console', 'Ada Lovelace', 'respond'], ['http', undefined, 'respond']]);
});
