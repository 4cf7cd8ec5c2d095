/**
 * The search surface (`createServer({ search })`, docs/compose.md "Large catalogs: search") over real
 * HTTP on 127.0.0.1 with the project's client: tools/list shows two tools; search_tools finds
 * ranked full definitions in the caller's view; call_tool runs the named tool through the whole
 * pipeline exactly as a direct call (same errors, approval bound to the inner name and arguments,
 * audit naming the inner tool, rate limit); hidden tools are never found nor called; bad input
 * gets a specific error each.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect, McpClientError } from '../../src/client/index.js';
import type { McpClient } from '../../src/client/index.js';
import { auditChainFiles, auditLog, createServer, defineTool, rateLimit, verifyHashChainLog, visibleWhen } from '../../src/index.js';
import type { AuditEntry, AuthInfo, HttpListener, McpServer, SearchAnswer } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'tw-search-'));
const auditPath = join(dir, 'audit.jsonl');
const runs: string[] = [];

const openIssue = defineTool({
  name: 'issues_create', description: 'Create an issue in a repository, with a title and a body.',
  inputSchema: { type: 'object', properties: { repo: { type: 'string', description: 'The repository name' }, title: { type: 'string', minLength: 1 }, body: { type: 'string' } }, required: ['repo', 'title'], additionalProperties: false },
  run: ({ repo, title }) => { runs.push(`issue:${repo}:${title}`); return `opened "${title}" in ${repo}`; },
});
const listPulls = defineTool({
  name: 'pulls_list', description: 'List the pull requests of a repository.',
  inputSchema: { type: 'object', properties: { repo: { type: 'string' }, state: { type: 'string', enum: ['open', 'closed'], description: 'open or closed pull requests' } }, required: ['repo'] },
  run: ({ repo }) => `pulls of ${repo}`,
});
const deleteRepo = defineTool({
  name: 'repos_delete', description: 'Delete a repository for good.',
  inputSchema: { type: 'object', properties: { repo: { type: 'string' } }, required: ['repo'], additionalProperties: false },
  annotations: { destructiveHint: true },
  approval: ({ repo }) => ({ message: `Delete ${repo}?` }),
  run: ({ repo }) => { runs.push(`delete:${repo}`); return `deleted ${repo}`; },
});
// Seen only by callers holding "admin": never found nor callable by others.
const wipeOrg = defineTool({
  name: 'orgs_wipe_everything', description: 'Delete every repository of an organization (admin only).',
  inputSchema: { type: 'object', properties: { org: { type: 'string' } }, required: ['org'] },
  visibleTo: visibleWhen({ scopes: ['admin'] }),
  run: ({ org }) => { runs.push(`wipe:${org}`); return `wiped ${org}`; },
});
const huge = defineTool({
  name: 'reports_huge', description: `A report whose definition is large: ${'quarterly revenue figures per region '.repeat(60)}`,
  inputSchema: { type: 'object', properties: { year: { type: 'integer' } } },
  run: () => 'report',
});

const CALLERS: Record<string, AuthInfo> = {
  admin: { subject: 'admin', clientId: 'c', scopes: ['admin', 'toolwright:approve'] },
  user: { subject: 'user', clientId: 'c', scopes: ['toolwright:approve'] },
};
const ELICIT = { elicitation: {} };

let server: McpServer;
let listener: HttpListener;
let direct: McpServer;
let directListener: HttpListener;
const clients: McpClient[] = [];

function client(url: string, who: string): McpClient {
  const made = connect({ url, headers: { authorization: `Bearer ${who}` } }, { onWarning: () => {}, capabilities: ELICIT });
  clients.push(made);
  return made;
}
const text = (result: { content: readonly { type: string; text?: string }[] }): string => result.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
const answerOf = (result: { content: readonly { type: string; text?: string }[] }): SearchAnswer => JSON.parse(text(result)) as SearchAnswer;

/** The JSON-RPC error a call ends in, as the client reports it. */
async function rpcFailure(call: Promise<unknown>): Promise<{ code: number | undefined; message: string | undefined }> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof McpClientError, String(error));
    assert.equal(error.kind, 'rpc', error.message);
    return { code: error.code, message: error.serverMessage };
  }
  assert.fail('expected a JSON-RPC error');
}

