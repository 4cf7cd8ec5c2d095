/**
 * Tool transforms, each over real HTTP on loopback with the project's client: what is listed is the
 * transformed definition, calls are translated back exactly (a hidden argument's fixed value reaches
 * the handler and the audit record), and every bad transform is refused with its own message.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { auditLog, createMemoryStore, createServer, defineTool } from '../../src/index.js';
import type { McpServer, Tool } from '../../src/index.js';
import { connect } from '../../src/client/index.js';
import {
  defaultArgument, describe as redescribe, filterTools, hideArgument, narrowArgument, rename, requireApproval, transformTools, TransformError,
} from '../../src/compose/index.js';
import type { ToolTransform } from '../../src/compose/index.js';

const calls: unknown[] = [];
const search = defineTool({
  name: 'search', description: 'Search the archive.', annotations: { readOnlyHint: true }, _meta: { tags: ['read'] },
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 100 }, account: { type: 'string' }, sort: { enum: ['new', 'old', 'best'] } },
    required: ['query', 'account'], additionalProperties: false,
  },
  run: (args) => { calls.push(args); return JSON.stringify(args); },
});
const wipe = defineTool({ name: 'wipe', annotations: { destructiveHint: true }, _meta: { tags: ['admin'] }, inputSchema: { type: 'object' }, run: () => { calls.push('wipe'); return 'wiped'; } });
const note = defineTool({ name: 'note', annotations: { readOnlyHint: false, destructiveHint: false }, inputSchema: { type: 'object' }, run: () => 'noted' });

const servers: McpServer[] = [];
after(async () => { for (const s of servers) await s.close(); });

/** Serves `tools` on loopback and returns a connected client. */
async function serve(tools: Tool[], extra: { use?: Parameters<typeof createServer>[0]['use'] } = {}) {
  const server = createServer({ name: 't', version: '1', tools, store: createMemoryStore(), ...extra });
  servers.push(server);
  const listener = await server.listen({ port: 0 });
  const client = connect(listener.url, { onWarning: () => {}, capabilities: { elicitation: { form: {} } } });
  return { server, client, close: async () => { await client.close(); await listener.close(); } };
}

