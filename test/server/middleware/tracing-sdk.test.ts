/**
 * tracing with the real OpenTelemetry SDK (@opentelemetry/sdk-trace, registered globally as an
 * application would, with the W3C propagator): the spans it exports are named and attributed per
 * the OpenTelemetry MCP semantic conventions, and a `traceparent` in `_meta` becomes their parent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { createServer, defineTool, tracing } from '../../../src/index.js';
import type { HttpListener, McpServer } from '../../../src/index.js';
import { META, post, rpc } from '../../fixtures/servers/raw-http.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN_ID = '00f067aa0ba902b7';

describe('tracing with the OpenTelemetry SDK registered', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  let server: McpServer;
  let listener: HttpListener;

  before(async () => {
    assert.equal(trace.setGlobalTracerProvider(provider), true, 'no other provider was registered');
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const ok = defineTool({ name: 'ok', inputSchema: { type: 'object' }, run: () => 'fine' });
    const failing = defineTool({ name: 'failing', inputSchema: { type: 'object' }, run: () => ({ content: [{ type: 'text', text: 'no' }], isError: true }) });
    const scoped = defineTool({ name: 'scoped', inputSchema: { type: 'object' }, scopes: ['admin'], run: () => 'secret' });
    // `tracing()` without a tracer: the global provider the application registered.
    server = createServer({ name: 'traced', version: '1', tools: [ok, failing, scoped], use: [tracing()], authorize: () => ({ scopes: [] }) });
    listener = await server.listen({ port: 0 });
  });
  after(async () => {
    await server.close();
    await provider.shutdown();
    trace.disable();
    propagation.disable();
  });

  const call = (name: string, id: number, meta: Record<string, unknown> = META) => post(listener.url, rpc('tools/call', { name, arguments: {} }, id, meta));

  it('a successful call: one SERVER span "tools/call <tool>" with the MCP attributes, status unset, child of the traceparent', async () => {
    exporter.reset();
    const res = await call('ok', 7, { ...META, traceparent: `00-${TRACE_ID}-${PARENT_SPAN_ID}-01` });
    assert.equal(res.status, 200);
    const spans = exporter.getFinishedSpans();
    assert.equal(spans.length, 1);
    const span = spans[0]!;
    assert.equal(span.name, 'tools/call ok');
    assert.equal(span.kind, SpanKind.SERVER);
    assert.equal(span.instrumentationScope.name, 'toolwright');
    assert.deepEqual(span.attributes, {
      'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'ok', 'gen_ai.operation.name': 'execute_tool', 'jsonrpc.request.id': '7',
      'mcp.protocol.version': '2026-07-28', 'network.transport': 'tcp', 'network.protocol.name': 'http',
    });
    assert.equal(span.status.code, SpanStatusCode.UNSET);
    assert.equal(span.spanContext().traceId, TRACE_ID);
    assert.equal(span.parentSpanContext?.spanId, PARENT_SPAN_ID);
    assert.equal(span.parentSpanContext?.isRemote, true);
  });

  it('without a traceparent the span starts a new trace', async () => {
    exporter.reset();
    await call('ok', 8);
    const [span] = exporter.getFinishedSpans();
    assert.equal(span?.parentSpanContext, undefined);
    assert.notEqual(span?.spanContext().traceId, TRACE_ID);
  });

  it('an isError result: error.type tool_error and status ERROR', async () => {
    exporter.reset();
    await call('failing', 9);
    const [span] = exporter.getFinishedSpans();
    assert.equal(span?.name, 'tools/call failing');
    assert.equal(span?.attributes['error.type'], 'tool_error');
    assert.equal(span?.status.code, SpanStatusCode.ERROR);
  });

  it('a JSON-RPC error: error.type and rpc.response.status_code carry its code, status ERROR with its message', async () => {
    exporter.reset();
    const res = await call('scoped', 10);
    assert.equal(res.status, 403);
    const [span] = exporter.getFinishedSpans();
    assert.equal(span?.name, 'tools/call scoped');
    assert.deepEqual([span?.attributes['error.type'], span?.attributes['rpc.response.status_code']], ['-31403', '-31403']);
    assert.equal(span?.status.code, SpanStatusCode.ERROR);
    assert.equal(span?.status.message, (res.body?.error as { message: string }).message);
  });
});