function auditRecords(): AuditEntry[] {
  const verdict = verifyHashChainLog(auditPath, auditChainFiles(auditPath));
  assert.ok(verdict.ok, verdict.problems.join('\n'));
  return verdict.records.filter((record) => record.type === 'tool_call') as AuditEntry[];
}

describe('search surface over HTTP', () => {
  before(async () => {
    const options = {
      name: 'search', version: '1.0.0', tools: [openIssue, listPulls, deleteRepo, wipeOrg, huge],
      authorize: ({ bearerToken }: { bearerToken?: string | undefined }) => (bearerToken === undefined ? null : CALLERS[bearerToken] ?? null),
    };
    server = createServer({ ...options, search: { budgetTokens: 600, maxBudgetTokens: 5000 }, use: [auditLog({ path: auditPath, fsync: 'never', includeArguments: true }), rateLimit({ capacity: 3, refillPerSecond: 0.001, appliesTo: (tool) => tool === 'pulls_list' })] });
    listener = await server.listen({ port: 0, host: '127.0.0.1' });
    direct = createServer(options);
    directListener = await direct.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await listener.close();
    await directListener.close();
    await server.close();
    await direct.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tools/list shows search_tools and call_tool instead of the catalog', async () => {
    const listing = await client(listener.url, 'user').listTools();
    assert.deepEqual(listing.tools.map((t) => t.name), ['search_tools', 'call_tool']);
    assert.deepEqual((listing.tools[0]!.inputSchema as { required: string[] }).required, ['query']);
    assert.deepEqual((listing.tools[1]!.inputSchema as { required: string[] }).required, ['name']);
    assert.equal(server.tools.length, 5, 'McpServer.tools is still the whole catalog');
  });

  it('search_tools returns ranked full definitions, exactly as a full tools/list shows them', async () => {
    const answer = answerOf(await client(listener.url, 'user').callTool('search_tools', { query: 'open an issue in my repository' }));
    assert.equal(answer.tools[0]!.name, 'issues_create');
    const full = (await client(directListener.url, 'user').listTools()).tools.find((t) => t.name === 'issues_create');
    assert.deepEqual(answer.tools[0], full);
    assert.equal(answer.budgetTokens, 600);
    assert.ok(answer.tokens <= 600);
    const pulls = answerOf(await client(listener.url, 'user').callTool('search_tools', { query: 'which pull requests are open', limit: 1 }));
    assert.deepEqual(pulls.tools.map((t) => t.name), ['pulls_list'], 'found by a parameter description too; limit respected');
  });

  it('a tool hidden from the caller is never found, and call_tool answers as for an unknown name', async () => {
    const user = client(listener.url, 'user');
    const admin = client(listener.url, 'admin');
    const query = { query: 'delete every repository of an organization', limit: 20 };
    assert.ok(!answerOf(await user.callTool('search_tools', query)).tools.some((t) => t.name === 'orgs_wipe_everything'));
    assert.equal(answerOf(await admin.callTool('search_tools', query)).tools[0]!.name, 'orgs_wipe_everything');
    const hidden = await rpcFailure(user.callTool('call_tool', { name: 'orgs_wipe_everything', arguments: { org: 'acme' } }));
    const unknown = await rpcFailure(user.callTool('call_tool', { name: 'no_such_tool', arguments: { org: 'acme' } }));
    assert.deepEqual(hidden, { code: -32602, message: 'Unknown tool: orgs_wipe_everything' });
    assert.deepEqual(unknown, { code: -32602, message: 'Unknown tool: no_such_tool' });
    assert.deepEqual(await rpcFailure(client(directListener.url, 'user').callTool('orgs_wipe_everything', { org: 'acme' })), hidden, 'the same as a direct call');
    assert.equal(text(await admin.callTool('call_tool', { name: 'orgs_wipe_everything', arguments: { org: 'acme' } })), 'wiped acme');
    assert.deepEqual(runs.filter((r) => r.startsWith('wipe:')), ['wipe:acme']);
  });

  it('call_tool runs the tool; its validation errors are those of a direct call', async () => {
    const user = client(listener.url, 'user');
    const viaDirect = client(directListener.url, 'user');
    assert.equal(text(await user.callTool('call_tool', { name: 'issues_create', arguments: { repo: 'tw', title: 'broken login' } })), 'opened "broken login" in tw');
    const bad = { repo: 'tw', title: '', extra: 1 };
    const wrapped = await user.callTool('call_tool', { name: 'issues_create', arguments: bad });
    const plain = await viaDirect.callTool('issues_create', bad);
    assert.equal(wrapped.isError, true);
    assert.equal(text(wrapped), text(plain));
    assert.match(text(wrapped), /^Invalid arguments for tool issues_create:/);
    // arguments that are not an object: the same JSON-RPC error as a direct call.
    const notObject = await rpcFailure(user.request('tools/call', { name: 'call_tool', arguments: { name: 'issues_create', arguments: 'x' } }));
    assert.deepEqual(notObject, await rpcFailure(viaDirect.request('tools/call', { name: 'issues_create', arguments: 'x' })));
    assert.deepEqual(notObject, { code: -32602, message: 'Invalid params: arguments must be an object, got string' });
  });

  it('approval is bound to the inner tool name and arguments, and the audit record names the inner tool', async () => {
    const user = client(listener.url, 'user');
    const asked: string[] = [];
    const result = await user.callTool('call_tool', { name: 'repos_delete', arguments: { repo: 'old' } }, {
      onInputRequired: (requests) => {
        for (const request of Object.values(requests)) asked.push(String((request.params as { message?: unknown }).message));
        return Object.fromEntries(Object.keys(requests).map((key) => [key, { action: 'accept', content: { approve: true } }]));
      },
    });
    assert.equal(text(result), 'deleted old');
    assert.deepEqual(asked, ['Delete old?']);
    // An approval asked through call_tool for one repository does not run another, nor another tool.
    const ask = await user.request('tools/call', { name: 'call_tool', arguments: { name: 'repos_delete', arguments: { repo: 'a' } } });
    assert.equal(ask.resultType, 'input_required');
    const retry = (inner: Record<string, unknown>) => user.request('tools/call', {
      name: 'call_tool', arguments: inner, requestState: ask.requestState as string,
      inputResponses: Object.fromEntries(Object.keys(ask.inputRequests as object).map((key) => [key, { action: 'accept', content: { approve: true } }])),
    });
    const other = await rpcFailure(retry({ name: 'repos_delete', arguments: { repo: 'b' } }));
    assert.equal(other.code, -32602);
    assert.match(other.message ?? '', /requestState/i);
    assert.deepEqual(await rpcFailure(retry({ name: 'issues_create', arguments: { repo: 'a', title: 't' } })), other);
    // The same approval answered directly (not through call_tool) is the same call: it runs once.
    const directly = await user.request('tools/call', { name: 'repos_delete', arguments: { repo: 'a' }, requestState: ask.requestState as string,
      inputResponses: Object.fromEntries(Object.keys(ask.inputRequests as object).map((key) => [key, { action: 'accept', content: { approve: true } }])) });
    assert.equal(text(directly as never), 'deleted a');
    assert.deepEqual(runs.filter((r) => r.startsWith('delete:')), ['delete:old', 'delete:a']);
    const records = auditRecords();
    // Each round (asked, refused, approved) is a record naming the inner tool with the inner arguments.
    const deleted = records.filter((r) => r.tool === 'repos_delete');
    assert.deepEqual([...new Set(deleted.map((r) => JSON.stringify(r.arguments)))], ['{"repo":"old"}', '{"repo":"a"}', '{"repo":"b"}']);
    assert.ok(!records.some((r) => r.tool === 'call_tool'), 'no record names call_tool');
  });

  it('the inner tool\'s rate limit applies through call_tool and to direct calls alike', async () => {
    const user = client(listener.url, 'user');
    for (let i = 0; i < 3; i++) assert.equal(text(await user.callTool('call_tool', { name: 'pulls_list', arguments: { repo: 'tw' } })), 'pulls of tw');
    const limited = await rpcFailure(user.callTool('call_tool', { name: 'pulls_list', arguments: { repo: 'tw' } }));
    assert.equal(limited.code, -31429);
  });

  it('bad input gets a specific error each', async () => {
    const user = client(listener.url, 'user');
    const missing = await user.callTool('search_tools', {});
    assert.equal(missing.isError, true);
    assert.match(text(missing), /^Invalid arguments for tool search_tools:[\s\S]*query/);
    const empty = await user.callTool('search_tools', { query: '' });
    assert.match(text(empty), /^Invalid arguments for tool search_tools:[\s\S]*(minLength|at least 1)/);
    const blank = await user.callTool('search_tools', { query: '   ' });
    assert.match(text(blank), /^Invalid arguments for tool search_tools:\n\/query: expected string matching/);
    const long = await user.callTool('search_tools', { query: 'x'.repeat(501) });
    assert.match(text(long), /^Invalid arguments for tool search_tools:[\s\S]*(maxLength|at most 500)/);
    const tooMuch = await user.callTool('search_tools', { query: 'issue', budgetTokens: 5001 });
    assert.match(text(tooMuch), /^Invalid arguments for tool search_tools:[\s\S]*budgetTokens/);
    const small = await user.callTool('search_tools', { query: 'quarterly revenue report', budgetTokens: 5 });
    assert.equal(small.isError, true);
    assert.match(text(small), /^search_tools: no matching definition fits in 5 tokens \(the best match, reports_huge, takes \d+; the smallest of the first 1, \d+\)/);
    const nothing = answerOf(await user.callTool('search_tools', { query: 'zzzqqq' }));
    assert.deepEqual(nothing.tools, [], 'no match is an empty answer, not an error');
    assert.deepEqual(await rpcFailure(user.request('tools/call', { name: 'call_tool' })), { code: -32602, message: 'Invalid params: call_tool needs arguments {"name": <tool name>, "arguments": {...}}' });
    assert.deepEqual(await rpcFailure(user.request('tools/call', { name: 'call_tool', arguments: 7 })), { code: -32602, message: 'Invalid params: arguments must be an object, got number' });
    assert.deepEqual(await rpcFailure(user.callTool('call_tool', { arguments: {} })), { code: -32602, message: 'Invalid params: call_tool needs a string "name" (the tool to run), got undefined' });
    assert.deepEqual(await rpcFailure(user.callTool('call_tool', { name: 'pulls_list', args: {} })), { code: -32602, message: 'Invalid params: call_tool takes "name" and "arguments" only, got "args"' });
    assert.deepEqual(await rpcFailure(user.callTool('call_tool', { name: 'search_tools', arguments: { query: 'x' } })), { code: -32602, message: 'Unknown tool: search_tools' }, 'call_tool runs catalog tools only');
    assert.deepEqual(await rpcFailure(user.callTool('call_tool', { name: 'call_tool', arguments: { name: 'pulls_list' } })), { code: -32602, message: 'Unknown tool: call_tool' });
  });

  it('a 2025 client (initialize, session) sees the same two tools and calls through call_tool', async () => {
    const legacy = connect({ url: listener.url, headers: { authorization: 'Bearer user' } }, { onWarning: () => {}, era: 'legacy' });
    clients.push(legacy);
    assert.deepEqual((await legacy.listTools()).tools.map((t) => t.name), ['search_tools', 'call_tool']);
    assert.equal(answerOf(await legacy.callTool('search_tools', { query: 'create an issue' })).tools[0]!.name, 'issues_create');
    assert.equal(text(await legacy.callTool('call_tool', { name: 'issues_create', arguments: { repo: 'tw', title: 'from 2025' } })), 'opened "from 2025" in tw');
    assert.deepEqual(await rpcFailure(legacy.callTool('call_tool', { name: 'orgs_wipe_everything', arguments: { org: 'x' } })), { code: -32602, message: 'Unknown tool: orgs_wipe_everything' });
  });

  it('refuses bad search options and a catalog tool named like the surface at start', () => {
    const tools = [openIssue];
    assert.throws(() => createServer({ name: 's', version: '1', tools, search: { budgetTokens: 0 } }), /search\.budgetTokens must be a positive integer, got 0/);
    assert.throws(() => createServer({ name: 's', version: '1', tools, search: { budgetTokens: 100, maxBudgetTokens: 50 } }), /search\.budgetTokens \(100\) is larger than search\.maxBudgetTokens \(50\)/);
    assert.throws(() => createServer({ name: 's', version: '1', tools, search: { results: 30, maxResults: 10 } }), /search\.results \(30\) is larger than search\.maxResults \(10\)/);
    assert.throws(() => createServer({ name: 's', version: '1', tools, search: { budget: 1 } as never }), /search has unknown option "budget"/);
    const clash = defineTool({ name: 'call_tool', inputSchema: { type: 'object' }, run: () => 'x' });
    assert.throws(() => createServer({ name: 's', version: '1', tools: [clash], search: true }), /search: the catalog has a tool named "call_tool"/);
  });
});
