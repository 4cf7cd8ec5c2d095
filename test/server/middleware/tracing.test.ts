/**
 * tracing: spans named and attributed per the OpenTelemetry MCP conventions. The test passes a
 * recording Tracer (the @opentelemetry/api Tracer interface; no SDK is installed), and checks that
 * without any SDK the middleware is a harmless no-op.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { recordingTracer } from '../../support/recording-tracer.js';
import { defineTool, tracing } from '../../../src/index.js';
import { resultOf, serve } from './helpers.js';

describe('tracing', () => {
  it('one SERVER span per call: name, MCP attributes, error status for tool and JSON-RPC errors, traceparent as parent', async () => {
    const { tracer, spans } = recordingTracer();
    const ok = defineTool({ name: 'ok', inputSchema: { type: 'object' }, run: () => 'fine' });
    const bad = defineTool({ name: 'bad', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } }, run: () => ({ content: [{ type: 'text', text: 'no' }], isError: true }) });
    const scoped = defineTool({ name: 'scoped', inputSchema: { type: 'object' }, scopes: ['admin'], run: () => 'secret' });
    await serve({ tools: [ok, bad, scoped], use: [tracing({ tracer })], authorize: () => ({ scopes: [] }) }, async (call) => {
      await call('ok', {});
      await call('bad', {});
      assert.equal((await call('scoped', {})).status, 403);
    });
    assert.deepEqual({ type: spans[2]!.attributes['error.type'], code: spans[2]!.attributes['rpc.response.status_code'], status: spans[2]!.status?.code }, { type: '-31403', code: '-31403', status: SpanStatusCode.ERROR });
    assert.deepEqual(spans.map((s) => [s.name, s.kind, s.ended]), [['tools/call ok', SpanKind.SERVER, true], ['tools/call bad', SpanKind.SERVER, true], ['tools/call scoped', SpanKind.SERVER, true]]);
    assert.deepEqual(spans[0]!.attributes, {
      'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'ok', 'gen_ai.operation.name': 'execute_tool', 'jsonrpc.request.id': '1',
      'mcp.protocol.version': '2026-07-28', 'network.transport': 'tcp', 'network.protocol.name': 'http',
    });
    assert.equal(spans[0]!.status, undefined);
    assert.equal(spans[1]!.attributes['error.type'], 'tool_error');
    assert.equal(spans[1]!.status?.code, SpanStatusCode.ERROR);
  });

  it('without an SDK the global tracer is a no-op and calls are unaffected', async () => {
    const tool = defineTool({ name: 'ok', inputSchema: { type: 'object' }, run: () => 'fine' });
    await serve({ tools: [tool], use: [tracing()] }, async (call) => {
      assert.deepEqual(resultOf(await call('ok', {})).content, [{ type: 'text', text: 'fine' }]);
    });
  });
});
