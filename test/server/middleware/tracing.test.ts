/**
 * tracing: spans named and attributed per the OpenTelemetry MCP conventions. The test passes a
 * recording Tracer (the @opentelemetry/api Tracer interface; no SDK is installed), and checks that
 * without any SDK the middleware is a harmless no-op.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { Attributes, Context, Span, SpanOptions, SpanStatus, Tracer } from '@opentelemetry/api';
import { trace } from '@opentelemetry/api';
import { defineTool, tracing } from '../../../src/index.js';
import { resultOf, serve } from './helpers.js';

interface Recorded { name: string; kind: SpanKind | undefined; attributes: Attributes; status: SpanStatus | undefined; ended: boolean; parentTraceId: string | undefined }

function recordingTracer(): { tracer: Tracer; spans: Recorded[] } {
  const spans: Recorded[] = [];
  const tracer = {
    startSpan(name: string, options: SpanOptions = {}, ctx?: Context): Span {
      const record: Recorded = { name, kind: options.kind, attributes: { ...options.attributes }, status: undefined, ended: false, parentTraceId: ctx ? trace.getSpanContext(ctx)?.traceId : undefined };
      spans.push(record);
      const span = {
        spanContext: () => ({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 }),
        setAttribute(key: string, value: unknown) { record.attributes[key] = value as never; return span; },
        setAttributes(values: Attributes) { Object.assign(record.attributes, values); return span; },
        setStatus(status: SpanStatus) { record.status = status; return span; },
        end() { record.ended = true; },
        isRecording: () => true,
        addEvent: () => span, addLink: () => span, addLinks: () => span, updateName: () => span, recordException: () => undefined,
      };
      return span as unknown as Span;
    },
  } as unknown as Tracer;
  return { tracer, spans };
}

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
