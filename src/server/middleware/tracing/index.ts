/**
 * Tracing: one OpenTelemetry span per tools/call through `@opentelemetry/api`, a no-op unless the
 * application registers an SDK. Named and attributed per the OpenTelemetry MCP semantic conventions
 * (server side): span name `tools/call {gen_ai.tool.name}`, kind SERVER, `mcp.method.name`,
 * `gen_ai.tool.name`, `gen_ai.operation.name` = `execute_tool`, `jsonrpc.request.id`,
 * `mcp.protocol.version`, `network.transport` (`tcp` for HTTP, `pipe` for stdio) and
 * `network.protocol.name`; a JSON-RPC error sets `error.type` and `rpc.response.status_code` to its
 * code, an `isError` result sets `error.type` = `tool_error`; both set the span status to ERROR. A
 * W3C `traceparent` in the request's `_meta` is the parent when the application registered a
 * propagator (context propagation; the global propagator is a no-op otherwise).
 */
import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';
import type { TextMapGetter, Tracer } from '@opentelemetry/api';
import { META } from '../../../protocol/constants.js';
import type { Middleware } from '../middleware.js';

/** Options of {@link tracing}. */
export interface TracingOptions {
  /** Tracer to use (default: `trace.getTracer('toolwright')` from the global provider). */
  tracer?: Tracer;
  /** For server-wide use: which tools are traced (default all). */
  appliesTo?: (toolName: string) => boolean;
}

// Loaded when `tracing()` is first called, so that importing toolwright costs no OpenTelemetry load
// (~35 ms of a server's cold start; issue 31 item 4). The CommonJS and ESM builds of the API share
// one global registry (a Symbol.for key on globalThis), so an SDK the application registers through
// either is the one seen here.
const requireLazily = createRequire(import.meta.url);
let otel: typeof OtelApi | undefined;
const otelApi = (): typeof OtelApi => (otel ??= requireLazily('@opentelemetry/api') as typeof OtelApi);

const META_GETTER: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/**
 * @example
 * ```ts
 * import { createServer, tracing } from 'toolwright';
 *
 * // Spans go wherever the registered OpenTelemetry SDK sends them.
 * const server = createServer({ name: 'arm', version: '1.0.0', tools: [], use: [tracing()] });
 * ```
 */
export function tracing(options: TracingOptions = {}): Middleware {
  const { context, propagation, SpanKind, SpanStatusCode, trace } = otelApi();
  const tracer = options.tracer ?? trace.getTracer('toolwright');
  return {
    name: 'tracing',
    ...(options.appliesTo !== undefined ? { appliesTo: options.appliesTo } : {}),
    async handle(call, next) {
      const parent = propagation.extract(context.active(), call.requestMeta, META_GETTER);
      const version = call.requestMeta[META.protocolVersion];
      const span = tracer.startSpan(`tools/call ${call.tool.name}`, {
        kind: SpanKind.SERVER,
        attributes: {
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': call.tool.name,
          'gen_ai.operation.name': 'execute_tool',
          'jsonrpc.request.id': String(call.requestId),
          ...(typeof version === 'string' ? { 'mcp.protocol.version': version } : {}),
          'network.transport': call.transport === 'http' ? 'tcp' : call.transport === 'stdio' ? 'pipe' : 'inproc',
          ...(call.transport === 'http' ? { 'network.protocol.name': 'http' } : {}),
        },
      }, parent);
      try {
        const outcome = await context.with(trace.setSpan(parent, span), next);
        if (outcome.kind === 'error') {
          const code = String(outcome.error.code);
          span.setAttributes({ 'error.type': code, 'rpc.response.status_code': code });
          span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error.message });
        } else if (outcome.kind === 'result' && outcome.outcome === 'tool-error') {
          span.setAttribute('error.type', 'tool_error');
          span.setStatus({ code: SpanStatusCode.ERROR });
        } else if (outcome.kind === 'cancelled') {
          span.setAttribute('error.type', 'cancelled');
        }
        return outcome;
      } catch (error) {
        span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  };
}
