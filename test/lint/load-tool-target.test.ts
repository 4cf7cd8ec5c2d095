import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadToolTarget, ToolTargetError } from '../../src/cli/load-tool-target.js';
import server from '../fixtures/lint/modules/robot-server.js';

const FIXTURES = 'test/fixtures/lint';
const SEED_NAMES = ['move_arm_to_pose', 'grasp_object_force_control', 'read_ft_sensor', 'plan_trajectory', 'get_device_status'];
const names = (tools: unknown[]): string[] => tools.map((t) => (t as { name: string }).name);

function tempFile(name: string, text: string): { path: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'tw-load-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return { path, done: () => rmSync(dir, { recursive: true, force: true }) };
}

async function rejects(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ToolTargetError, `expected ToolTargetError, got ${String(error)}`);
    assert.match(error.message, pattern);
    return true;
  });
}

test('a saved tools/list result, a bare array and a JSON-RPC response all load', async () => {
  const loaded = await loadToolTarget(`${FIXTURES}/seed-good.json`);
  assert.deepEqual(names(loaded.tools), SEED_NAMES);
  assert.equal(loaded.source.kind, 'file');
  assert.equal(loaded.source.kind === 'file' && loaded.source.toolsPointer, '/tools');
  const array = tempFile('array.json', JSON.stringify([{ name: 'a', inputSchema: { type: 'object' } }]));
  const rpc = tempFile('rpc.json', JSON.stringify({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', tools: [{ name: 'b', inputSchema: { type: 'object' } }] } }));
  try {
    const a = await loadToolTarget(array.path);
    assert.deepEqual(names(a.tools), ['a']);
    assert.equal(a.source.kind === 'file' && a.source.toolsPointer, '');
    const b = await loadToolTarget(rpc.path);
    assert.deepEqual(names(b.tools), ['b']);
    assert.equal(b.source.kind === 'file' && b.source.toolsPointer, '/result/tools');
  } finally {
    array.done();
    rpc.done();
  }
});

test('unreadable or malformed file targets fail with a clear message', async () => {
  await rejects(loadToolTarget('test/fixtures/lint/does-not-exist.json'), /^no such file: test\/fixtures\/lint\/does-not-exist\.json$/);
  await rejects(loadToolTarget('test/fixtures/lint'), /is not a file$/);
  const bad = tempFile('bad.json', '{"tools": [');
  const shape = tempFile('shape.json', '{"items": []}');
  const ext = tempFile('tools.yaml', 'tools: []');
  try {
    await rejects(loadToolTarget(bad.path), /is not valid JSON: /);
    await rejects(loadToolTarget(shape.path), /expected a tools\/list result .* got object with keys items$/);
    await rejects(loadToolTarget(ext.path), /unknown target type "\.yaml"/);
  } finally {
    bad.done();
    shape.done();
    ext.done();
  }
  await rejects(loadToolTarget('ftp://example.com/tools'), /unsupported URL scheme/);
  await rejects(loadToolTarget(''), /^no target given$/);
});

test('modules: an array of defineTool tools, a createServer server, plain descriptors', async () => {
  const array = await loadToolTarget(`${FIXTURES}/modules/robot-tools.ts`);
  assert.deepEqual(names(array.tools), SEED_NAMES);
  assert.equal(array.source.kind, 'module');
  const fromServer = await loadToolTarget(`${FIXTURES}/modules/robot-server.ts`);
  assert.deepEqual(fromServer.tools, server.listToolDescriptors());
  const plain = await loadToolTarget(`${FIXTURES}/modules/plain-descriptors.mjs`);
  assert.deepEqual(names(plain.tools), ['stop_arm']);
  await rejects(loadToolTarget(`${FIXTURES}/modules/no-default.mjs`), /has no default export/);
});

test('URL: tools/list over Streamable HTTP on 127.0.0.1, following nextCursor over three pages', async () => {
  const listener = await server.listen({ host: '127.0.0.1', port: 0 });
  try {
    const loaded = await loadToolTarget(listener.url);
    assert.deepEqual(names(loaded.tools), SEED_NAMES);
    assert.deepEqual(loaded.source, { kind: 'url', label: listener.url, url: listener.url });
  } finally {
    await listener.close();
  }
});

test('URL: the request carries the 2026-07-28 headers and _meta; JSON-RPC errors and dead ports are reported', async () => {
  const seen: Array<{ headers: Record<string, unknown>; body: Record<string, unknown> }> = [];
  const fake = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      const message = JSON.parse(body) as Record<string, unknown>;
      seen.push({ headers: req.headers, body: message });
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2099-01-01'] } } }));
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/mcp`;
  try {
    await rejects(loadToolTarget(url, { headers: { authorization: 'Bearer t0k' } }), /tools\/list failed with JSON-RPC error -32022: Unsupported protocol version \(\{"supported":\["2099-01-01"\]\}\)$/);
    assert.equal(seen.length, 1);
    const { headers, body } = seen[0]!;
    assert.equal(headers['mcp-protocol-version'], '2026-07-28');
    assert.equal(headers['mcp-method'], 'tools/list');
    assert.equal(headers.authorization, 'Bearer t0k');
    assert.match(String(headers.accept), /application\/json/);
    assert.match(String(headers.accept), /text\/event-stream/);
    // roots, elicitation and sampling are declared so that servers which hide tools from clients without them list every tool.
    assert.deepEqual(body.params, { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { roots: {}, elicitation: {}, sampling: {} } } });
  } finally {
    await new Promise<void>((resolve) => fake.close(() => resolve()));
  }
  await rejects(loadToolTarget(url, { timeoutMs: 2000 }), /^cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: ECONNREFUSED$/);
});

test('URL: a server that repeats a cursor is stopped, not looped', async () => {
  const looping = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      const message = JSON.parse(body) as { id: number };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', tools: [{ name: `t${message.id}`, inputSchema: { type: 'object' } }], nextCursor: 'same', ttlMs: 0, cacheScope: 'public' } })}\n\n`);
    });
  });
  await new Promise<void>((resolve) => looping.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(looping.address() as AddressInfo).port}/mcp`;
  try {
    await rejects(loadToolTarget(url), /returned cursor "same" twice; stopping$/);
  } finally {
    await new Promise<void>((resolve) => looping.close(() => resolve()));
  }
});

test('stdio: spawns the server, lists every page, and stops the process', async () => {
  const command = `"${process.execPath}" --import tsx ${FIXTURES}/modules/robot-stdio.ts`;
  const loaded = await loadToolTarget(command, { stdio: true });
  assert.deepEqual(names(loaded.tools), SEED_NAMES);
  assert.equal(loaded.source.kind, 'stdio');
});

test('stdio: a command that exits or never answers is an error with its stderr', async () => {
  await rejects(loadToolTarget(`"${process.execPath}" -e "console.error('boom'); process.exit(3)"`, { stdio: true }), /exited \(code 3\) before answering server\/discover; stderr: boom$/);
  await rejects(loadToolTarget(`"${process.execPath}" -e "setTimeout(() => {}, 5000)"`, { stdio: true, timeoutMs: 300 }), /did not answer tools\/list within 300 ms$/);
});
