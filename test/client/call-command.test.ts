/** `toolwright call` as a real child process, against our server over HTTP and stdio and a scripted server. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { createServer, defineTool, rateLimit } from '../../src/index.js';
import type { HttpListener } from '../../src/index.js';
import { createEverythingServer, TOKENS } from '../fixtures/servers/everything.js';
import { replyResult, startScriptedServer } from './scripted-http-server.js';
import type { ScriptedServer } from './scripted-http-server.js';
import { REPO_ROOT } from '../support/repo-paths.js';

const server = createEverythingServer({ logger: { error: () => {} } });
let listener: HttpListener;
let scripted: ScriptedServer;
before(async () => {
  listener = await server.listen({ port: 0 });
  scripted = await startScriptedServer((req, res) => {
    if (req.body.method === 'tools/list') {
      return replyResult(res, req, { resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools: [{ name: 'measure', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { mm: { type: 'number' } }, required: ['mm'] } }] });
    }
    replyResult(res, req, { resultType: 'complete', content: [{ type: 'text', text: 'far' }], structuredContent: { mm: 'far' } });
  });
});
after(async () => {
  await server.close();
  await scripted.close();
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'call', ...args], { cwd: REPO_ROOT, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

describe('toolwright call', () => {
  it('prints stages, content, structured content and isError; exit 0', async () => {
    const { code, stdout } = await cli([listener.url, 'structured_only']);
    assert.equal(code, 0);
    assert.match(stdout, /^Stages:\n {2}repair {6}skipped {2}no --repair\n {2}request {5}ok {7}answered in \d+ ms over http\n {2}validation {2}ok {7}structuredContent matches the outputSchema\n/);
    assert.match(stdout, /\nStructured content:\n {2}\{\n {4}"count": 3\n {2}\}\n\nisError: false\n$/);
  });

  it('--repair turns model-style arguments into valid ones and lists each repair; --json gives one document', async () => {
    const { code, stdout } = await cli([listener.url, 'calculate_sum', '{"a":"15","b":"2"}', '--repair', 'openai-responses', '--json']);
    assert.equal(code, 0);
    const doc = JSON.parse(stdout) as Record<string, unknown>;
    assert.deepEqual(doc.arguments, { a: 15, b: 2 });
    assert.deepEqual(doc.repairs, [
      { path: '/a', kind: 'numeric-string', from: '15', to: 15 },
      { path: '/b', kind: 'numeric-string', from: '2', to: 2 },
    ]);
    assert.deepEqual((doc.result as Record<string, unknown>).content, [{ type: 'text', text: '17' }]);
    assert.deepEqual((doc.stages as { stage: string; status: string }[]).map((s) => `${s.stage}:${s.status}`), ['repair:ok', 'request:ok', 'validation:skipped']);
  });

  it('progress the server reports goes to stderr as it comes, the result to stdout', async () => {
    const { code, stdout, stderr } = await cli([listener.url, 'slow_progress', '{"delayMs":0}']);
    assert.equal(code, 0, stderr);
    assert.deepEqual(stderr.split('\n').filter((line) => line.startsWith('toolwright call: progress')), [
      'toolwright call: progress 0/100 step 0',
      'toolwright call: progress 50/100 step 50',
      'toolwright call: progress 100/100 step 100',
    ]);
    assert.doesNotMatch(stdout, /progress/);
  });

  it('an isError result exits 1; headers reach the server (bearer token)', async () => {
    const failed = await cli([listener.url, 'failing']);
    assert.equal(failed.code, 1);
    assert.match(failed.stdout, /\[text\] upstream API unavailable\n[\s\S]*isError: true\n$/);
    const moved = await cli([listener.url, 'move_arm', '{"z":0.5}', '--header', `Authorization: Bearer ${TOKENS.mover}`]);
    assert.equal(moved.code, 0, moved.stdout + moved.stderr);
    assert.match(moved.stdout, /\[text\] moved to z=0.5/);
  });

  it('a JSON-RPC error exits 3 with code, status and message', async () => {
    const { code, stdout } = await cli([listener.url, 'no_such_tool', '{}', '--json']);
    assert.equal(code, 3);
    const doc = JSON.parse(stdout) as { error: Record<string, unknown>; stages: { stage: string; status: string }[] };
    assert.equal(doc.error.kind, 'rpc');
    assert.equal(doc.error.code, -32602);
    assert.equal(doc.error.httpStatus, 200);
    assert.deepEqual(doc.stages.map((s) => `${s.stage}:${s.status}`), ['repair:skipped', 'request:failed', 'validation:skipped']);
  });

  it('a rate-limited call names the JSON-RPC code and the HTTP status once, in the Error heading', async () => {
    // A fixed clock: the bucket never refills, so the retry time in the message is exact.
    const limited = createServer({
      name: 'limited', version: '1.0.0', clock: { now: () => 1_800_000_000_000 },
      tools: [defineTool({ name: 'ping', description: 'Answer pong. Use to check the server answers.', inputSchema: { type: 'object', additionalProperties: false } as const, use: [rateLimit({ capacity: 1, refillPerSecond: 1 })], run: () => 'pong' })],
    });
    const at = await limited.listen({ port: 0 });
    try {
      assert.equal((await cli([at.url, 'ping'])).code, 0);
      const { code, stdout } = await cli([at.url, 'ping']);
      assert.equal(code, 3);
      const message = 'tools/call failed: Rate limited: tool ping for anonymous callers allows a burst of 1 call, then 1 per second; retry in 1000 ms';
      assert.match(stdout, new RegExp(`\\n {2}request {5}failed {3}${message.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\n`));
      assert.ok(stdout.includes(`\nError (rpc -31429, HTTP 429): ${message}\n  data: {"retryAfterMs":1000}\n`), stdout);
      assert.equal(stdout.match(/-31429/g)?.length, 1, stdout);
      assert.equal(stdout.match(/HTTP 429/g)?.length, 1, stdout);
    } finally {
      await limited.close();
    }
  });

  it('structuredContent breaking the outputSchema fails the validation stage, exit 3', async () => {
    const { code, stdout } = await cli([scripted.url, 'measure']);
    assert.equal(code, 3);
    assert.match(stdout, /\n {2}validation {2}failed {3}tool "measure" returned structuredContent that breaks its outputSchema: /);
    assert.match(stdout, /\nError \(output_invalid\): /);
  });

  it('runs a server module over stdio', async () => {
    const { code, stdout } = await cli(['test/fixtures/servers/everything.ts', 'calculate_sum', '{"a":20,"b":22}']);
    assert.equal(code, 0);
    assert.match(stdout, /request {5}ok {7}answered in \d+ ms over stdio\n/);
    assert.match(stdout, /\[text\] 42\n/);
  });

  it('bad usage exits 2 with a specific message and sends nothing', async () => {
    const cases: [string[], string][] = [
      [[listener.url, 'calculate_sum', '{a:1}'], /^toolwright call: the arguments are not valid JSON: .* \(use --repair <provider> to accept model-style arguments\)\n$/.source],
      [[listener.url, 'calculate_sum', '[1]'], '^toolwright call: the arguments must be a JSON object, got an array\\n$'],
      [[listener.url, 'calculate_sum', '{}', '--repair', 'mistral'], '^toolwright call: --repair must be one of openai-chat, openai-responses, anthropic, gemini, gemini-legacy \\(got "mistral"\\)\\n$'],
      [[listener.url], '^toolwright call: missing <tool>\\n$'],
      [['server.py', 'x'], '^toolwright call: server.py: expected an http\\(s\\) URL, a server module \\(.js/.ts\\) or --stdio "<command>"\\n$'],
      [[listener.url, 'x', '{}', '--timeout', 'soon'], '^toolwright call: --timeout must be a positive integer \\(milliseconds\\), got "soon"\\n$'],
    ];
    for (const [args, pattern] of cases) {
      const { code, stderr, stdout } = await cli(args);
      assert.equal(code, 2, args.join(' '));
      assert.match(stderr, new RegExp(pattern), args.join(' '));
      assert.equal(stdout, '');
    }
  });
});
