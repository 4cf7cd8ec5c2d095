// Ids above 2^53 are answered with the exact text the client sent (JSON.parse rounds
// 9007199254740993 to 9007199254740992): over real HTTP (2026-07-28 JSON and SSE answers, errors,
// the 2025 session wire, the fetch handler, the transport's size cap) and a real stdio child in
// both eras. Replies are read as raw text, since parsing them would round the id again.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, defineTool } from '../../src/index.js';
import type { HttpListener } from '../../src/index.js';
import { echoExactId } from '../../src/protocol/json-rpc.js';
import { META, standardHeaders } from '../fixtures/servers/raw-http.js';
import { REPO_ROOT, TSX_LOADER } from '../support/repo-paths.js';

const BIG = '9007199254740993';
const BIGGER = '18446744073709551617';
const NEGATIVE = '-9007199254740995';

const sum = defineTool({ name: 'sum', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } as const, run: ({ a, b }) => String(a + b) });
const big = defineTool({ name: 'big', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } as const, run: ({ n }) => 'x'.repeat(n ?? 0) });
const progress = defineTool({
  name: 'progress',
  inputSchema: { type: 'object' } as const,
  run: (_args, ctx) => {
    ctx.progress(1, 2, 'half');
    return 'done';
  },
});

/** A 2026-07-28 request whose id is written as `idText` verbatim. */
function modern(idText: string, method: string, params: Record<string, unknown> = {}): string {
  const meta = { ...META, ...(params._meta as Record<string, unknown> | undefined) };
  return `{"jsonrpc":"2.0","id":${idText},"method":${JSON.stringify(method)},"params":${JSON.stringify({ ...params, _meta: meta })}}`;
}

async function postRaw(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string; type: string }> {
  const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, signal: AbortSignal.timeout(30_000) });
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') ?? '' };
}

const modernHeaders = (method: string, name?: string): Record<string, string> => standardHeaders({ method, params: name === undefined ? {} : { name } });