describe('transforms change what is listed and translate calls back exactly', () => {
  it('rename and describe: the new name and text are listed, the old name is unknown, the same handler runs', async () => {
    const { client, close } = await serve(transformTools([search], [rename('search', 'find'), redescribe('find', { description: 'Find documents.', title: 'Find' })]));
    try {
      const [tool] = (await client.listTools()).tools;
      assert.equal(tool!.name, 'find');
      assert.equal(tool!.description, 'Find documents.');
      assert.equal(tool!.title, 'Find');
      calls.length = 0;
      await client.callTool('find', { query: 'q', account: 'a' });
      assert.deepEqual(calls, [{ query: 'q', account: 'a' }]);
      await assert.rejects(client.callTool('search', { query: 'q', account: 'a' }), /search/);
    } finally {
      await close();
    }
  });

  it('hideArgument: gone from the listing, its fixed value reaches the handler and the audit record', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-transform-'));
    const audit = auditLog({ path: join(dir, 'log', 'calls.jsonl'), key: join(dir, 'k', 'audit.key'), head: join(dir, 'k', 'calls.head'), includeArguments: true });
    const { client, close } = await serve(transformTools([search], [hideArgument('search', 'account', 'acme')]), { use: [audit] });
    try {
      const [tool] = (await client.listTools()).tools;
      const schema = tool!.inputSchema as { properties: Record<string, unknown>; required: string[] };
      assert.deepEqual(Object.keys(schema.properties), ['query', 'limit', 'sort']);
      assert.deepEqual(schema.required, ['query']);
      calls.length = 0;
      await client.callTool('search', { query: 'q' });
      assert.deepEqual(calls, [{ query: 'q', account: 'acme' }]);
      const refused = await client.callTool('search', { query: 'q', account: 'evil' }).then((r) => r, (e: unknown) => e);
      assert.equal((refused as { isError?: boolean }).isError, true, 'the caller cannot send the hidden argument');
      assert.equal(calls.length, 1, 'nothing ran for the refused call');
      const records = readFileSync(join(dir, 'log', 'calls.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.type === 'tool_call');
      assert.deepEqual(records[0]!.arguments, { query: 'q' });
      assert.deepEqual(records[0]!.fixed_arguments, { account: 'acme' });
    } finally {
      await close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('defaultArgument: listed optional with its default, filled in only when left out', async () => {
    const { client, close } = await serve(transformTools([search], [defaultArgument('search', 'account', 'acme')]));
    try {
      const schema = (await client.listTools()).tools[0]!.inputSchema as { properties: Record<string, { default?: unknown }>; required: string[] };
      assert.equal(schema.properties.account!.default, 'acme');
      assert.deepEqual(schema.required, ['query']);
      calls.length = 0;
      await client.callTool('search', { query: 'q' });
      await client.callTool('search', { query: 'q', account: 'other' });
      assert.deepEqual(calls, [{ account: 'acme', query: 'q' }, { account: 'other', query: 'q' }]);
    } finally {
      await close();
    }
  });

  it('narrowArgument: the narrower schema is listed and enforced by the server, nothing runs beyond it', async () => {
    const { client, close } = await serve(transformTools([search], [narrowArgument('search', 'limit', { maximum: 10 }), narrowArgument('search', 'sort', { enum: ['new', 'best'] })]));
    try {
      const schema = (await client.listTools()).tools[0]!.inputSchema as { properties: Record<string, Record<string, unknown>> };
      assert.deepEqual(schema.properties.limit, { type: 'integer', minimum: 1, maximum: 10 });
      assert.deepEqual(schema.properties.sort, { enum: ['new', 'best'] });
      calls.length = 0;
      const tooMany = await client.callTool('search', { query: 'q', account: 'a', limit: 11 }).then((r) => r, (e: unknown) => e);
      assert.match(JSON.stringify(tooMany), /expected number <= 10, got number 11/);
      assert.deepEqual(calls, []);
      await client.callTool('search', { query: 'q', account: 'a', limit: 10, sort: 'best' });
      assert.deepEqual(calls, [{ query: 'q', account: 'a', limit: 10, sort: 'best' }]);
    } finally {
      await close();
    }
  });

  it('filterTools by tag and by annotation hints (MCP defaults for missing hints)', () => {
    const names = (transforms: ToolTransform[]) => transformTools([search, wipe, note], transforms).map((t) => t.name);
    assert.deepEqual(names([filterTools({ readOnlyHint: true })]), ['search']);
    assert.deepEqual(names([filterTools({ destructiveHint: false })]), ['search', 'note'], 'a read-only tool is never destructive');
    assert.deepEqual(names([filterTools({ tags: ['admin', 'nothing'] })]), ['wipe']);
    assert.deepEqual(names([filterTools({ tags: ['read'], readOnlyHint: false })]), []);
  });

  it('requireApproval: the call is held for the operator; declined nothing runs, approved the same handler runs', async () => {
    const { server, client, close } = await serve(transformTools([wipe], [requireApproval('wipe', { message: 'Wipe everything?', approver: 'operator' })]));
    try {
      calls.length = 0;
      const decideNext = (approve: boolean) => new Promise<void>((resolve) => {
        const stop = server.approvals.subscribe(() => {
          const [held] = server.approvals.pending();
          if (held === undefined) return;
          stop();
          assert.equal(held.summary, 'Wipe everything?');
          void server.approvals.decide(held.id, { approve, operator: 'op', digest: held.digest }).then(() => resolve());
        });
      });
      const [declined] = await Promise.all([client.callTool('wipe', {}), decideNext(false)]);
      assert.equal(declined.isError, true);
      assert.deepEqual(calls, []);
      const [approved] = await Promise.all([client.callTool('wipe', {}), decideNext(true)]);
      assert.deepEqual(approved.content, [{ type: 'text', text: 'wiped' }]);
      assert.deepEqual(calls, ['wipe']);
    } finally {
      await close();
    }
  });

  it('the transformed definition is what a server checks: a rename breaking the name rule fails createServer', () => {
    assert.throws(() => createServer({ name: 't', version: '1', tools: transformTools([note], [rename('note', 'bad name')]) }), /tool "bad name": name may only use/);
  });
});

describe('bad transforms are refused when the list is built', () => {
  const refused = (transforms: ToolTransform[], message: string) => assert.throws(() => transformTools([search, wipe], transforms), (e: unknown) => e instanceof TransformError && e.message === message);
  it('unknown tool, unknown argument, rename collision', () => {
    refused([rename('nope', 'x')], 'transform 0 (rename of "nope"): unknown tool (tools: search, wipe)');
    refused([rename('search', 'find'), redescribe('search', { description: 'x' })], 'transform 1 (describe of "search"): unknown tool (tools: find, wipe)');
    refused([hideArgument('search', 'acount', 'a')], 'transform 0 (hide-argument of "search"): unknown argument "acount" (arguments: query, limit, account, sort)');
    refused([rename('search', 'wipe')], 'transform 0 (rename of "search"): "wipe" is already the name of another tool');
  });
  it('narrowings that are not narrowings, or cannot be checked', () => {
    refused([narrowArgument('search', 'limit', { maximum: 1000 })], 'transform 0 (narrow-argument of "search"): not a narrowing of "limit": "maximum": 1000 is not narrower than 100');
    refused([narrowArgument('search', 'limit', { type: 'string' })], 'transform 0 (narrow-argument of "search"): not a narrowing of "limit": "type": "string" is not narrower than "integer"');
    refused([narrowArgument('search', 'sort', { enum: ['new', 'worst'] })], 'transform 0 (narrow-argument of "search"): not a narrowing of "sort": "worst" is not accepted by the original schema (/: expected one of ["new","old","best"], got string "worst")');
    refused([narrowArgument('search', 'query', { anyOf: [{ minLength: 1 }] })], 'transform 0 (narrow-argument of "search"): not a narrowing of "query": "anyOf" cannot be checked to narrow the schema (narrowable: minimum, exclusiveMinimum, minLength, minItems, maximum, exclusiveMaximum, maxLength, maxItems, type, enum, const, pattern, format, multipleOf, uniqueItems, not)');
  });
  it('a fixed or default value the argument refuses', () => {
    refused([hideArgument('search', 'limit', 0)], 'transform 0 (hide-argument of "search"): 0 is not a valid value of "limit": /: expected number >= 1, got number 0');
    refused([defaultArgument('search', 'sort', 'random')], 'transform 0 (default-argument of "search"): "random" is not a valid value of "sort": /: expected one of ["new","old","best"], got string "random"');
  });
});
