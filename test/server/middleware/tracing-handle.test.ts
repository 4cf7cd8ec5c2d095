/**
 * tracing's `handle`, called directly with a recording tracer: one SERVER span per call with the MCP
 * attributes of the call's transport, the outcome of `next` returned unchanged, and the error
 * attributes and status each kind of outcome (or a throw) sets; the span always ends.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { META } from '../../../src/protocol/constants.js';
import type { JsonObject } from '../../../src/protocol/json-rpc.js';
import { tracing } from '../../../src/server/middleware/tracing/index.js';
import { rpcError, toolError } from '../../../src/server/outcomes.js';
import { recordingTracer } from '../../support/recording-tracer.js';
import { stageEnv, VERSION } from '../../support/stage-fixture.js';
import { nextReturning, textResult, toolCall } from '../../support/tool-call.js';

const HTTP = { headers: { 'content-type': 'application/json' } };

describe('tracing handle', () => {
  it('a successful HTTP call: span name, kind, MCP attributes, no error, ended; the outcome is next\'s own', async () => {
    const { tracer, spans } = recordingTracer();
    const middleware = tracing({ tracer });
    const call = toolCall(stageEnv(), HTTP);
    const ok = textResult('fine');
    assert.equal(await middleware.handle(call, nextReturning(call, ok).next), ok);
    assert.deepEqual(spans, [{
      name: 'tools/call echo',
      kind: SpanKind.SERVER,
      attributes: {
        'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo', 'gen_ai.operation.name': 'execute_tool', 'jsonrpc.request.id': '1',
        'mcp.protocol.version': VERSION, 'network.transport': 'tcp', 'network.protocol.name': 'http',
      },
      status: undefined,
      ended: true,
      parentTraceId: undefined,
    }]);
  });

  it('stdio is "pipe" and console "inproc", neither with a network protocol name', async () => {
    const { tracer, spans } = recordingTracer();
    const middleware = tracing({ tracer });
    const env = stageEnv();
    for (const call of [toolCall(env, { transport: 'stdio' }), toolCall(env, { transport: 'console', operator: 'ops' })]) {
      await middleware.handle(call, nextReturning(call, textResult('fine')).next);
    }
    assert.deepEqual(spans.map((s) => [s.attributes['network.transport'], 'network.protocol.name' in s.attributes]), [['pipe', false], ['inproc', false]]);
  });

  it('a JSON-RPC error sets error.type and rpc.response.status_code to its code, status ERROR with its message', async () => {
    const { tracer, spans } = recordingTracer();
    const middleware = tracing({ tracer });
    const call = toolCall(stageEnv(), HTTP);
    const refused = { kind: 'error', error: rpcError('insufficientScope', 'Insufficient scope: needs admin') } as const;
    assert.equal(await middleware.handle(call, nextReturning(call, refused).next), refused);
    const span = spans[0]!;
    assert.deepEqual([span.attributes['error.type'], span.attributes['rpc.response.status_code'], span.status, span.ended], ['-31403', '-31403', { code: SpanStatusCode.ERROR, message: 'Insufficient scope: needs admin' }, true]);
  });

  it('an isError result sets error.type tool_error and status ERROR; a cancellation sets error.type cancelled only', async () => {
    const { tracer, spans } = recordingTracer();
    const middleware = tracing({ tracer });
    const call = toolCall(stageEnv(), HTTP);
    const toolErr = { kind: 'result', outcome: 'tool-error', result: toolError('middlewareRefused', 'no') } as const;
    assert.equal(await middleware.handle(call, nextReturning(call, toolErr).next), toolErr);
    const cancelled = { kind: 'cancelled' } as const;
    assert.equal(await middleware.handle(call, nextReturning(call, cancelled).next), cancelled);
    assert.deepEqual(spans.map((s) => [s.attributes['error.type'], s.status, 'rpc.response.status_code' in s.attributes, s.ended]), [
      ['tool_error', { code: SpanStatusCode.ERROR }, false, true],
      ['cancelled', undefined, false, true],
    ]);
  });

  it('a throwing next: the error is rethrown, the span records its name, status ERROR, and ends', async () => {
    const { tracer, spans } = recordingTracer();
    const middleware = tracing({ tracer });
    const call = toolCall(stageEnv(), HTTP);
    await assert.rejects(async () => middleware.handle(call, () => Promise.reject(new RangeError('inner broke'))), { name: 'RangeError', message: 'inner broke' });
    assert.deepEqual([spans[0]!.attributes['error.type'], spans[0]!.status, spans[0]!.ended], ['RangeError', { code: SpanStatusCode.ERROR }, true]);
  });

  it('a request without a protocol version in _meta gets no mcp.protocol.version', async () => {
    const { tracer, spans } = recordingTracer();
    const middleware = tracing({ tracer });
    const call = toolCall(stageEnv(), HTTP);
    // The fixture's _meta always names the version (the version stage requires it); take it out.
    delete (call.requestMeta as JsonObject)[META.protocolVersion];
    await middleware.handle(call, nextReturning(call, textResult('fine')).next);
    assert.equal('mcp.protocol.version' in spans[0]!.attributes, false);
    assert.equal(spans[0]!.attributes['gen_ai.tool.name'], 'echo');
  });
});