describe('ids above 2^53 over HTTP', () => {
  let listener: HttpListener;
  const server = createServer({ name: 'exact-ids', version: '1', tools: [sum, big, progress] });
  before(async () => {
    listener = await server.listen({ port: 0, maxResponseBytes: 10_000 });
  });
  after(() => server.close());

  it('a 2026-07-28 result and error echo the id text exactly', { timeout: 60_000 }, async () => {
    const called = await postRaw(listener.url, modern(BIG, 'tools/call', { name: 'sum', arguments: { a: 1, b: 2 } }), modernHeaders('tools/call', 'sum'));
    assert.equal(called.status, 200);
    assert.ok(called.text.startsWith(`{"jsonrpc":"2.0","id":${BIG},"result":{`), called.text);
    assert.match(called.text, /"text":"3"/);

    const unknown = await postRaw(listener.url, modern(BIGGER, 'no/such'), modernHeaders('no/such'));
    assert.equal(unknown.text, `{"jsonrpc":"2.0","id":${BIGGER},"error":{"code":-32601,"message":"Method not found: no/such"}}`);

    const invalid = await postRaw(listener.url, modern(NEGATIVE, 'tools/call', { name: 'sum', arguments: { a: 'one', b: 2 } }), modernHeaders('tools/call', 'sum'));
    assert.ok(invalid.text.startsWith(`{"jsonrpc":"2.0","id":${NEGATIVE},`), invalid.text);

    // An exponent that JSON.parse reads as an (unsafe) integer is echoed as written too.
    const exponent = await postRaw(listener.url, modern('1e20', 'tools/list'), modernHeaders('tools/list'));
    assert.ok(exponent.text.startsWith('{"jsonrpc":"2.0","id":1e20,"result":{'), exponent.text.slice(0, 80));
  });

  it('a safe id, a string id and an id-less refusal are unchanged', { timeout: 60_000 }, async () => {
    const safe = await postRaw(listener.url, modern('9007199254740991', 'tools/list'), modernHeaders('tools/list'));
    assert.ok(safe.text.startsWith('{"jsonrpc":"2.0","id":9007199254740991,"result":'));
    const text = await postRaw(listener.url, modern(`"${BIG}"`, 'tools/list'), modernHeaders('tools/list'));
    assert.ok(text.text.startsWith(`{"jsonrpc":"2.0","id":"${BIG}","result":`));
    const broken = await postRaw(listener.url, `{"jsonrpc":"2.0","id":${BIG},`, modernHeaders('tools/list'));
    assert.equal(broken.status, 400);
    assert.match(broken.text, /^\{"jsonrpc":"2\.0","error":\{"code":-32700,"message":"Parse error: /);
  });

  it('an SSE answer (progress first) ends with the exact id', { timeout: 60_000 }, async () => {
    const body = modern(BIG, 'tools/call', { name: 'progress', arguments: {}, _meta: { progressToken: 'p' } });
    const streamed = await postRaw(listener.url, body, modernHeaders('tools/call', 'progress'));
    assert.equal(streamed.type, 'text/event-stream');
    assert.match(streamed.text, /"method":"notifications\/progress"/);
    assert.ok(streamed.text.includes(`data: {"jsonrpc":"2.0","id":${BIG},"result":`), streamed.text);
  });

  it('an answer over the transport limit is refused with the exact id', { timeout: 60_000 }, async () => {
    const refused = await postRaw(listener.url, modern(BIG, 'tools/call', { name: 'big', arguments: { n: 50_000 } }), modernHeaders('tools/call', 'big'));
    assert.ok(refused.text.length < 1000);
    assert.match(refused.text, new RegExp(`^\\{"jsonrpc":"2\\.0","id":${BIG},"error":\\{"code":-32603,"message":"Response too large: \\d+ bytes exceeds the transport limit of 10000 bytes; nothing of it was sent"\\}\\}$`));
  });

  it('a 2025 session: initialize and later requests echo their exact ids', { timeout: 60_000 }, async () => {
    const init = await fetch(listener.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: `{"jsonrpc":"2.0","id":${BIG},"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
      signal: AbortSignal.timeout(30_000),
    });
    const initText = await init.text();
    assert.ok(initText.startsWith(`{"jsonrpc":"2.0","id":${BIG},"result":{`), initText);
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-11-25' };
    assert.notEqual(session['mcp-session-id'], '');
    assert.equal((await postRaw(listener.url, '{"jsonrpc":"2.0","method":"notifications/initialized"}', session)).status, 202);
    const called = await postRaw(listener.url, `{"jsonrpc":"2.0","id":${BIGGER},"method":"tools/call","params":{"name":"sum","arguments":{"a":2,"b":2}}}`, session);
    assert.ok(called.text.startsWith(`{"jsonrpc":"2.0","id":${BIGGER},"result":{`), called.text);
    assert.match(called.text, /"text":"4"/);
    const unknown = await postRaw(listener.url, `{"jsonrpc":"2.0","id":${NEGATIVE},"method":"no/such","params":{}}`, session);
    assert.ok(unknown.text.startsWith(`{"jsonrpc":"2.0","id":${NEGATIVE},"error":{"code":-32601`), unknown.text);
  });

  it('the fetch handler echoes the exact id too', { timeout: 60_000 }, async () => {
    const response = await server.fetch(new Request('http://localhost/mcp', { method: 'POST', body: modern(BIG, 'tools/list'), headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...modernHeaders('tools/list') } }));
    assert.ok((await response.text()).startsWith(`{"jsonrpc":"2.0","id":${BIG},"result":{`));
  });
});

/** A real `toolwright serve --stdio` child whose stdout is kept as raw lines. */
class RawStdioChild {
  readonly process: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  #buffer = '';
  #waiters: (() => void)[] = [];
  constructor() {
    this.process = spawn(process.execPath, ['--import', TSX_LOADER, `${REPO_ROOT}/src/cli/main.ts`, 'serve', `${REPO_ROOT}/test/fixtures/servers/everything.ts`, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.process.stdout.setEncoding('utf8');
    this.process.stdout.on('data', (chunk: string) => {
      this.#buffer += chunk;
      const parts = this.#buffer.split('\n');
      this.#buffer = parts.pop() ?? '';
      this.lines.push(...parts);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.process.stderr.resume();
  }
  write(line: string): void {
    this.process.stdin.write(`${line}\n`);
  }
  /** The first stdout line containing `needle` (the test's timeout bounds the wait). */
  async line(needle: string): Promise<string> {
    for (;;) {
      const found = this.lines.find((l) => l.includes(needle));
      if (found !== undefined) return found;
      if (this.process.exitCode !== null) assert.fail(`child exited before answering ${needle}; stdout=${this.lines.join('\n')}`);
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }
  kill(): void {
    if (this.process.exitCode === null) this.process.kill();
  }
}

describe('ids above 2^53 over stdio (real child)', () => {
  const children: RawStdioChild[] = [];
  after(() => {
    for (const child of children) child.kill();
  });

  it('2026-07-28: result and error lines carry the exact id', { timeout: 60_000 }, async () => {
    const child = new RawStdioChild();
    children.push(child);
    child.write(modern(BIG, 'tools/call', { name: 'calculate_sum', arguments: { a: 2, b: 3 } }));
    child.write(modern(BIGGER, 'no/such'));
    const result = await child.line(`"id":${BIG},`);
    assert.ok(result.startsWith(`{"jsonrpc":"2.0","id":${BIG},"result":{`), result);
    assert.equal(await child.line(`"id":${BIGGER},`), `{"jsonrpc":"2.0","id":${BIGGER},"error":{"code":-32601,"message":"Method not found: no/such"}}`);
  });

  it('2025: initialize and a tools/call on the session carry the exact ids', { timeout: 60_000 }, async () => {
    const child = new RawStdioChild();
    children.push(child);
    child.write(`{"jsonrpc":"2.0","id":${BIG},"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`);
    assert.ok((await child.line(`"id":${BIG},`)).startsWith(`{"jsonrpc":"2.0","id":${BIG},"result":{`));
    child.write('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    child.write(`{"jsonrpc":"2.0","id":${NEGATIVE},"method":"tools/call","params":{"name":"calculate_sum","arguments":{"a":1,"b":1}}}`);
    const called = await child.line(`"id":${NEGATIVE},`);
    assert.ok(called.startsWith(`{"jsonrpc":"2.0","id":${NEGATIVE},"result":{`), called);
  });
});

describe('echoExactId', () => {
  it('rewrites only a rounded numeric id, and only when the request holds its exact text', () => {
    const request = `{"jsonrpc":"2.0","id":${BIG},"method":"ping"}`;
    assert.equal(echoExactId(request, '{"jsonrpc":"2.0","id":9007199254740992,"result":{}}'), `{"jsonrpc":"2.0","id":${BIG},"result":{}}`);
    assert.equal(echoExactId(new TextEncoder().encode(request), '{"jsonrpc":"2.0","id":9007199254740992}'), `{"jsonrpc":"2.0","id":${BIG}}`);
    const untouched = ['{"jsonrpc":"2.0","id":7,"result":{}}', '{"jsonrpc":"2.0","id":"9007199254740992","result":{}}', '{"jsonrpc":"2.0","error":{"code":-32700,"message":"x"}}'];
    for (const reply of untouched) assert.equal(echoExactId(request, reply), reply);
    // A reply whose id the request does not round to is left alone (never a wrong id).
    assert.equal(echoExactId(request, '{"jsonrpc":"2.0","id":18446744073709552000,"result":{}}'), '{"jsonrpc":"2.0","id":18446744073709552000,"result":{}}');
  });
});
