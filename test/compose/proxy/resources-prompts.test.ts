/**
 * An upstream's resources, resource templates and prompts on the front (the upstream mounted):
 * server-everything (a third-party stdio server, 2025 era) read and got through the front, URIs
 * kept and prompt names prefixed (the mount rule); and a hand-written upstream
 * (fixtures/changing-upstream.mjs) whose hostile entries are refused at start and whose failing
 * reads and gets are specific JSON-RPC errors naming the upstream.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { connect, McpClientError } from '../../../src/client/index.js';
import type { McpClient } from '../../../src/client/index.js';
import { createServer } from '../../../src/index.js';
import type { McpServer } from '../../../src/index.js';
import { toolsFromUpstream } from '../../../src/compose/index.js';
import type { UpstreamTools, UpstreamToolsOptions } from '../../../src/compose/index.js';
import { SERVERS } from '../../client/fixtures/spawn-server.js';

const CHANGING = fileURLToPath(new URL('./fixtures/changing-upstream.mjs', import.meta.url));

async function front(args: string[], options: UpstreamToolsOptions): Promise<{ proxied: UpstreamTools; server: McpServer; caller: McpClient; close(): Promise<void> }> {
  const proxied = await toolsFromUpstream({ command: process.execPath, args }, options);
  const server = createServer({ name: 'front', version: '1.0.0', tools: [], mount: [proxied.mount], logger: { error: () => undefined } });
  const listener = await server.listen({ port: 0 });
  const caller = connect(listener.url, { onWarning: () => {} });
  return {
    proxied, server, caller,
    close: async () => {
      await caller.close();
      await listener.close();
      await server.close();
      await proxied.close();
    },
  };
}

async function refusal(promise: Promise<unknown>): Promise<McpClientError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof McpClientError, `expected a JSON-RPC error, got ${String(error)}`);
  assert.equal(error.kind, 'rpc');
  return error;
}

describe('proxy: server-everything\'s resources and prompts through the front', () => {
  it('lists its resources and templates under their own URIs, reads text and blob contents, lists and gets its prompts under the prefix', async () => {
    const f = await front([SERVERS.everything, 'stdio'], { prefix: 'every' });
    try {
      const listed = (await f.caller.request('resources/list')).resources as { uri: string; name: string; mimeType?: string }[];
      assert.deepEqual(listed.map((r) => r.uri), f.proxied.resources.filter((r) => r.kind === 'resource').map((r) => (r.descriptor as { uri: string }).uri));
      assert.ok(listed.length > 0 && listed.every((r) => r.uri.startsWith('demo://')), 'URIs are kept, as mounts keep them');
      const architecture = listed.find((r) => r.uri === 'demo://resource/static/document/architecture.md');
      assert.deepEqual(architecture, { uri: 'demo://resource/static/document/architecture.md', name: 'architecture.md', description: 'Static document file exposed from /docs: architecture.md', mimeType: 'text/markdown' });
      const read = (await f.caller.request('resources/read', { uri: architecture!.uri })).contents as { uri: string; text?: string }[];
      assert.equal(read[0]!.uri, architecture!.uri);
      assert.match(read[0]!.text!, /^# Everything Server/);

      const templates = (await f.caller.request('resources/templates/list')).resourceTemplates as { uriTemplate: string }[];
      assert.deepEqual(templates.map((t) => t.uriTemplate), ['demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/blob/{resourceId}']);
      const text = (await f.caller.request('resources/read', { uri: 'demo://resource/dynamic/text/7' })).contents as { uri: string; text?: string }[];
      assert.equal(text[0]!.uri, 'demo://resource/dynamic/text/7');
      assert.match(text[0]!.text!, /7/);
      const blob = (await f.caller.request('resources/read', { uri: 'demo://resource/dynamic/blob/7' })).contents as { uri: string; blob?: string }[];
      assert.equal(typeof blob[0]!.blob, 'string');
      assert.ok(Buffer.from(blob[0]!.blob!, 'base64').length > 0);

      const prompts = (await f.caller.request('prompts/list')).prompts as { name: string; arguments?: { name: string; required?: boolean }[] }[];
      assert.deepEqual(prompts.map((p) => p.name), ['every__simple-prompt', 'every__args-prompt', 'every__completable-prompt', 'every__resource-prompt']);
      assert.deepEqual(prompts.find((p) => p.name === 'every__args-prompt')!.arguments!.map((a) => [a.name, a.required]), [['city', true], ['state', false]]);
      const got = await f.caller.request('prompts/get', { name: 'every__args-prompt', arguments: { city: 'Lyon' } });
      const messages = got.messages as { role: string; content: { type: string; text?: string } }[];
      assert.ok(messages.length > 0);
      assert.match(messages.map((m) => m.content.text ?? '').join(' '), /Lyon/);
      const missing = await refusal(f.caller.request('prompts/get', { name: 'every__args-prompt', arguments: {} }));
      assert.equal(missing.code, -32602);
      assert.equal(f.proxied.problems.length, 0);
    } finally {
      await f.close();
    }
  });
});

describe('proxy: a hostile upstream\'s resources and prompts', () => {
  it('refuses entries it cannot serve at start, each with its problem', async () => {
    const f = await front([CHANGING], { prefix: 'c', maxDescriptorBytes: 100_000 });
    try {
      assert.deepEqual(f.proxied.problems, [
        { tool: 'mem://huge', code: 'too-large', message: 'the descriptor is 300051 bytes, over maxDescriptorBytes 100000', entry: 'resource' },
        { tool: 'bad name', code: 'invalid-name', message: 'definePrompt: name must be 1 to 128 of [A-Za-z0-9_.-], got "c__bad name"', entry: 'prompt' },
      ]);
      const listed = (await f.caller.request('resources/list')).resources as { uri: string }[];
      assert.deepEqual(listed.map((r) => r.uri), ['mem://ok', 'mem://malformed', 'mem://missing']);
      const prompts = (await f.caller.request('prompts/list')).prompts as { name: string }[];
      assert.deepEqual(prompts.map((p) => p.name), ['c__greet', 'c__broken']);
    } finally {
      await f.close();
    }
  });

  it('passes reads and gets through, and turns each upstream failure into a specific error', async () => {
    const f = await front([CHANGING], { prefix: 'c' });
    try {
      assert.deepEqual((await f.caller.request('resources/read', { uri: 'mem://ok' })).contents, [{ uri: 'mem://ok', text: 'ok', mimeType: 'text/plain' }]);
      assert.deepEqual((await f.caller.request('resources/read', { uri: 'mem://item/42' })).contents, [{ uri: 'mem://item/42', text: 'item 42' }]);
      const malformed = await refusal(f.caller.request('resources/read', { uri: 'mem://malformed' }));
      assert.equal(malformed.code, -32603);
      assert.equal(malformed.serverMessage, 'Upstream c answered resources/read of mem://malformed with malformed contents');
      const missing = await refusal(f.caller.request('resources/read', { uri: 'mem://missing' }));
      assert.equal(missing.code, -32602, 'the 2025 "not found" (-32002) becomes the current -32602');
      assert.equal(missing.serverMessage, 'Reading mem://missing from upstream c failed: upstream c: resources/read failed: JSON-RPC error -32002: Resource not found: mem://missing');
      const unknown = await refusal(f.caller.request('resources/read', { uri: 'mem://nowhere' }));
      assert.equal(unknown.code, -32602, 'a URI the upstream never listed is unknown on the front');
      assert.deepEqual((await f.caller.request('prompts/get', { name: 'c__greet', arguments: { name: 'Ada' } })).messages, [{ role: 'user', content: { type: 'text', text: 'Hello, Ada' } }]);
      const broken = await refusal(f.caller.request('prompts/get', { name: 'c__broken' }));
      assert.equal(broken.code, -32603);
      assert.equal(broken.serverMessage, 'Prompt broken of upstream c failed: upstream c: prompts/get failed: JSON-RPC error -32603: prompt store down');
    } finally {
      await f.close();
    }
  });

  it('features: false takes tools only', async () => {
    const f = await front([CHANGING], { prefix: 'c', features: false });
    try {
      assert.equal(f.proxied.resources.length, 0);
      assert.equal(f.proxied.prompts.length, 0);
      assert.equal(f.server.tools.length > 0, true);
      const refused = await refusal(f.caller.request('resources/list'));
      assert.equal(refused.code, -32601, 'the front declares no resources');
    } finally {
      await f.close();
    }
  });
});
