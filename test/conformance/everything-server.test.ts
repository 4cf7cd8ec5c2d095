/**
 * End-to-end tests of the conformance example over real HTTP on 127.0.0.1, for what the official
 * suite does not check: structured output against outputSchema and its text mirror, how argument
 * violations are reported, the MRTR error paths, resources/prompts/completion errors,
 * subscriptions and per-request logging. Every server message is validated against the official
 * 2026-07-28 schema by the raw client.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compileSchema } from '../../src/schema/index.js';
import type { HttpListener, McpServer } from '../../src/index.js';
import { DEFAULT_APPROVER_SCOPE } from '../../src/index.js';
import { createEverythingServer } from '../../examples/conformance/everything-server.js';
import { META, rpc } from '../fixtures/servers/raw-http.js';
import { assertMessage, post } from './wire-client.js';
import { sseMessagesAsTheyArrive } from '../support/sse-events.js';
import type { IncomingMessage, ServerResponse } from 'node:http';

const ALL_CAPS = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, sampling: {}, roots: {} } };

let server: McpServer;
let listener: HttpListener;
let url: string;

before(async () => {
  // Every caller holds the approver scope, so `test_approval` asks the client's user (approver-trust.ts).
  server = createEverythingServer({ requestStateSecret: 'test-secret-test-secret-test-secret', authorize: () => ({ scopes: [DEFAULT_APPROVER_SCOPE] }) });
  listener = await server.listen({ port: 0 });
  url = listener.url;
});
after(() => server.close());

type Json = Record<string, unknown>;

function call(name: string, args?: unknown, extra: Json = {}, meta: Json = ALL_CAPS, id: number | string = 1): Json {
  return rpc('tools/call', { name, ...(args === undefined ? {} : { arguments: args }), ...extra }, id, meta);
}

async function result(message: Json, headers: Record<string, string | null> = {}): Promise<Json> {
  const res = await post(url, message, headers);
  assert.equal(res.status, 200, res.text);
  assert.ok(res.body?.result, `expected a result, got ${res.text}`);
  return res.body.result as Json;
}

async function rpcError(message: Json, status: number, code: number, headers: Record<string, string | null> = {}): Promise<{ message: string; data?: unknown }> {
  const res = await post(url, message, headers);
  assert.equal(res.status, status, res.text);
  const error = res.body?.error as { code: number; message: string; data?: unknown } | undefined;
  assert.ok(error, `expected an error, got ${res.text}`);
  assert.equal(error.code, code);
  assert.equal(res.body?.id, message.id);
  return error;
}

function firstText(r: Json): string {
  const block = (r.content as Json[])[0];
  assert.equal(block?.type, 'text');
  return block.text as string;
}

describe('structured output and the text mirror', () => {
  it('structuredContent validates against the advertised outputSchema and is mirrored as JSON text', async () => {
    const list = await result(rpc('tools/list'));
    const tools = list.tools as Json[];
    const withOutput = tools.filter((t) => t.outputSchema !== undefined);
    assert.deepEqual(withOutput.map((t) => t.name), ['test_structured_output']);
    const schema = compileSchema(withOutput[0]!.outputSchema as object);
    const r = await result(call('test_structured_output', { a: 2, b: 40 }));
    assert.equal(r.resultType, 'complete');
    assert.deepEqual(r.structuredContent, { sum: 42 });
    assert.equal(schema.validate(r.structuredContent).valid, true);
    assert.deepEqual(r.content, [{ type: 'text', text: JSON.stringify({ sum: 42 }) }]);
    assert.equal('isError' in r, false);
  });

  it('every advertised inputSchema compiles as JSON Schema 2020-12 and is served exactly as defined', async () => {
    const list = await result(rpc('tools/list'));
    for (const tool of list.tools as Json[]) {
      assert.doesNotThrow(() => compileSchema(tool.inputSchema as object), String(tool.name));
      assert.equal((tool.inputSchema as Json).type, 'object');
    }
    const tool = (list.tools as Json[]).find((t) => t.name === 'json_schema_2020_12_tool')!;
    assert.equal((tool.inputSchema as Json).$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.deepEqual(((tool.inputSchema as Json).$defs as Json).address, { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } });
  });
});

describe('argument violations', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['wrong type', { a: 'two', b: 3 }, /\/a.*integer|integer.*\/a/s],
    ['missing required property', { a: 1 }, /b/],
    ['property not allowed', { a: 1, b: 2, c: 3 }, /c/],
    ['out of range', { a: 5000, b: 1 }, /1000/],
  ];
  for (const [label, args, pattern] of cases) {
    it(`${label}: an isError result naming the problem, the tool does not run`, async () => {
      const r = await result(call('test_structured_output', args));
      assert.equal(r.isError, true);
      assert.equal('structuredContent' in r, false);
      const message = firstText(r);
      assert.match(message, /^Invalid arguments for tool test_structured_output:/);
      assert.match(message, pattern);
    });
  }

  it('2020-12 composition (allOf/anyOf, if/then/else) is enforced, not just advertised', async () => {
    const missingContact = await result(call('json_schema_2020_12_tool', { name: 'Ada' }));
    assert.equal(missingContact.isError, true);
    const phoneWithoutNumber = await result(call('json_schema_2020_12_tool', { name: 'Ada', contactMethod: 'phone', email: 'a@b.c' }));
    assert.equal(phoneWithoutNumber.isError, true);
    assert.match(firstText(phoneWithoutNumber), /phone/);
    const ok = await result(call('json_schema_2020_12_tool', { name: 'Ada', contactMethod: 'phone', phone: '123' }));
    assert.equal('isError' in ok, false);
    assert.match(firstText(ok), /"phone":"123"/);
  });

  it('arguments that are not an object: JSON-RPC -32602', async () => {
    const error = await rpcError(call('test_structured_output', [1, 2]), 200, -32602);
    assert.match(error.message, /arguments must be an object, got array/);
  });

  it('a throwing tool is an isError result with its message', async () => {
    const r = await result(call('test_error_handling', {}));
    assert.equal(r.isError, true);
    assert.equal(firstText(r), 'This tool intentionally returns an error for testing');
  });

  it('x-mcp-header: a Mcp-Param-Region that differs from the body is HTTP 400 -32020; a matching one runs', async () => {
    const message = call('test_x_mcp_header', { region: 'eu-west-1' });
    await rpcError(message, 400, -32020, { 'Mcp-Param-Region': 'us-east-1' });
    await rpcError(message, 400, -32020);
    const r = await result(message, { 'Mcp-Param-Region': 'eu-west-1' });
    assert.equal(firstText(r), 'Region: eu-west-1');
  });
});

describe('input-required (MRTR)', () => {
  const accept = (content: Json): Json => ({ action: 'accept', content });

  it('elicitation round trip: asks, then answers with the given name', async () => {
    const first = await result(call('test_input_required_result_elicitation', {}));
    assert.equal(first.resultType, 'input_required');
    const request = (first.inputRequests as Json).user_name as Json;
    assert.equal(request.method, 'elicitation/create');
    assert.equal(typeof first.requestState, 'string');
    const second = await result(call('test_input_required_result_elicitation', {}, { inputResponses: { user_name: accept({ name: 'Alice' }) }, requestState: first.requestState }, ALL_CAPS, 2));
    assert.equal(firstText(second), 'Hello, Alice!');
  });

  it('an answer that does not fit requestedSchema is asked again, not used', async () => {
    const r = await result(call('test_input_required_result_elicitation', {}, { inputResponses: { user_name: accept({ name: 42 }) } }));
    assert.equal(r.resultType, 'input_required');
    assert.deepEqual(Object.keys(r.inputRequests as Json), ['user_name']);
  });

  it('a tampered requestState is -32602 and the tool does not complete', async () => {
    const first = await result(call('test_input_required_result_tampered_state', {}));
    const error = await rpcError(call('test_input_required_result_tampered_state', {}, { inputResponses: { confirm: accept({ ok: true }) }, requestState: `${first.requestState as string}x` }), 200, -32602);
    assert.match(error.message, /requestState failed verification/);
  });

  it('a requestState issued for another tool or other arguments is -32602', async () => {
    const first = await result(call('test_input_required_result_request_state', {}));
    const error = await rpcError(call('test_input_required_result_tampered_state', {}, { inputResponses: { confirm: accept({ ok: true }) }, requestState: first.requestState }), 200, -32602);
    assert.match(error.message, /belongs to a different call/);
  });

  it('request-state tool: answers without the sealed state are not trusted; with it the server reports state-ok', async () => {
    const unsealed = await result(call('test_input_required_result_request_state', {}, { inputResponses: { confirm: accept({ ok: true }) } }));
    assert.equal(unsealed.resultType, 'input_required');
    const done = await result(call('test_input_required_result_request_state', {}, { inputResponses: { confirm: accept({ ok: true }) }, requestState: unsealed.requestState }));
    assert.match(firstText(done), /state-ok/);
  });

  it('multi-round: the first answer travels in the sealed state; only the new key is needed in round 3', async () => {
    const r1 = await result(call('test_input_required_result_multi_round', {}));
    assert.deepEqual(Object.keys(r1.inputRequests as Json), ['step1']);
    const r2 = await result(call('test_input_required_result_multi_round', {}, { inputResponses: { step1: accept({ name: 'Ada' }) }, requestState: r1.requestState }));
    assert.deepEqual(Object.keys(r2.inputRequests as Json), ['step2']);
    assert.notEqual(r2.requestState, r1.requestState);
    const r3 = await result(call('test_input_required_result_multi_round', {}, { inputResponses: { step2: accept({ color: 'blue' }) }, requestState: r2.requestState }));
    assert.equal(firstText(r3), 'Ada likes blue.');
  });

  it('partial answers: only the missing keys are asked again', async () => {
    const r1 = await result(call('test_input_required_result_multiple_inputs', {}));
    assert.deepEqual(Object.keys(r1.inputRequests as Json).sort(), ['client_roots', 'greeting', 'user_name']);
    const r2 = await result(call('test_input_required_result_multiple_inputs', {}, { inputResponses: { user_name: accept({ name: 'Ada' }), wrong: {} }, requestState: r1.requestState }));
    assert.deepEqual(Object.keys(r2.inputRequests as Json).sort(), ['client_roots', 'greeting']);
    const r3 = await result(call('test_input_required_result_multiple_inputs', {}, {
      inputResponses: {
        greeting: { role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'm' },
        client_roots: { roots: [{ uri: 'file:///a' }] },
      },
      requestState: r2.requestState,
    }));
    assert.equal(firstText(r3), 'Hi Ada (roots: 1)');
  });

  it('only declared capabilities are asked for; none declared is -32021 with requiredCapabilities', async () => {
    const samplingOnly = { ...META, 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } };
    const r = await result(call('test_input_required_result_capabilities', {}, {}, samplingOnly));
    assert.deepEqual(Object.values(r.inputRequests as Json).map((q) => (q as Json).method), ['sampling/createMessage']);
    const error = await rpcError(call('test_input_required_result_capabilities', {}, {}, META), 400, -32021);
    assert.deepEqual(error.data, { requiredCapabilities: { elicitation: {}, sampling: {} } });
    const strict = await rpcError(call('test_input_required_result_elicitation', {}, {}, samplingOnly), 400, -32021);
    assert.deepEqual(strict.data, { requiredCapabilities: { elicitation: {} } });
  });

  it('inputResponses that is not an object: JSON-RPC -32602', async () => {
    await rpcError(call('test_input_required_result_elicitation', {}, { inputResponses: null }), 200, -32602);
  });

  it('approval hook: asks the human, runs only after approve=true; a decline is an isError result', async () => {
    const first = await result(call('test_approval', { action: 'open the gripper' }));
    assert.equal(first.resultType, 'input_required');
    const ask = (first.inputRequests as Json).approval as Json;
    assert.equal(ask.method, 'elicitation/create');
    assert.match((ask.params as Json).message as string, /open the gripper/);
    const approved = await result(call('test_approval', { action: 'open the gripper' }, { inputResponses: { approval: accept({ approve: true }) }, requestState: first.requestState }));
    assert.equal(firstText(approved), 'Approved and done: open the gripper');
    // One approval, one action: the used state is refused; a decline needs its own question.
    await rpcError(call('test_approval', { action: 'open the gripper' }, { inputResponses: { approval: accept({ approve: true }) }, requestState: first.requestState }), 200, -32602);
    const again = await result(call('test_approval', { action: 'open the gripper' }));
    const declined = await result(call('test_approval', { action: 'open the gripper' }, { inputResponses: { approval: { action: 'decline' } }, requestState: again.requestState }));
    assert.equal(declined.isError, true);
    assert.match(firstText(declined), /declined/);
    const third = await result(call('test_approval', { action: 'open the gripper' }));
    await rpcError(call('test_approval', { action: 'close the gripper' }, { inputResponses: { approval: accept({ approve: true }) }, requestState: third.requestState }), 200, -32602);
  });

  it('prompts/get asks for input too, and completes with the answer', async () => {
    const first = await result(rpc('prompts/get', { name: 'test_input_required_result_prompt' }, 1, ALL_CAPS));
    assert.equal(first.resultType, 'input_required');
    const done = await result(rpc('prompts/get', { name: 'test_input_required_result_prompt', inputResponses: { user_context: accept({ context: 'ctx-1' }) }, requestState: first.requestState }, 2, ALL_CAPS));
    assert.match(JSON.stringify(done.messages), /ctx-1/);
  });
});

describe('resources, prompts and completion', () => {
  const read = (uri: string, id = 1): Json => rpc('resources/read', { uri }, id);

  it('unknown URI: -32602 with data.uri', async () => {
    const error = await rpcError(read('test://nope'), 200, -32602);
    assert.deepEqual(error.data, { uri: 'test://nope' });
  });

  it('resources/read without a uri: -32602', async () => {
    const error = await rpcError(rpc('resources/read', {}), 200, -32602);
    assert.match(error.message, /needs a string "uri"/);
  });

  it('binary resources come back as base64 blobs of the real bytes, with caching hints', async () => {
    const r = await result(read('test://static-binary'));
    const contents = (r.contents as Json[])[0]!;
    assert.equal(contents.mimeType, 'image/png');
    assert.deepEqual([...Buffer.from(contents.blob as string, 'base64').subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    assert.equal(r.ttlMs, 60_000);
    assert.equal(r.cacheScope, 'public');
  });

  it('templates substitute the variable; a non-matching URI is not found', async () => {
    const r = await result(read('test://template/a%20b/data'));
    assert.deepEqual(JSON.parse((r.contents as Json[])[0]!.text as string), { id: 'a b', templateTest: true, data: 'Data for ID: a b' });
    assert.equal(r.ttlMs, 0);
    await rpcError(read('test://template/1/2/data'), 200, -32602);
  });

  it('prompts/get: unknown prompt, missing and non-string arguments are -32602', async () => {
    await rpcError(rpc('prompts/get', { name: 'nope' }), 200, -32602);
    const missing = await rpcError(rpc('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'x' } }), 200, -32602);
    assert.match(missing.message, /missing required argument arg2/);
    const typed = await rpcError(rpc('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'x', arg2: 2 } }), 200, -32602);
    assert.match(typed.message, /arg2 must be a string/);
  });

  it('completion/complete filters by prefix; unknown refs and bad arguments are -32602', async () => {
    const r = await result(rpc('completion/complete', { ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'par' } }));
    assert.deepEqual(r.completion, { values: ['paris', 'park', 'party'] });
    const none = await result(rpc('completion/complete', { ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg2', value: '' } }));
    assert.deepEqual(none.completion, { values: [] });
    const template = await result(rpc('completion/complete', { ref: { type: 'ref/resource', uri: 'test://template/{id}/data' }, argument: { name: 'id', value: '4' } }));
    assert.deepEqual(template.completion, { values: ['456'] });
    await rpcError(rpc('completion/complete', { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } }), 200, -32602);
    await rpcError(rpc('completion/complete', { ref: { type: 'ref/prompt', name: 'test_simple_prompt' } }), 200, -32602);
    await rpcError(rpc('completion/complete', { ref: { type: 'ref/other' }, argument: { name: 'a', value: '' } }), 200, -32602);
  });

  it('server/discover declares exactly the features served', async () => {
    const r = await result(rpc('server/discover'));
    assert.deepEqual(r.capabilities, { tools: { listChanged: true }, logging: {}, resources: {}, prompts: { listChanged: true }, completions: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } });
  });
});

/** Opens a subscriptions/listen stream and collects its messages until `until` holds or it times out. */
async function listen(filter: Json, action: () => Promise<unknown>, until: (messages: Json[]) => boolean, id: number | string = 'sub-1'): Promise<Json[]> {
  const controller = new AbortController();
  const message = rpc('subscriptions/listen', { notifications: filter }, id);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
    body: JSON.stringify(message),
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  const messages: Json[] = [];
  let acted = false;
  const deadline = setTimeout(() => controller.abort(), 3000);
  try {
    for await (const message of sseMessagesAsTheyArrive(response.body!)) {
      assertMessage(message, 'subscriptions/listen');
      messages.push(message);
      if (!acted) {
        acted = true;
        await action();
      }
      if (until(messages)) break;
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(deadline);
    controller.abort();
  }
  return messages;
}

describe('subscriptions/listen', () => {
  it('acknowledges first, then delivers tagged tools/list_changed', async () => {
    const messages = await listen({ toolsListChanged: true }, () => result(call('test_trigger_tool_change', {})), (m) => m.length >= 2);
    assert.equal(messages[0]?.method, 'notifications/subscriptions/acknowledged');
    assert.deepEqual((messages[0]?.params as Json).notifications, { toolsListChanged: true });
    assert.equal(messages[1]?.method, 'notifications/tools/list_changed');
    assert.deepEqual(messages[1]?.params, { _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } });
  });

  it('does not deliver what the filter did not ask for', async () => {
    let triggered = false;
    const messages = await listen({ promptsListChanged: true }, async () => {
      await result(call('test_trigger_tool_change', {}));
      await result(call('test_trigger_prompt_change', {}));
      triggered = true;
    }, (m) => m.length >= 2);
    assert.equal(triggered, true);
    assert.deepEqual(messages.map((m) => m.method), ['notifications/subscriptions/acknowledged', 'notifications/prompts/list_changed']);
  });

  it('a filter that is not an object: -32602, nothing held open', async () => {
    const error = await rpcError(rpc('subscriptions/listen', { notifications: 'all' }), 200, -32602);
    assert.match(error.message, /SubscriptionFilter/);
    await rpcError(rpc('subscriptions/listen', { notifications: { toolsListChanged: 'yes' } }), 200, -32602);
  });

  it('a closed stream is forgotten: later changes reach nobody', async () => {
    // Resolves once the server has seen the listen stream close (its own close handler runs in the same emit).
    const closed = new Promise<void>((resolve) => {
      const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
        if (req.headers['mcp-method'] !== 'subscriptions/listen') return;
        listener.server.off('request', onRequest);
        res.once('close', () => resolve());
      };
      listener.server.prependListener('request', onRequest);
    });
    await listen({ toolsListChanged: true }, async () => undefined, (m) => m.length >= 1);
    await closed;
    assert.equal(server.notifyListChanged('tools'), 0);
  });
});

