/**
 * Deploy targets tested for real (issue 33 item 10, docs/deploy.md): examples/deploy/ served by
 * `server.fetch` under Cloudflare's workerd (bundled with esbuild, run by Miniflare), Deno and Bun,
 * the runtimes coming from the on-demand workspace test-deps/deploy. On each, the project's client
 * (2026-07-28: server/discover, tools/list, tools/call) and the official SDK v1 client (2025-11-25:
 * initialize, tools/list, tools/call in a session) get exact answers, a call breaking the schema
 * gets the exact refusal, and a deployment without its request-state secret refuses to serve.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { connect } from '../../src/client/index.js';
import { calculateSum, echoText } from '../../examples/deploy/tool-app.js';
import { ExitedEarly, startChild, startWorkerd } from './deploy-runtimes.js';
import type { Runtime, RunningTarget } from './deploy-runtimes.js';

const SECRET = 'deploy-test-request-state-secret';
const MISSING_SECRET = "TOOLWRIGHT_STATE_SECRET is not set (16+ bytes): set it as the deployment's secret (docs/deploy.md)";
const BAD_ARGUMENTS = 'Invalid arguments for tool calculate_sum:\n/a: expected integer, got string "x"';

const outDir = mkdtempSync(join(tmpdir(), 'toolwright-deploy-'));
after(() => rmSync(outDir, { recursive: true, force: true }));

function start(runtime: Runtime, secret: string | undefined): Promise<RunningTarget> {
  return runtime === 'workerd' ? startWorkerd(outDir, secret) : startChild(runtime, secret);
}

/** The descriptors as the wire carries them (plain JSON), to compare with what a runtime served. */
const DESCRIPTORS = JSON.parse(JSON.stringify([calculateSum.descriptor, echoText.descriptor])) as unknown;

for (const runtime of ['workerd', 'deno', 'bun'] as const) {
  describe(`${runtime}: the fetch handler`, () => {
    let target: RunningTarget;
    const serverInfo = { name: 'toolwright-deploy-example', version: `0.1.0+${runtime}` };

    before(async () => {
      const started = Date.now();
      target = await start(runtime, SECRET);
      process.stdout.write(`# ${runtime}: ${target.version}, ready in ${Date.now() - started} ms at ${target.url}\n`);
    });
    after(() => target?.stop());

    it('answers server/discover, tools/list and tools/call to the Toolwright client (2026-07-28)', async () => {
      const client = connect(target.url, { timeoutMs: 20_000 });
      try {
        const info = await client.discover();
        assert.deepEqual(info, {
          supportedVersions: ['2026-07-28'],
          capabilities: { tools: {}, logging: {} },
          ttlMs: 60_000,
          cacheScope: 'public',
          fromCache: false,
          serverInfo,
        });
        assert.equal(client.era, 'modern');
        const listing = await client.listTools();
        assert.deepEqual(JSON.parse(JSON.stringify(listing.tools)), DESCRIPTORS);
        assert.deepEqual(await client.callTool('calculate_sum', { a: 2, b: 40 }), {
          resultType: 'complete',
          content: [{ type: 'text', text: '{"sum":42}' }],
          structuredContent: { sum: 42 },
          _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
        });
        assert.deepEqual(await client.callTool('echo_text', { text: `hello from ${runtime}` }), {
          resultType: 'complete',
          content: [{ type: 'text', text: `hello from ${runtime}` }],
          _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
        });
      } finally {
        await client.close();
      }
    });

    it('refuses a call that breaks the input schema with the exact error (Toolwright client)', async () => {
      const client = connect(target.url, { timeoutMs: 20_000 });
      try {
        assert.deepEqual(await client.callTool('calculate_sum', { a: 'x', b: 3 }), {
          resultType: 'complete',
          content: [{ type: 'text', text: BAD_ARGUMENTS }],
          isError: true,
          _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
        });
      } finally {
        await client.close();
      }
    });

    it('answers initialize, tools/list and tools/call to the SDK v1 client (a 2025-11-25 session)', async () => {
      const transport = new StreamableHTTPClientTransport(new URL(target.url));
      const sdk = new Client({ name: 'deploy-test-sdk-v1', version: '1.0.0' });
      try {
        await sdk.connect(transport);
        assert.equal(LATEST_PROTOCOL_VERSION, '2025-11-25');
        assert.equal(transport.protocolVersion, LATEST_PROTOCOL_VERSION);
        // A session: its record lives in the server's store, here the isolate's memory store.
        assert.match(transport.sessionId ?? '', /^[0-9a-f-]{36}$/);
        assert.deepEqual(sdk.getServerVersion(), serverInfo);
        const { tools } = await sdk.listTools();
        assert.deepEqual(JSON.parse(JSON.stringify(tools)), DESCRIPTORS);
        assert.deepEqual(await sdk.callTool({ name: 'calculate_sum', arguments: { a: 2, b: 40 } }), {
          content: [{ type: 'text', text: '{"sum":42}' }],
          structuredContent: { sum: 42 },
        });
        assert.deepEqual(await sdk.callTool({ name: 'calculate_sum', arguments: { a: 'x', b: 3 } }), {
          content: [{ type: 'text', text: BAD_ARGUMENTS }],
          isError: true,
        });
        await transport.terminateSession();
      } finally {
        await sdk.close();
      }
    });

    it('refuses to serve without the request-state secret (no silent per-isolate key)', async () => {
      if (runtime === 'workerd') {
        // A Worker reads its env inside fetch, so the refusal is that request's error: a 500.
        const bare = await start(runtime, undefined);
        try {
          const response = await fetch(bare.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
          assert.equal(response.status, 500);
          // Miniflare answers a Worker's uncaught error with its text (Cloudflare itself shows error 1101).
          assert.ok((await response.text()).startsWith(`Error: ${MISSING_SECRET}\n`));
        } finally {
          await bare.stop();
        }
        return;
      }
      await assert.rejects(start(runtime, undefined), (error: unknown) => {
        assert.ok(error instanceof ExitedEarly, String(error));
        assert.equal(error.code, 1);
        assert.ok(error.stderr.includes(MISSING_SECRET), error.stderr);
        return true;
      });
    });
  });
}
