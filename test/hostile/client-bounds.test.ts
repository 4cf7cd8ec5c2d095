// Our side as a client: `toolwright call`, `lint` and `preview`, run as real child processes with
// a 128 MB heap, against a hostile loopback server (a body that never ends, an SSE stream that
// never ends, a drip of one byte per 200 ms, a 100,000-level-deep schema, 10,000 tools). Each run
// must end with a clear error (or a bounded answer) and a known exit code, never a crash or an
// out-of-memory abort; time only as the CLI's --timeout and generous test timeouts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REPO_ROOT, TSX_LOADER } from '../support/repo-paths.js';

type Mode = 'huge-body' | 'endless-sse' | 'drip' | 'deep-schema' | 'many-tools';

const DEEP = 100_000;
const TOOL = { name: 'target', description: 'A tool.', inputSchema: { type: 'object', properties: { a: { type: 'integer' } } } };
const deepSchema = `{"type":"object","properties":{"a":${'{"type":"object","properties":{"a":'.repeat(DEEP)}{"type":"integer"}${'}}'.repeat(DEEP)}}}`;
const manyTools = JSON.stringify(Array.from({ length: 10_000 }, (_, i) => ({ ...TOOL, name: `tool_${i}` })));
const openResponses = new Set<ServerResponse>();

