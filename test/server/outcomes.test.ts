/**
 * One test per row of OUTCOMES, end to end over real HTTP on 127.0.0.1, each checking the exact
 * code, status, message and that nothing ran that should not have. The last test proves every row
 * of the table has its test: rows are recorded when their test is defined, not when it passes, so
 * that check neither depends on the order the tests run in nor on whether another row failed, and
 * it holds when run alone (--test-name-pattern).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OUTCOMES } from '../../src/server/outcomes.js';
import type { OutcomeName } from '../../src/server/outcomes.js';
import { compileSchema, formatSchemaErrors } from '../../src/schema/index.js';
import { cancellationLog, createEverythingServer, TOKENS } from '../fixtures/servers/everything.js';
import { META, post, rpc, VERSION } from '../fixtures/servers/raw-http.js';
import { createServer, defineTool } from '../../src/index.js';
import type { HttpListener } from '../../src/index.js';
import { until } from '../support/until.js';

const logged: { message: string; detail?: Record<string, unknown> }[] = [];
const server = createEverythingServer({ logger: { error: (message, detail) => logged.push({ message, detail }) } });
let listener: HttpListener;
let url: string;
const covered = new Set<OutcomeName>();

before(async () => {
  listener = await server.listen({ port: 0 });
  url = listener.url;
});
after(async () => {
  await server.close();
});

function row(name: OutcomeName, fn: () => Promise<void>): void {
  assert.ok(!covered.has(name), `outcome ${name} has two tests`);
  covered.add(name);
  it(`${name}: ${OUTCOMES[name].situation}`, fn);
}

function call(name: string, args?: unknown, extra: Record<string, unknown> = {}, meta: Record<string, unknown> = META): Record<string, unknown> {
  const params: Record<string, unknown> = { name, ...extra };
  if (args !== undefined) params.arguments = args;
  return rpc('tools/call', params, 7, meta);
}

function errorOf(body: Record<string, unknown> | undefined): { code: number; message: string; data?: unknown } {
  assert.ok(body && 'error' in body, `expected a JSON-RPC error, got ${JSON.stringify(body)}`);
  return body.error as { code: number; message: string; data?: unknown };
}

function resultOf(body: Record<string, unknown> | undefined): Record<string, unknown> {
  assert.ok(body && 'result' in body, `expected a result, got ${JSON.stringify(body)}`);
  return body.result as Record<string, unknown>;
}

function textOf(result: Record<string, unknown>): string {
  const content = result.content as { type: string; text: string }[];
  assert.equal(content[0]?.type, 'text');
  return content[0].text;
}

const mover = { authorization: `Bearer ${TOKENS.mover}` };
const withElicitation = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };

describe('outcome table', () => {
  row('parseError', async () => {
    const res = await post(url, '{"jsonrpc":"2.0",', { 'mcp-method': 'tools/list' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { jsonrpc: '2.0', error: { code: -32700, message: errorOf(res.body).message } });
    assert.match(errorOf(res.body).message, /^Parse error: /);
    const empty = await post(url, '', {});
    assert.equal(empty.status, 400);
    assert.equal(errorOf(empty.body).message, 'Parse error: empty message');
  });

  row('invalidRequest', async () => {
    const batch = await post(url, JSON.stringify([rpc('tools/list')]), {});
    assert.equal(batch.status, 400);
    assert.deepEqual(errorOf(batch.body), { code: -32600, message: 'Invalid request: batch arrays are not supported; send one message at a time' });
    const noVersion = await post(url, JSON.stringify({ id: 1, method: 'tools/list' }), {});
    assert.equal(noVersion.status, 400);
    assert.deepEqual(noVersion.body, { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Invalid request: jsonrpc must be "2.0"' } });
    const response = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 3, result: {} }), {});
    assert.deepEqual(errorOf(response.body), { code: -32600, message: 'Invalid request: the server does not accept JSON-RPC responses' });
    const nullId = await post(url, JSON.stringify({ jsonrpc: '2.0', id: null, method: 'tools/list' }), {});
    assert.deepEqual(errorOf(nullId.body), { code: -32600, message: 'Invalid request: id must be a string or an integer, got null' });
  });

  row('notification', async () => {
    const res = await post(url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } });
    assert.equal(res.status, 202);
    assert.equal(res.text, '');
  });

  row('legacyInitialize', async () => {
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } } };
    // Dual era is the default; the refusal is what a server serving 2026-07-28 only answers.
    const modernOnly = createEverythingServer({ eras: 'modern' });
    const modernListener = await modernOnly.listen({ port: 0 });
    const res = await post(modernListener.url, init, { 'mcp-protocol-version': null, 'mcp-method': null }).finally(() => modernOnly.close());
    assert.equal(res.status, 400);
    assert.deepEqual(errorOf(res.body), {
      code: -32022,
      message: 'Unsupported protocol version: 2025-11-25; this server supports 2026-07-28 (no initialize handshake)',
      data: { supported: ['2026-07-28'], requested: '2025-11-25' },
    });
  });

  row('missingMeta', async () => {
    const noMeta = await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    assert.equal(noMeta.status, 400);
    assert.deepEqual(errorOf(noMeta.body), {
      code: -32602,
      message: 'Invalid params: missing params._meta with io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities',
    });
    const noCaps = await post(url, rpc('tools/list', {}, 1, { 'io.modelcontextprotocol/protocolVersion': VERSION }));
    assert.equal(noCaps.status, 400);
    assert.deepEqual(errorOf(noCaps.body), { code: -32602, message: 'Invalid params: missing required _meta field io.modelcontextprotocol/clientCapabilities' });
    const noVersion = await post(url, rpc('tools/list', {}, 1, { 'io.modelcontextprotocol/clientCapabilities': {} }));
    assert.equal(noVersion.status, 400);
    assert.deepEqual(errorOf(noVersion.body), { code: -32602, message: 'Invalid params: missing required _meta field io.modelcontextprotocol/protocolVersion' });
  });

  row('invalidLogLevel', async () => {
    const res = await post(url, rpc('tools/list', {}, 1, { ...META, 'io.modelcontextprotocol/logLevel': 'verbose' }));
    assert.equal(res.status, 400);
    assert.equal(errorOf(res.body).code, -32602);
    assert.equal(errorOf(res.body).message, 'Invalid params: unknown io.modelcontextprotocol/logLevel "verbose"; use one of debug, info, notice, warning, error, critical, alert, emergency');
  });

  row('unsupportedVersion', async () => {
    const res = await post(url, rpc('server/discover', {}, 1, { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }), { 'mcp-protocol-version': '2099-01-01' });
    assert.equal(res.status, 400);
    assert.deepEqual(errorOf(res.body), { code: -32022, message: 'Unsupported protocol version: 2099-01-01', data: { supported: ['2026-07-28'], requested: '2099-01-01' } });
    // A 2025 revision claimed per request: the message says how 2025 is spoken instead.
    const legacy = await post(url, rpc('tools/list', {}, 2, { ...META, 'io.modelcontextprotocol/protocolVersion': '2025-06-18' }), { 'mcp-protocol-version': '2025-06-18' });
    assert.equal(legacy.status, 400);
    assert.deepEqual(errorOf(legacy.body), { code: -32022, message: 'Unsupported protocol version: 2025-06-18 in _meta; 2025-06-18 is not claimed per request but negotiated once, with initialize', data: { supported: ['2026-07-28'], requested: '2025-06-18' } });
  });

  row('headerMismatch', async () => {
    const res = await post(url, rpc('tools/list'), { 'MCP-Protocol-Version': '2025-11-25' });
    assert.equal(res.status, 400);
    assert.deepEqual(errorOf(res.body), { code: -32020, message: 'Header mismatch: MCP-Protocol-Version "2025-11-25" differs from _meta protocolVersion "2026-07-28"' });
  });

  row('unauthenticated', async () => {
    const res = await post(url, rpc('tools/list'), { authorization: 'Bearer forged' });
    assert.equal(res.status, 401);
    // A bearer token was given, so the challenge says it was refused (RFC 6750 §3.1).
    assert.equal(res.headers.get('www-authenticate'), 'Bearer error="invalid_token", error_description="the token was refused", resource_metadata="https://auth.example.test/.well-known/oauth-protected-resource/mcp"');
    assert.deepEqual(errorOf(res.body), { code: -31401, message: 'Unauthorized: a valid bearer token is required' });
  });

  row('methodNotFound', async () => {
    for (const method of ['ping', 'logging/setLevel', 'resources/subscribe', 'no/such']) {
      const res = await post(url, rpc(method));
      assert.equal(res.status, 404, method);
      assert.deepEqual(res.body, { jsonrpc: '2.0', id: 1, error: { code: -32601, message: `Method not found: ${method}` } });
    }
  });

  row('invalidCursor', async () => {
    for (const cursor of ['garbage', '', 42]) {
      const res = await post(url, rpc('tools/list', { cursor }));
      assert.equal(res.status, 200);
      assert.deepEqual(errorOf(res.body), { code: -32602, message: 'Invalid cursor' });
    }
  });

  row('invalidCallParams', async () => {
    const res = await post(url, rpc('tools/call', { name: 42 }), { 'mcp-name': null });
    assert.equal(res.status, 200);
    assert.deepEqual(errorOf(res.body), { code: -32602, message: 'Invalid params: tools/call needs a string "name", got number' });
    const badState = await post(url, call('no_arguments', {}, { requestState: 7 }));
    assert.deepEqual(errorOf(badState.body), { code: -32602, message: 'Invalid params: requestState must be a string, got number' });
    const badResponses = await post(url, call('no_arguments', {}, { inputResponses: [] }));
    assert.deepEqual(errorOf(badResponses.body), { code: -32602, message: 'Invalid params: inputResponses must be an object, got array' });
  });

  row('unknownTool', async () => {
    const res = await post(url, call('invalid_tool_name', {}));
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Unknown tool: invalid_tool_name' } });
  });

  row('argumentsNotObject', async () => {
    for (const [args, type] of [[[1, 2], 'array'], [null, 'null'], ['a=1', 'string'], [3, 'number']] as const) {
      const res = await post(url, call('calculate_sum', args));
      assert.equal(res.status, 200);
      assert.deepEqual(errorOf(res.body), { code: -32602, message: `Invalid params: arguments must be an object, got ${type}` });
    }
  });

  row('argumentsAbsent', async () => {
    const absent = await post(url, call('no_arguments'));
    assert.equal(textOf(resultOf(absent.body)), 'ok');
    const empty = await post(url, call('no_arguments', {}));
    assert.equal(textOf(resultOf(empty.body)), 'ok');
    // Absent is validated as {}: a tool with required properties reports them.
    const sum = await post(url, call('calculate_sum'));
    const result = resultOf(sum.body);
    assert.equal(result.isError, true);
    assert.match(textOf(result), /missing required property "a"/);
  });

  row('missingClientCapability', async () => {
    const res = await post(url, call('needs_sampling', {}));
    assert.equal(res.status, 400);
    assert.deepEqual(errorOf(res.body), {
      code: -32021,
      message: 'Missing required client capability: sampling (tool needs_sampling cannot run without it)',
      data: { requiredCapabilities: { sampling: {} } },
    });
    const ok = await post(url, call('needs_sampling', {}, {}, { ...META, 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } }));
    assert.equal(textOf(resultOf(ok.body)), 'sampled');
  });

  row('invalidArguments', async () => {
    const args = { a: 2, c: 3 };
    const res = await post(url, call('calculate_sum', args));
    assert.equal(res.status, 200);
    const result = resultOf(res.body);
    assert.equal(result.isError, true);
    const expected = formatSchemaErrors(compileSchema(server.tools[0]!.inputSchema).validate(args).errors);
    assert.equal(textOf(result), `Invalid arguments for tool calculate_sum:\n${expected}`);
    assert.match(textOf(result), /"b"/);
    assert.match(textOf(result), /"c"/);
    const wrongType = await post(url, call('calculate_sum', { a: '2', b: 3 }));
    assert.match(textOf(resultOf(wrongType.body)), /\/a: .*integer.*string/);
  });

  row('businessRuleViolation', async () => {
    const res = await post(url, call('move_arm', { z: 0.01 }), mover);
    const result = resultOf(res.body);
    assert.equal(result.isError, true);
    assert.equal(textOf(result), 'Tool move_arm refused the call:\n- /z: z=0.01 m is below the table surface (minimum 0.05 m)');
  });

  row('checkThrew', async () => {
    const res = await post(url, call('flaky_check', {}));
    const result = resultOf(res.body);
    assert.equal(result.isError, true);
    assert.equal(textOf(result), 'Tool flaky_check could not check the arguments: rule service timed out');
  });

  row('insufficientScope', async () => {
    const res = await post(url, call('move_arm', { z: 0.5 }), { authorization: `Bearer ${TOKENS.reader}` });
    assert.equal(res.status, 403);
    assert.equal(
      res.headers.get('www-authenticate'),
      'Bearer error="insufficient_scope", scope="arm:move", resource_metadata="https://auth.example.test/.well-known/oauth-protected-resource/mcp", error_description="Insufficient scope: tool move_arm requires \'arm:move\'"',
    );
    assert.deepEqual(errorOf(res.body), { code: -31403, message: 'Insufficient scope: tool move_arm requires "arm:move"', data: { requiredScopes: ['arm:move'] } });
    const allowed = await post(url, call('move_arm', { z: 0.5 }), mover);
    assert.equal(textOf(resultOf(allowed.body)), 'moved to z=0.5');
  });

  row('approvalRequested', async () => {
    const res = await post(url, call('move_arm', { z: 0.1 }, {}, withElicitation), mover);
    assert.equal(res.status, 200);
    const result = resultOf(res.body);
    assert.equal(result.resultType, 'input_required');
    assert.deepEqual(result.inputRequests, {
      approval: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Move the arm down to z=0.1 m?',
          requestedSchema: {
            type: 'object',
            properties: { approve: { type: 'boolean', title: 'Approve', description: 'Allow move_arm to run with these arguments' } },
            required: ['approve'],
          },
        },
      },
    });
    assert.match(result.requestState as string, /^tw1\./);
    assert.equal('ttlMs' in result, false);
    const approved = await post(url, call('move_arm', { z: 0.1 }, { requestState: result.requestState, inputResponses: { approval: { action: 'accept', content: { approve: true } } } }, withElicitation), mover);
    assert.equal(textOf(resultOf(approved.body)), 'moved to z=0.1');
    // A client that cannot elicit cannot approve.
    const noElicitation = await post(url, call('move_arm', { z: 0.1 }), mover);
    assert.equal(noElicitation.status, 400);
    assert.deepEqual(errorOf(noElicitation.body), {
      code: -32021,
      message: 'Missing required client capability: elicitation (tool move_arm needs human approval)',
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
  });

  row('approvalDeclined', async () => {
    for (const [answer, how] of [
      [{ action: 'decline' }, 'declined'],
      [{ action: 'cancel' }, 'cancelled'],
      [{ action: 'accept', content: { approve: false } }, 'did not approve'],
    ] as const) {
      // Each answer needs its own question: an approval state is single use, whatever the answer.
      const first = resultOf((await post(url, call('move_arm', { z: 0.1 }, {}, withElicitation), mover)).body);
      const res = await post(url, call('move_arm', { z: 0.1 }, { requestState: first.requestState, inputResponses: { approval: answer } }, withElicitation), mover);
      const result = resultOf(res.body);
      assert.equal(result.isError, true);
      assert.equal(textOf(result), `The user ${how} the call of move_arm; it was not executed.`);
    }
  });

  row('invalidRequestState', async () => {
    const ask = async () => resultOf((await post(url, call('move_arm', { z: 0.1 }, {}, withElicitation), mover)).body).requestState as string;
    const field = { field: 'requestState' };
    const state = await ask();
    const accept = { approval: { action: 'accept', content: { approve: true } } };
    const tampered = `${state.slice(0, -2)}${state.endsWith('A') ? 'BB' : 'AA'}`;
    const forged = await post(url, call('move_arm', { z: 0.1 }, { requestState: tampered, inputResponses: accept }, withElicitation), mover);
    assert.deepEqual(errorOf(forged.body), { code: -32602, message: 'Invalid params: requestState failed verification', data: field });
    // The state is bound to the arguments: approving z=0.1 does not approve z=0.06.
    const otherArgs = await post(url, call('move_arm', { z: 0.06 }, { requestState: state, inputResponses: accept }, withElicitation), mover);
    assert.deepEqual(errorOf(otherArgs.body), { code: -32602, message: 'Invalid params: requestState belongs to a different call (tool, arguments, caller or client differ)', data: field });
    const foreign = await post(url, call('move_arm', { z: 0.1 }, { requestState: 'opaque', inputResponses: accept }, withElicitation), mover);
    assert.deepEqual(errorOf(foreign.body), { code: -32602, message: 'Invalid params: requestState was not issued by this server', data: field });
    const malformedAnswer = await post(url, call('move_arm', { z: 0.1 }, { requestState: state, inputResponses: { approval: 'yes' } }, withElicitation), mover);
    assert.deepEqual(errorOf(malformedAnswer.body), { code: -32602, message: 'Invalid params: inputResponses.approval must be an elicitation result with an "action"' });
    // That malformed retry was refused before the claim (right before execute): the approval is still usable, once.
    const approved = await post(url, call('move_arm', { z: 0.1 }, { requestState: state, inputResponses: accept }, withElicitation), mover);
    assert.equal(textOf(resultOf(approved.body)), 'moved to z=0.1');
    const replay = await post(url, call('move_arm', { z: 0.1 }, { requestState: state, inputResponses: accept }, withElicitation), mover);
    assert.deepEqual(errorOf(replay.body), { code: -32602, message: 'Invalid params: requestState was already used; start the call again without it', data: field });
  });

  row('cancelled', async () => {
    const before = { ...cancellationLog };
    const controller = new AbortController();
    const pending = post(url, call('cancellable_wait', {}, {}, { ...META, progressToken: 'w' }), {}, { signal: controller.signal });
    await until(() => cancellationLog.started !== before.started, 'the handler starting');
    controller.abort();
    await assert.rejects(pending, { name: 'AbortError' });
    await until(() => cancellationLog.aborted !== before.aborted, 'the handler seeing the abort', { timeoutMs: 5000 });
    assert.equal(cancellationLog.aborted, before.aborted + 1, 'the handler saw the abort signal');
  });

  row('runThrew', async () => {
    const res = await post(url, call('failing', {}));
    assert.equal(res.status, 200);
    const result = resultOf(res.body);
    assert.deepEqual({ isError: result.isError, content: result.content }, { isError: true, content: [{ type: 'text', text: 'upstream API unavailable' }] });
    assert.doesNotMatch(res.text, /at .*\.ts:\d+/);
  });

  row('invalidRunResult', async () => {
    const res = await post(url, call('bad_result', {}));
    assert.equal(res.status, 500);
    assert.deepEqual(errorOf(res.body), { code: -32603, message: 'Internal error: tool bad_result returned number' });
  });

  row('outputContractBroken', async () => {
    logged.length = 0;
    const res = await post(url, call('broken_output', {}));
    assert.equal(res.status, 500);
    assert.deepEqual(errorOf(res.body), { code: -32603, message: 'Internal error: tool broken_output produced output that breaks its outputSchema' });
    assert.doesNotMatch(res.text, /secret-bad-value/);
    assert.equal(logged.length, 1);
    assert.deepEqual(logged[0]?.detail?.structuredContent, { count: 'secret-bad-value' });
    const omitted = await post(url, call('broken_output', { omit: true }));
    assert.deepEqual(errorOf(omitted.body), { code: -32603, message: 'Internal error: tool broken_output returned no structuredContent although it declares an outputSchema' });
  });

  row('errorResultUnchecked', async () => {
    const res = await post(url, call('broken_output', { asError: true }));
    const result = resultOf(res.body);
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [{ type: 'text', text: 'failed on purpose' }]);
  });

  row('structuredOnly', async () => {
    const res = await post(url, call('structured_only', {}));
    const result = resultOf(res.body);
    assert.deepEqual(result.structuredContent, { count: 3 });
    assert.deepEqual(result.content, [{ type: 'text', text: '{"count":3}' }]);
    assert.equal('isError' in result, false);
  });

  row('internalFault', async () => {
    const faults: string[] = [];
    const boom = defineTool({ name: 'boom', inputSchema: { type: 'object' }, check: () => [], approval: () => { throw new Error('secret internals'); }, run: () => 'ran' });
    const crashing = createServer({ name: 'crash', version: '1', tools: [boom], logger: { error: (message) => faults.push(message) } });
    const own = await crashing.listen({ port: 0 });
    try {
      const res = await post(own.url, call('boom', {}));
      assert.equal(res.status, 500);
      assert.deepEqual(errorOf(res.body), { code: -32603, message: 'Internal error' });
      assert.doesNotMatch(res.text, /secret/);
      assert.deepEqual(faults, ['stage approval failed']);
    } finally {
      await crashing.close();
    }
  });

  it('covers every row of the table (rows of the resources/prompts/inputs/subscriptions features, of middleware, of operator approvals and of the shared store are tested with those features)', () => {
    // searchBudgetTooSmall: test/server/search-surface.test.ts (the search surface's bad input).
    // approvalTimedOut: test/server/operator-approval.test.ts (timeout, cancel, close); storeUnavailable: the Redis store tests.
    // authorizationMalformed, authorizationUnavailable: test/server/jwt-authorizer.test.ts (oversized/duplicated header; JWKS hanging or junk).
    // upstreamRefused, upstreamFailed: test/compose/proxy/resources-prompts.test.ts; bridgeUpstreamUnreachable: test/compose/relay/stdio-relay.test.ts.
    const featureRows = new Set(['authorizationMalformed', 'authorizationUnavailable', 'unknownResource', 'unknownPrompt', 'invalidFeatureParams', 'featureHandlerFailed', 'inputRequested', 'listenClosed', 'middlewareRefused', 'rateLimited', 'resultTooLarge', 'approvalTimedOut', 'storeUnavailable', 'searchBudgetTooSmall', 'upstreamRefused', 'upstreamFailed', 'bridgeUpstreamUnreachable']);
    // The legacy (2025) session wire's rows are driven by test/server/legacy-http-sessions.test.ts, which checks its own coverage.
    const legacyRows = (name: string): boolean => (name.startsWith('legacy') && name !== 'legacyInitialize') || name.startsWith('task'); // task rows: test/server/tasks-*.test.ts
    assert.deepEqual([...covered].sort(), Object.keys(OUTCOMES).filter((name) => !featureRows.has(name) && !legacyRows(name)).sort());
  });
});
