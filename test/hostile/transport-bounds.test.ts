// Hostile transport input: malformed/duplicate Host headers, oversized answers, slow bodies, a
// last stdio line without newline, abrupt disconnects. Each asserts the exact answer and a size
// bound; time only as generous timeouts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import { createServer, defineTool } from '../../src/index.js';
import { rpc } from '../fixtures/servers/raw-http.js';
import { limitResponse } from '../../src/transport/response-limit.js';
import { countHostHeaders, parseHostHeader } from '../../src/transport/host-header.js';

const big = defineTool({ name: 'big', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } as const, run: ({ n }) => 'x'.repeat(n ?? 0) });

/** Sends raw bytes, returns everything the server sent back until it closes (or `ms`). */
function raw(port: number, bytes: string, ms = 60_000): Promise<string> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => { socket.destroy(); fail(new Error(`no close within ${ms} ms; got ${text.slice(0, 300)}`)); }, ms);
    socket.on('data', (chunk) => { text += chunk.toString('utf8'); });
    socket.on('close', () => { clearTimeout(timer); done(text); });
    socket.on('error', () => undefined);
    socket.write(bytes);
  });
}

const request = (host: string, extra = ''): string => {
  const body = JSON.stringify(rpc('tools/list'));
  return `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
};

describe('HTTP transport bounds', () => {
  it('malformed and duplicate Host headers are refused with 400 and a JSON-RPC error', { timeout: 60_000 }, async () => {
    const server = createServer({ name: 'hostile', version: '1', tools: [big] });
    const listener = await server.listen({ port: 0 });
    try {
      for (const [host, message] of [
        ['Host: 127.0.0.1\r\nHost: evil.example\r\n', 'Bad request: more than one Host header'],
        ['HOST: 127.0.0.1\r\nhOsT: evil.example\r\n', 'Bad request: more than one Host header'],
        ['Host: localhost@evil.example\r\n', 'Bad request: malformed Host header "localhost@evil.example"'],
        ['Host: localhost:80:81\r\n', 'Bad request: malformed Host header "localhost:80:81"'],
        ['Host: localhost:99999\r\n', 'Bad request: malformed Host header "localhost:99999"'],
        ['Host: [::1\r\n', 'Bad request: malformed Host header "[::1"'],
      ] as const) {
        const answer = await raw(listener.port, request(host));
        assert.match(answer, /^HTTP\/1\.1 400 /, host);
        const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: number; message: string } };
        assert.deepEqual(body, { jsonrpc: '2.0', error: { code: -31400, message } }, host);
        assert.ok(answer.length < 1000);
      }
      assert.match(await raw(listener.port, request('Host: 127.0.0.1:1234\r\n')), /^HTTP\/1\.1 200 /);
      // Header names in any case; names that only start or end like "host" are not Host headers.
      assert.equal(countHostHeaders(['Host', 'a', 'HOST', 'b', 'hOsT', 'c', 'Hostx', 'd', 'hos', 'e', 'X-Host', 'f']), 3);
      assert.equal(parseHostHeader('[::1]:3000'), '[::1]');
      assert.equal(parseHostHeader('Example.COM'), 'example.com');
      assert.equal(parseHostHeader('a b'), undefined);
      assert.equal(parseHostHeader(''), undefined);
    } finally {
      await listener.close();
    }
  });

  it('an answer over the transport limit becomes a JSON-RPC error with the same id saying so', { timeout: 60_000 }, async () => {
    const server = createServer({ name: 'hostile', version: '1', tools: [big] });
    const listener = await server.listen({ port: 0, maxResponseBytes: 10_000 });
    try {
      const message = rpc('tools/call', { name: 'big', arguments: { n: 50_000 } }, 77);
      const response = await fetch(listener.url, { method: 'POST', body: JSON.stringify(message), headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'big' }, signal: AbortSignal.timeout(60_000) });
      const text = await response.text();
      assert.ok(text.length < 1000);
      const body = JSON.parse(text) as { id: number; error: { code: number; message: string } };
      assert.equal(body.id, 77);
      assert.equal(body.error.code, -32603);
      assert.match(body.error.message, /^Response too large: \d+ bytes exceeds the transport limit of 10000 bytes; nothing of it was sent$/);
    } finally {
      await listener.close();
    }
    // The fetch handler applies the same cap.
    const viaFetch = createServer({ name: 'hostile', version: '1', tools: [big], http: { maxResponseBytes: 10_000 } });
    const fetched = await viaFetch.fetch(new Request('http://localhost/mcp', { method: 'POST', body: JSON.stringify(rpc('tools/call', { name: 'big', arguments: { n: 50_000 } }, 78)), headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'big' } }));
    const fetchedText = await fetched.text();
    assert.ok(fetchedText.length < 1000, `fetch answer of ${fetchedText.length} bytes`);
    assert.match(fetchedText, /^\{"jsonrpc":"2\.0","id":78,"error":\{"code":-32603,"message":"Response too large: \d+ bytes exceeds the transport limit of 10000 bytes; nothing of it was sent"\}\}$/);
    assert.equal(limitResponse('{"jsonrpc":"2.0","id":"a\\"b","result":{}}', 10), '{"jsonrpc":"2.0","id":"a\\"b","error":{"code":-32603,"message":"Response too large: 41 bytes exceeds the transport limit of 10 bytes; nothing of it was sent"}}');
  });

  it('a slow body (headers sent, body never finished) is cut by the explicit request timeout with 408', { timeout: 60_000 }, async () => {
    const server = createServer({ name: 'hostile', version: '1', tools: [big] });
    const listener = await server.listen({ port: 0, requestTimeoutMs: 1000, headersTimeoutMs: 1000 });
    try {
      const answer = await raw(listener.port, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"json');
      assert.match(answer, /^HTTP\/1\.1 408 /);
      const idle = await raw(listener.port, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      assert.match(idle, /^HTTP\/1\.1 408 /);
    } finally {
      await listener.close();
    }
  });

  it('an abrupt disconnect mid-body leaves the server answering others', { timeout: 60_000 }, async () => {
    const server = createServer({ name: 'hostile', version: '1', tools: [big] });
    const listener = await server.listen({ port: 0 });
    try {
      const socket = connect(listener.port, '127.0.0.1');
      await new Promise((done) => socket.once('connect', done));
      socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":"2.0",');
      socket.destroy();
      assert.match(await raw(listener.port, request('Host: 127.0.0.1\r\n')), /^HTTP\/1\.1 200 /);
    } finally {
      await listener.close();
    }
  });
});

describe('stdio transport bounds', () => {
  it('a last line without a newline before EOF is processed and answered', { timeout: 60_000 }, async () => {
    const server = createServer({ name: 'hostile', version: '1', tools: [big] });
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); });
    const connection = server.stdio({ input, output });
    input.end(JSON.stringify(rpc('tools/call', { name: 'big', arguments: { n: 3 } }, 5)));
    await connection.closed;
    const [line] = text.trimEnd().split('\n');
    const answer = JSON.parse(line!) as { id: number; result: { content: Array<{ text: string }> } };
    assert.equal(answer.id, 5);
    assert.equal(answer.result.content[0]!.text, 'xxx');
  });

  it('output the peer never reads is bounded: past the limit the connection closes', { timeout: 60_000 }, async () => {
    const server = createServer({ name: 'hostile', version: '1', tools: [big] });
    const input = new PassThrough();
    const output = new PassThrough({ highWaterMark: 1024 }); // never read
    const connection = server.stdio({ input, output, maxUnreadOutputBytes: 100_000 });
    for (let i = 0; i < 20; i++) input.write(`${JSON.stringify(rpc('tools/call', { name: 'big', arguments: { n: 20_000 } }, i + 1))}\n`);
    await connection.closed;
    assert.ok(output.writableLength < 200_000, `${output.writableLength} bytes buffered`);
  });
});
