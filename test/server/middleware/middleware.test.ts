/** The middleware onion around tools/call, over real HTTP: order, what each layer sees, refusals, faults. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createServer, defineTool, refuse } from '../../../src/index.js';
import type { Middleware, ServerOptions, StageEvent } from '../../../src/index.js';
import { META, post, rpc } from '../../fixtures/servers/raw-http.js';

const COUNT = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false } as const;

async function serve(options: Partial<ServerOptions>, run: (url: string) => Promise<void>): Promise<void> {
  const server = createServer({ name: 'mw', version: '1', tools: [], ...options });
  const listener = await server.listen({ port: 0 });
  try {
    await run(listener.url);
  } finally {
    await server.close();
  }
}
const call = (name: string, args: unknown) => rpc('tools/call', { name, arguments: args }, 1, META);

describe('middleware', () => {
  it('wraps in order (server-wide outside the tool\'s own); sees raw arguments before next() and validated ones + ctx after', async () => {
    const seen: string[] = [];
    const runs: unknown[] = [];
    const tracer = (label: string): Middleware => ({
      name: label,
      async handle(c, next) {
        seen.push(`${label}>${JSON.stringify(c.arguments)} ctx=${c.ctx !== undefined}`);
        const outcome = await next();
        seen.push(`${label}<${outcome.kind} ctx=${c.ctx?.toolName ?? 'none'}`);
        return outcome;
      },
    });
    const tool = defineTool({ name: 'count', inputSchema: COUNT, use: [tracer('own')], run: ({ n }) => { runs.push(n); return `n=${n}`; } });
    await serve({ tools: [tool], use: [tracer('server')] }, async (url) => {
      const res = await post(url, call('count', { n: 2 }));
      assert.deepEqual((res.body?.result as { content: unknown }).content, [{ type: 'text', text: 'n=2' }]);
    });
    assert.deepEqual(seen, ['server>{"n":2} ctx=false', 'own>{"n":2} ctx=false', 'own<result ctx=count', 'server<result ctx=count']);
    assert.deepEqual(runs, [2]);
  });

  it('sees refusals of later stages (shape) as the final outcome, and reports one stage event per middleware', async () => {
    const outcomes: string[] = [];
    const events: StageEvent[] = [];
    const audit: Middleware = { name: 'observer', async handle(_c, next) { const o = await next(); outcomes.push(o.kind === 'result' ? o.outcome : o.kind); return o; } };
    const tool = defineTool({ name: 'count', inputSchema: COUNT, run: () => 'ran' });
    await serve({ tools: [tool], use: [audit], onStageEvent: (e) => events.push(e) }, async (url) => {
      const res = await post(url, call('count', { n: 'x' }));
      assert.equal((res.body?.result as { isError: boolean }).isError, true);
    });
    assert.deepEqual(outcomes, ['tool-error']);
    assert.deepEqual(events.map((e) => `${e.stage}:${e.outcome}`).slice(-3), ['request-state:pass', 'shape:tool-error', 'middleware:observer:pass']);
  });

  it('refuses with a result or an OUTCOMES error without calling next(): nothing runs', async () => {
    const runs: string[] = [];
    const byResult: Middleware = { name: 'no-results', handle: () => refuse.result('closed for maintenance') };
    const byError: Middleware = { name: 'no-errors', handle: () => refuse.error('rateLimited', 'Rate limited: slow down', { data: { retryAfterMs: 5 } }) };
    const a = defineTool({ name: 'a', inputSchema: { type: 'object' }, use: [byResult], run: () => { runs.push('a'); return 'a'; } });
    const b = defineTool({ name: 'b', inputSchema: { type: 'object' }, use: [byError], run: () => { runs.push('b'); return 'b'; } });
    await serve({ tools: [a, b] }, async (url) => {
      const ra = await post(url, call('a', {}));
      assert.deepEqual(ra.body?.result, { resultType: 'complete', content: [{ type: 'text', text: 'closed for maintenance' }], isError: true, _meta: (ra.body?.result as { _meta: unknown })._meta });
      const rb = await post(url, call('b', {}));
      assert.equal(rb.status, 429);
      assert.deepEqual(rb.body?.error, { code: -31429, message: 'Rate limited: slow down', data: { retryAfterMs: 5 } });
    });
    assert.deepEqual(runs, []);
  });

  it('can repair raw arguments before the shape check, and add _meta notes and event details', async () => {
    const events: StageEvent[] = [];
    const fix: Middleware = {
      name: 'fix',
      handle(c, next) {
        c.arguments = { ...c.arguments, n: Number(c.arguments.n) };
        c.note('example/fixed', ['n']);
        c.report('n made a number');
        return next();
      },
    };
    const tool = defineTool({ name: 'count', inputSchema: COUNT, use: [fix], run: ({ n }) => `n=${n + 1}` });
    await serve({ tools: [tool], onStageEvent: (e) => events.push(e) }, async (url) => {
      const result = (await post(url, call('count', { n: '41' }))).body?.result as { content: unknown; _meta: Record<string, unknown> };
      assert.deepEqual(result.content, [{ type: 'text', text: 'n=42' }]);
      assert.deepEqual(result._meta['example/fixed'], ['n']);
      assert.ok('io.modelcontextprotocol/serverInfo' in result._meta);
    });
    assert.equal(events.find((e) => e.stage === 'middleware:fix')?.detail, 'n made a number');
  });

  it('"validated" middleware runs after shape, check and authorize, around approval and execute', async () => {
    const seen: string[] = [];
    const safety: Middleware = { name: 'safety', at: 'validated', handle: (c, next) => { seen.push(`${c.ctx?.toolName}:${JSON.stringify(c.arguments)}`); return c.arguments.n === 13 ? refuse.result('unlucky') : next(); } };
    const tool = defineTool({ name: 'count', inputSchema: COUNT, check: ({ n }) => (n < 0 ? ['n must not be negative'] : []), use: [safety], run: ({ n }) => `n=${n}` });
    await serve({ tools: [tool] }, async (url) => {
      assert.match(((await post(url, call('count', { n: -1 }))).body?.result as { content: { text: string }[] }).content[0]!.text, /must not be negative/);
      assert.deepEqual(((await post(url, call('count', { n: 13 }))).body?.result as { content: unknown }).content, [{ type: 'text', text: 'unlucky' }]);
      assert.deepEqual(((await post(url, call('count', { n: 1 }))).body?.result as { content: unknown }).content, [{ type: 'text', text: 'n=1' }]);
    });
    assert.deepEqual(seen, ['count:{"n":13}', 'count:{"n":1}']);
  });

  it('a throwing middleware, one calling next() twice or returning junk: -32603, details only in the log', async () => {
    const logged: string[] = [];
    const throws: Middleware = { name: 'throws', handle: () => { throw new Error('secret'); } };
    const twice: Middleware = { name: 'twice', async handle(_c, next) { await next(); return next(); } };
    const junk: Middleware = { name: 'junk', handle: () => ({ nope: true }) as never };
    const runs: string[] = [];
    const tools = [throws, twice, junk].map((m) => defineTool({ name: m.name, inputSchema: { type: 'object' }, use: [m], run: () => { runs.push(m.name); return 'ran'; } }));
    await serve({ tools, logger: { error: (message) => logged.push(message) } }, async (url) => {
      for (const name of ['throws', 'twice', 'junk']) {
        const res = await post(url, call(name, {}));
        assert.equal(res.status, 500);
        assert.deepEqual(res.body?.error, { code: -32603, message: 'Internal error' });
      }
    });
    assert.deepEqual(runs, ['twice'], 'only the first next() of "twice" ran the tool');
    assert.deepEqual(logged, ['stage middleware:throws failed', 'stage middleware:twice failed', 'middleware junk returned something that is not a call outcome']);
  });

  it('appliesTo narrows server-wide middleware; bad middleware is refused at definition time', async () => {
    const seen: string[] = [];
    const only: Middleware = { name: 'only-b', appliesTo: (name) => name === 'b', handle: (c, next) => { seen.push(c.tool.name); return next(); } };
    const a = defineTool({ name: 'a', inputSchema: { type: 'object' }, run: () => 'a' });
    const b = defineTool({ name: 'b', inputSchema: { type: 'object' }, run: () => 'b' });
    await serve({ tools: [a, b], use: [only] }, async (url) => {
      await post(url, call('a', {}));
      await post(url, call('b', {}));
    });
    assert.deepEqual(seen, ['b']);
    assert.throws(() => createServer({ name: 's', version: '1', tools: [], use: [{ name: 'x' } as never] }), /createServer: use\[0\] must be a middleware/);
    assert.throws(() => createServer({ name: 's', version: '1', tools: [], use: [{ name: 'x', at: 'later', handle: () => refuse.result('') } as never] }), /has at "later"; use "arguments" or "validated"/);
    assert.throws(() => defineTool({ name: 't', inputSchema: { type: 'object' }, use: [{}] as never, run: () => '' }), /use\[0\] must be a middleware/);
  });
});
