/** stdio framing limits and shutdown, on in-process streams (the child-process tests cover the rest). */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { createServer, defineTool } from '../../src/index.js';
import { rpc } from '../fixtures/servers/raw-http.js';
import { assertServerMessage } from '../fixtures/servers/wire-schema.js';
import { sampleTool } from '../support/sample-tool.js';

const aborted: string[] = [];
const waitForAbort = defineTool({
  name: 'wait_for_abort',
  inputSchema: { type: 'object' },
  run: (_args, ctx) =>
    new Promise<string>((resolve) => {
      ctx.signal.addEventListener('abort', () => {
        aborted.push(String(ctx.requestId));
        resolve('aborted');
      }, { once: true });
    }),
});
const echo = sampleTool();

function connect(options: { maxLineBytes?: number; drainMs?: number } = {}) {
  const server = createServer({ name: 'stdio-unit', version: '1', tools: [waitForAbort, echo] });
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    buffer += chunk;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, i)) as Record<string, unknown>;
      buffer = buffer.slice(i + 1);
      assertServerMessage(message, 'id' in message && !('error' in message) ? 'tools/call' : undefined);
      lines.push(message);
    }
  });
  const connection = server.stdio({ input, output, ...options });
  return { server, input, lines, connection };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('stdio (in process)', () => {
  it('refuses an over-long line with an id-less -32600 and keeps serving the next lines', async () => {
    const { input, lines, connection } = connect({ maxLineBytes: 256 });
    input.write(`${JSON.stringify(rpc('tools/call', { name: 'echo', arguments: { text: 'x'.repeat(300) } }, 1))}\n`);
    input.write(`${JSON.stringify(rpc('tools/call', { name: 'echo', arguments: { text: 'short' } }, 2))}\n`);
    input.end();
    await connection.closed;
    await flush();
    assert.deepEqual(lines[0], { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request: message exceeds 256 bytes' } });
    assert.equal(lines.length, 2);
    assert.equal(lines[1]?.id, 2);
    assert.deepEqual((lines[1]?.result as Record<string, unknown>).content, [{ type: 'text', text: 'short' }]);
  });

  it('accepts a message split across many chunks', async () => {
    const { input, lines, connection } = connect();
    const text = `${JSON.stringify(rpc('tools/call', { name: 'echo', arguments: { text: 'Grüße' } }, 'split'))}\n`;
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += 7) input.write(bytes.subarray(i, i + 7));
    input.end();
    await connection.closed;
    await flush();
    assert.deepEqual((lines[0]?.result as Record<string, unknown>).content, [{ type: 'text', text: 'Grüße' }]);
  });

  it('after EOF lets requests finish until drainMs, then aborts them and sends nothing for them', async () => {
    const { input, lines, connection } = connect({ drainMs: 20 });
    input.write(`${JSON.stringify(rpc('tools/call', { name: 'wait_for_abort' }, 'w1'))}\n`);
    await flush();
    input.end();
    await connection.closed;
    await flush();
    assert.deepEqual(aborted, ['w1']);
    assert.deepEqual(lines, []);
  });

  it('close() aborts in-flight requests at once', async () => {
    const { input, lines, connection, server } = connect();
    input.write(`${JSON.stringify(rpc('tools/call', { name: 'wait_for_abort' }, 'w2'))}\n`);
    await flush();
    await server.close();
    await connection.closed;
    await flush();
    assert.ok(aborted.includes('w2'));
    assert.deepEqual(lines, []);
  });
});
