/**
 * Proxied calls to an HTTP upstream are not serialized: N calls through the front are all in
 * flight upstream at once. The upstream tool is a barrier that answers only when N calls have
 * arrived, so the test finishes only if the client's HTTP request path carries them concurrently
 * (no one-connection serialization); the upstream's observed peak is asserted. Past `maxConcurrent`,
 * calls wait in the proxy for a slot and are sent one by one as slots free.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect } from '../../../src/client/index.js';
import type { McpClient } from '../../../src/client/index.js';
import { createServer, defineTool } from '../../../src/index.js';
import type { HttpListener, McpServer } from '../../../src/index.js';
import { toolsFromUpstream } from '../../../src/compose/index.js';
import { until } from '../../support/until.js';
import type { UpstreamTools } from '../../../src/compose/index.js';

const CALLS = 24;

/** An upstream server serving `tool`, a proxy front for it (tools prefixed `up__`), and a client of the front. */
interface ProxyChain {
  readonly client: McpClient;
  close(): Promise<void>;
}

async function proxyChain(tool: ReturnType<typeof defineTool>, options: { maxConcurrent: number; maxQueued?: number }): Promise<ProxyChain> {
  const upstream: McpServer = createServer({ name: 'upstream', version: '1.0.0', tools: [tool] });
  const upstreamListener: HttpListener = await upstream.listen({ port: 0 });
  const proxied: UpstreamTools = await toolsFromUpstream({ url: upstreamListener.url }, { prefix: 'up', ...options });
  const front: McpServer = createServer({ name: 'front', version: '1.0.0', tools: proxied.tools });
  const frontListener: HttpListener = await front.listen({ port: 0 });
  const client = connect(frontListener.url, { onWarning: () => {} });
  return {
    client,
    async close() {
      await client.close();
      await frontListener.close();
      await front.close();
      await proxied.close();
      await upstreamListener.close();
      await upstream.close();
    },
  };
}

describe('proxy in front of an HTTP upstream: concurrent calls', { timeout: 60_000 }, () => {
  let inFlight = 0;
  let peak = 0;
  let opened: () => void = () => {};
  const allArrived = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const barrier = defineTool({
    name: 'barrier',
    description: 'Answers once every expected call has arrived.',
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false } as const,
    run: async ({ n }) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      if (inFlight === CALLS) opened();
      await allArrived;
      inFlight--;
      return `${n}`;
    },
  });
  let chain: ProxyChain | undefined;
  let client: McpClient;

  before(async () => {
    chain = await proxyChain(barrier, { maxConcurrent: CALLS });
    client = chain.client;
  });
  after(() => chain?.close());

  it(`has all ${CALLS} proxied calls in flight upstream at once, each answered with its own result`, async () => {
    const results = await Promise.all(Array.from({ length: CALLS }, (_, n) => client.callTool('up__barrier', { n })));
    assert.equal(peak, CALLS);
    assert.deepEqual(results.map((r) => (r.content[0] as { text: string }).text), Array.from({ length: CALLS }, (_, n) => `${n}`));
    assert.ok(results.every((r) => r.isError !== true));
  });
});

describe('proxy in front of an HTTP upstream: calls past maxConcurrent wait for a slot', { timeout: 60_000 }, () => {
  const LIMIT = 2;
  const TOTAL = 5;
  let inFlight = 0;
  let peak = 0;
  const arrivedNames: number[] = [];
  const releases: (() => void)[] = [];
  const held = defineTool({
    name: 'held',
    description: 'Answers when the test releases it.',
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false } as const,
    run: async ({ n }) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      arrivedNames.push(n);
      await new Promise<void>((resolve) => releases.push(resolve));
      inFlight--;
      return `${n}`;
    },
  });
  let chain: ProxyChain | undefined;
  let client: McpClient;

  before(async () => {
    chain = await proxyChain(held, { maxConcurrent: LIMIT, maxQueued: TOTAL - LIMIT });
    client = chain.client;
  });
  after(async () => {
    for (const release of releases.splice(0)) release();
    await chain?.close();
  });

  it(`sends ${LIMIT} at a time; each waiting call is sent when a slot frees and answered with its own result`, async () => {
    const calls = Array.from({ length: TOTAL }, (_, n) => client.callTool('up__held', { n }));
    for (let sent = LIMIT; sent <= TOTAL; sent++) {
      await until(() => arrivedNames.length === sent, () => `${sent} calls upstream (seen ${arrivedNames.length})`);
      assert.equal(inFlight, LIMIT, 'the upstream holds exactly the limit while calls wait');
      if (sent < TOTAL) releases.shift()!();
    }
    for (const release of releases.splice(0)) release();
    const results = await Promise.all(calls);
    assert.equal(peak, LIMIT);
    assert.deepEqual([...arrivedNames].sort(), Array.from({ length: TOTAL }, (_, n) => n));
    assert.deepEqual(results.map((r) => (r.content[0] as { text: string }).text), Array.from({ length: TOTAL }, (_, n) => `${n}`));
    assert.ok(results.every((r) => r.isError !== true));
  });
});
