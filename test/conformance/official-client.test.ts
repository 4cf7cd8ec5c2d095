/**
 * The everything server with the OFFICIAL client (@modelcontextprotocol/client 2.4.0) over real
 * HTTP: input-required rounds answered by the client's own elicitation/sampling/roots handlers,
 * resources, prompts and completion, on the 2026-07-28 wire and on the 2025-11-25 wire (where the
 * same tools send server-to-client requests instead). Every raw message the server sends (JSON
 * bodies and SSE events, before the client parses them) is checked against the official schema
 * of its revision through a validating `fetch` given to the client's transport.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { HttpListener, McpServer } from '../../src/index.js';
import { createEverythingServer } from '../../examples/conformance/everything-server.js';
import { createWireTap } from '../fixtures/servers/validating-fetch.js';
import type { WireTap } from '../fixtures/servers/validating-fetch.js';

let server: McpServer;
let listener: HttpListener;

before(async () => {
  server = createEverythingServer();
  listener = await server.listen({ port: 0 });
});
after(() => server.close());

function newClient(version: '2026-07-28' | '2025-11-25'): { client: Client; asked: string[] } {
  const asked: string[] = [];
  const client = new Client(
    { name: 'toolwright-conformance-test', version: '1.0.0' },
    { versionNegotiation: { mode: version === '2026-07-28' ? { pin: version } : 'legacy' }, capabilities: { elicitation: {}, sampling: {}, roots: {} } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(`elicitation:${request.params.message}`);
    const properties = (request.params as { requestedSchema?: { properties?: Record<string, unknown> } }).requestedSchema?.properties ?? {};
    const content: Record<string, string | boolean> = {};
    if ('name' in properties) content.name = 'Ada';
    if ('color' in properties) content.color = 'green';
    if ('ok' in properties) content.ok = true;
    if ('username' in properties) Object.assign(content, { username: 'ada', email: 'ada@example.com' });
    return { action: 'accept', content };
  });
  client.setRequestHandler('sampling/createMessage', async () => {
    asked.push('sampling');
    return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model', stopReason: 'endTurn' };
  });
  client.setRequestHandler('roots/list', async () => {
    asked.push('roots');
    return { roots: [{ uri: 'file:///workspace', name: 'workspace' }] };
  });
  return { client, asked };
}

function transportFor(tap: WireTap): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(listener.url), { fetch: tap.fetch });
}

/** After the client closed: every server message was valid, and there were some. */
async function assertWireValid(tap: WireTap, atLeast: number): Promise<void> {
  await tap.settled();
  assert.deepEqual(tap.failures, []);
  assert.ok(tap.checked >= atLeast, `only ${tap.checked} server messages were seen`);
}

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? `[${c.type}]`).join(' ');
}

describe('official client, 2026-07-28', () => {
  it('input-required rounds are answered by the client handlers and the calls complete', async () => {
    const { client, asked } = newClient('2026-07-28');
    const tap = createWireTap();
    await client.connect(transportFor(tap));
    try {
      assert.equal(textOf(await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} })), 'Hello, Ada!');
      assert.equal(textOf(await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} })), 'Ada likes green.');
      assert.equal(textOf(await client.callTool({ name: 'test_input_required_result_multiple_inputs', arguments: {} })), 'Paris Ada (roots: 1)');
      assert.match(textOf(await client.callTool({ name: 'test_input_required_result_request_state', arguments: {} })), /state-ok/);
      assert.deepEqual(asked, [
        'elicitation:What is your name?',
        'elicitation:Step 1: What is your name?',
        'elicitation:Step 2: What is your favorite color?',
        'elicitation:What is your name?',
        'sampling',
        'roots',
        'elicitation:Please confirm',
      ]);
    } finally {
      await client.close();
    }
    await assertWireValid(tap, 9);
  });

  it('resources, prompts and completion through the client API', async () => {
    const { client } = newClient('2026-07-28');
    const tap = createWireTap();
    await client.connect(transportFor(tap));
    try {
      const resources = await client.listResources();
      assert.deepEqual(resources.resources.map((r) => r.uri), ['test://static-text', 'test://static-binary', 'test://watched-resource']);
      const templates = await client.listResourceTemplates();
      assert.deepEqual(templates.resourceTemplates.map((t) => t.uriTemplate), ['test://template/{id}/data']);
      const read = await client.readResource({ uri: 'test://template/42/data' });
      assert.match(JSON.stringify(read.contents), /Data for ID: 42/);
      const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
      assert.match(JSON.stringify(prompt.messages), /arg1='a', arg2='b'/);
      const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'pa' } });
      assert.deepEqual(completion.completion.values, ['paris', 'park', 'party']);
      await assert.rejects(client.readResource({ uri: 'test://missing' }), (error: unknown) => (error as { code?: number }).code === -32602);
    } finally {
      await client.close();
    }
    await assertWireValid(tap, 6);
  });
});

describe('official client, 2025-11-25 (legacy wire)', () => {
  it('initialize opens a session and the same tools ask through server-to-client requests', async () => {
    const { client, asked } = newClient('2025-11-25');
    const tap = createWireTap();
    const transport = transportFor(tap);
    await client.connect(transport);
    try {
      assert.ok(transport.sessionId, 'the server minted a session id');
      assert.equal(textOf(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Capital of France?' } })), 'LLM response: Paris');
      assert.match(textOf(await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } })), /User response: <action: accept, content: \{"username":"ada","email":"ada@example.com"\}>/);
      assert.equal(textOf(await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} })), 'Ada likes green.');
      assert.deepEqual(asked, ['sampling', 'elicitation:Who are you?', 'elicitation:Step 1: What is your name?', 'elicitation:Step 2: What is your favorite color?']);
      const prompts = await client.listPrompts();
      assert.ok(prompts.prompts.some((p) => p.name === 'test_simple_prompt'));
    } finally {
      await client.close();
    }
    await assertWireValid(tap, 9);
  });
});
