/** A recording OpenTelemetry Tracer (the @opentelemetry/api interface; no SDK installed): every span started, its attributes, status and whether it ended. */
import type { Attributes, Context, Span, SpanKind, SpanOptions, SpanStatus, Tracer } from '@opentelemetry/api';
import { trace } from '@opentelemetry/api';

export interface RecordedSpan { name: string; kind: SpanKind | undefined; attributes: Attributes; status: SpanStatus | undefined; ended: boolean; parentTraceId: string | undefined }

export function recordingTracer(): { tracer: Tracer; spans: RecordedSpan[] } {
  const spans: RecordedSpan[] = [];
  const tracer = {
    startSpan(name: string, options: SpanOptions = {}, ctx?: Context): Span {
      const record: RecordedSpan = { name, kind: options.kind, attributes: { ...options.attributes }, status: undefined, ended: false, parentTraceId: ctx ? trace.getSpanContext(ctx)?.traceId : undefined };
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