function json(res: ServerResponse, id: unknown, resultJson: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}`);
}

/** Writes `chunk` until the client goes away or `limit` chunks are written (bounded either way). */
function writeForever(res: ServerResponse, chunk: () => string, everyMs: number, limit: number): void {
  openResponses.add(res);
  let written = 0;
  const tick = (): void => {
    if (res.destroyed || written >= limit) return void res.end();
    written++;
    if (res.write(chunk())) setTimeout(tick, everyMs);
    else res.once('drain', () => setTimeout(tick, everyMs));
  };
  res.once('close', () => openResponses.delete(res));
  tick();
}

function hostile(mode: Mode, hostileList: boolean, method: string, id: unknown, res: ServerResponse): void {
  if (method === 'server/discover') {
    return json(res, id, JSON.stringify({ resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'hostile', version: '1' } } }));
  }
  if (method === 'tools/list') {
    if (mode === 'deep-schema') return json(res, id, `{"resultType":"complete","ttlMs":0,"cacheScope":"public","tools":[{"name":"target","inputSchema":${deepSchema}}]}`);
    if (mode === 'many-tools') return json(res, id, `{"resultType":"complete","ttlMs":0,"cacheScope":"public","tools":${manyTools}}`);
    if (mode === 'huge-body' || mode === 'drip' || mode === 'endless-sse') {
      // For lint/preview the listing itself is hostile; for call it is small (see tools/call below).
      if (!hostileList) return json(res, id, `{"resultType":"complete","ttlMs":0,"cacheScope":"public","tools":[${JSON.stringify(TOOL)}]}`);
    }
  }
  if (mode === 'huge-body') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`);
    const block = 'x'.repeat(256 * 1024);
    return writeForever(res, () => block, 0, 4096); // at most 1 GiB, stopped by the client long before
  }
  if (mode === 'endless-sse') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    return writeForever(res, () => `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"${'y'.repeat(1000)}"}}\n\n`, 1, 1_000_000);
  }
  if (mode === 'drip') {
    res.writeHead(200, { 'content-type': 'application/json' });
    const text = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[]}}`;
    let i = 0;
    return writeForever(res, () => text[Math.min(i++, text.length - 1)]!, 200, text.length - 1); // never the last byte
  }
  json(res, id, '{"resultType":"complete","content":[{"type":"text","text":"ok"}]}');
}

let server: Server;
let base = '';
before(async () => {
  server = createServer((req, res) => {
    // /<mode> is hostile in tools/call; /<mode>?list makes tools/list itself hostile.
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const mode = url.pathname.slice(1) as Mode;
    const hostileList = url.searchParams.has('list');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let message: { id?: unknown; method?: string } = {};
      try {
        message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof message;
      } catch {
        // answered below as a plain call
      }
      if (message.id === undefined) { res.writeHead(202); res.end(); return; }
      hostile(mode, hostileList, message.method ?? '', message.id, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  for (const res of openResponses) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface Run { code: number | null; signal: string | null; stdout: string; stderr: string }

/** Runs the CLI with a 128 MB heap: accumulating an unbounded answer would abort it (out of memory). */
function cli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--max-old-space-size=128', '--import', TSX_LOADER, `${REPO_ROOT}/src/cli/main.ts`, ...args], { timeout: 90_000, maxBuffer: 64 * 1024 * 1024, env: process.env }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, signal: error?.signal ?? null, stdout, stderr });
    });
  });
}

function assertNoCrash(run: Run): void {
  assert.equal(run.signal, null, `killed by ${run.signal}: ${run.stderr.slice(-500)}`);
  assert.doesNotMatch(run.stderr, /heap out of memory|Maximum call stack|RangeError|at .*\(.*\.ts:\d+:\d+\)/, run.stderr.slice(-800));
}

describe('toolwright call against a hostile server', () => {
  it('a response body that never ends: stopped at the 16 MiB message bound with a clear error, exit 3', { timeout: 120_000 }, async () => {
    const run = await cli(['call', `${base}/huge-body`, 'target', '{}', '--timeout', '60000']);
    assertNoCrash(run);
    assert.equal(run.code, 3, run.stderr); // 3: the call failed (toolwright call --help)
    assert.match(run.stdout + run.stderr, /the response body exceeds 16777216 bytes/);
  });

  it('an SSE stream that never sends the response: cut at --timeout, exit 3', { timeout: 120_000 }, async () => {
    const run = await cli(['call', `${base}/endless-sse`, 'target', '{}', '--timeout', '3000']);
    assertNoCrash(run);
    assert.equal(run.code, 3, run.stderr); // 3: the call failed (toolwright call --help)
    assert.match(run.stdout + run.stderr, /no response within 3000 ms; the request was cancelled/);
  });

  it('a body dripped one byte per 200 ms: cut at --timeout, exit 3', { timeout: 120_000 }, async () => {
    const run = await cli(['call', `${base}/drip`, 'target', '{}', '--timeout', '3000']);
    assertNoCrash(run);
    assert.equal(run.code, 3, run.stderr); // 3: the call failed (toolwright call --help)
    assert.match(run.stdout + run.stderr, /no response within 3000 ms/);
  });
});

describe('toolwright lint and preview against a hostile server', () => {
  it('a tools/list that never ends: lint and preview stop at the message bound, exit 2 naming the target', { timeout: 120_000 }, async () => {
    for (const command of [['lint'], ['preview', '--provider', 'openai-responses']]) {
      const run = await cli([...command, `${base}/huge-body?list`, '--timeout', '60000']);
      assertNoCrash(run);
      assert.equal(run.code, 2, `${command[0]}: ${run.stderr}`);
      assert.match(run.stderr, /exceeds 16777216 bytes/, command[0]);
    }
  });

  it('an endless SSE listing and a dripped listing: cut at --timeout, exit 2', { timeout: 120_000 }, async () => {
    for (const mode of ['endless-sse', 'drip']) {
      for (const command of [['lint'], ['preview', '--provider', 'anthropic']]) {
        const run = await cli([...command, `${base}/${mode}?list`, '--timeout', '3000']);
        assertNoCrash(run);
        assert.equal(run.code, 2, `${command[0]} ${mode}: ${run.stderr}`);
        assert.match(run.stderr, /did not answer tools\/list within 3000 ms|within 3000 ms/, `${command[0]} ${mode}: ${run.stderr}`);
      }
    }
  });

  it('a 100,000-level-deep inputSchema: the listing is refused naming the tool and the limit, not a crash', { timeout: 120_000 }, async () => {
    const refusal = 'tools/list: tool "target" (page 1, entry 0) is nested deeper than 256 levels (limits: 256 levels, 200000 values per tool); stopping';
    for (const command of [['lint', '--format', 'json'], ['preview', '--provider', 'openai-responses', '--json']]) {
      const run = await cli([...command, `${base}/deep-schema`, '--timeout', '30000']);
      assertNoCrash(run);
      assert.equal(run.code, 2, `${command[0]}: ${run.stderr.slice(-500)}`);
      assert.ok(run.stderr.includes(refusal), `${command[0]}: ${run.stderr.slice(-500)}`);
    }
    // call does not walk the schema unless it must validate: it lists (refused the same way) only with --repair.
    const repaired = await cli(['call', `${base}/deep-schema`, 'target', '{}', '--repair', 'anthropic', '--timeout', '30000']);
    assertNoCrash(repaired);
    assert.equal(repaired.code, 3, repaired.stderr.slice(-500));
    assert.ok((repaired.stdout + repaired.stderr).includes(refusal), (repaired.stdout + repaired.stderr).slice(-500));
  });

  it('10,000 tools in one page: lint and preview finish with a bounded report', { timeout: 300_000 }, async () => {
    const lint = await cli(['lint', `${base}/many-tools`, '--format', 'json', '--timeout', '60000']);
    assertNoCrash(lint);
    assert.ok(lint.code === 0 || lint.code === 1, lint.stderr);
    JSON.parse(lint.stdout);
    const preview = await cli(['preview', `${base}/many-tools`, '--provider', 'openai-responses', '--json', '--timeout', '60000']);
    assertNoCrash(preview);
    assert.ok(preview.code === 0 || preview.code === 1, preview.stderr.slice(-500));
    assert.match(preview.stdout + preview.stderr, /tool_9999|10000|too many/);
  });
});