describe('per-request logging and progress', () => {
  it('no logLevel: no notifications/message; logLevel info: the three log messages on the call stream', async () => {
    const quiet = await post(url, call('test_logging_tool', {}));
    assert.deepEqual(quiet.messages.map((m) => m.method ?? 'response'), ['response']);
    const loud = await post(url, call('test_logging_tool', {}, {}, { ...ALL_CAPS, 'io.modelcontextprotocol/logLevel': 'info' }));
    assert.equal(loud.headers.get('content-type'), 'text/event-stream');
    const logs = loud.messages.filter((m) => m.method === 'notifications/message');
    assert.deepEqual(logs.map((m) => (m.params as Json).data), ['Tool execution started', 'Tool processing data', 'Tool execution completed']);
    const errorOnly = await post(url, call('test_logging_tool', {}, {}, { ...ALL_CAPS, 'io.modelcontextprotocol/logLevel': 'error' }));
    assert.equal(errorOnly.messages.filter((m) => m.method === 'notifications/message').length, 0);
  });

  it('progress 0, 50, 100 of 100 with the caller token, before the response', async () => {
    const res = await post(url, call('test_tool_with_progress', {}, {}, { ...ALL_CAPS, progressToken: 'p-7' }));
    const progress = res.messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params);
    assert.deepEqual(progress, [
      { progressToken: 'p-7', progress: 0, total: 100 },
      { progressToken: 'p-7', progress: 50, total: 100 },
      { progressToken: 'p-7', progress: 100, total: 100 },
    ]);
    assert.ok(res.messages.at(-1)?.result);
  });
});
