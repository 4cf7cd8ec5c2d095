/**
 * `tools/call` from first request to a complete, output-checked result: header mirroring and the
 * one retry after -32020 (modern HTTP), progress routing, input rounds (modern: `input_required`
 * retries; legacy: server requests during the call) and `outputSchema` validation.
 */
import { buildParamHeaders, ErrorCode, isJsonObject, META } from '../protocol/index.js';
import type { CallToolResult, InputRequest, JsonObject, JsonRpcNotification } from '../protocol/index.js';
import { compileSchema } from '../schema/index.js';
import type { CompiledSchema } from '../schema/index.js';
import { resultTypeOf } from './catalog.js';
import type { Catalog, KnownTool } from './catalog.js';
import { McpClientError } from './client-error.js';
import type { Connection, ServerRequestHandler } from './connection.js';
import type { Exchange } from './exchange.js';
import { answerInputRound, callRequestHandler } from './input-rounds.js';
import type { CallInputState } from './input-rounds.js';
import { taskFromCreated, taskFromResult, TASKS_EXTENSION } from './tool-task.js';
import type { ToolTask } from './tool-task.js';
import type { CallToolOptions, ClientRoot } from './types.js';

/** What a call needs from its client. */
export interface CallContext {
  connection: Connection;
  exchange: Exchange;
  catalog: Catalog;
  validateOutput: boolean;
  maxRounds: number;
  roots: readonly ClientRoot[] | undefined;
  /** Answers server requests that the call's own handler does not. */
  clientHandler: ServerRequestHandler;
}

function describeShape(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

function excludedError(name: string, tool: KnownTool): McpClientError {
  return new McpClientError('tool_excluded', `tool ${JSON.stringify(name)} was excluded: ${tool.excluded?.reason ?? ''}`, { method: 'tools/call', data: tool.excluded?.problems });
}

function outputValidator(tool: KnownTool): CompiledSchema | McpClientError | undefined {
  const schema = tool.descriptor.outputSchema;
  if (schema === undefined) return undefined;
  if (tool.output === undefined) {
    try {
      tool.output = compileSchema(schema);
    } catch (error) {
      tool.output = new McpClientError('output_invalid', `tool ${JSON.stringify(tool.descriptor.name)}: its outputSchema cannot be compiled, so the result cannot be validated: ${error instanceof Error ? error.message : String(error)}`, { method: 'tools/call' });
    }
  }
  return tool.output;
}

function checkCallResult(result: JsonObject, tool: KnownTool | undefined, name: string, validateOutput: boolean): CallToolResult {
  if (!Array.isArray(result.content)) throw new McpClientError('protocol', `tools/call ${name}: result has no "content" array`, { method: 'tools/call', data: result });
  if (result.isError !== undefined && typeof result.isError !== 'boolean') throw new McpClientError('protocol', `tools/call ${name}: isError must be a boolean`, { method: 'tools/call', data: result });
  // A 2026-07-28 result already says so and is used as parsed. A 2025 result gains the member in a
  // copy that starts with it: V8 gives `{ ...parsed, resultType }` (a JSON.parse'd object spread,
  // then a member it lacks) a hidden class of its own on every call, so each later read of the
  // result is a megamorphic lookup; `{ resultType, ...parsed }` shares one.
  const call = (result.resultType === 'complete' ? result : result.resultType === undefined ? { resultType: 'complete', ...result } : { ...result, resultType: 'complete' }) as unknown as CallToolResult;
  // An error result explains a failure; it is not bound by the output contract.
  if (!validateOutput || tool === undefined || call.isError === true) return call;
  const validator = outputValidator(tool);
  if (validator === undefined) return call;
  if (validator instanceof McpClientError) throw validator;
  if (!('structuredContent' in result)) {
    throw new McpClientError('output_invalid', `tool ${JSON.stringify(name)} declares an outputSchema but returned no structuredContent`, { method: 'tools/call', data: result });
  }
  const check = validator.validate(result.structuredContent);
  if (!check.valid) {
    throw new McpClientError('output_invalid', `tool ${JSON.stringify(name)} returned structuredContent that breaks its outputSchema: ${check.errors.map((e) => e.message).join('; ')}`, {
      method: 'tools/call',
      errors: check.errors,
      data: result,
    });
  }
  return call;
}

/** Calls a tool to completion. */
export function callTool(ctx: CallContext, name: string, args: Record<string, unknown>, options: CallToolOptions): Promise<CallToolResult> {
  return callToolOrTask(ctx, name, args, options, false) as Promise<CallToolResult>;
}

/** Calls a tool declaring the tasks extension on the request; resolves to its task handle (completed at once when the server did not make it a task). */
export function callToolAsTask(ctx: CallContext, name: string, args: Record<string, unknown>, options: CallToolOptions): Promise<ToolTask> {
  return callToolOrTask(ctx, name, args, options, true) as Promise<ToolTask>;
}

/** `asTask` decides, whatever `options.task` says (callTool and callToolAsTask choose). */
async function callToolOrTask(ctx: CallContext, name: string, args: Record<string, unknown>, options: CallToolOptions, asTask: boolean): Promise<CallToolResult | ToolTask> {
  if (typeof name !== 'string' || name === '') throw new McpClientError('usage', 'callTool: the tool name must be a non-empty string', { method: 'tools/call' });
  if (!isJsonObject(args)) throw new McpClientError('usage', `callTool: arguments must be an object, got ${describeShape(args)}`, { method: 'tools/call' });
  const now = ctx.catalog.knownToolNow(name);
  let tool = now.listed ? now.tool : await ctx.catalog.knownTool(name, false, options.signal);
  if (tool?.excluded !== undefined) throw excludedError(name, tool);
  const progressToken = options.onProgress === undefined ? undefined : `tw-${Math.random().toString(36).slice(2)}`;
  const onNotification = (notification: JsonRpcNotification): void => {
    const params = notification.params;
    if (notification.method === 'notifications/progress' && options.onProgress !== undefined && isJsonObject(params) && params.progressToken === progressToken && typeof params.progress === 'number') {
      options.onProgress({
        progress: params.progress,
        ...(typeof params.total === 'number' ? { total: params.total } : {}),
        ...(typeof params.message === 'string' ? { message: params.message } : {}),
      });
      return;
    }
    options.onNotification?.(notification);
  };
  const input: CallInputState = { tool: name, arguments: args, options, roots: ctx.roots, maxRounds: ctx.maxRounds, round: 0 };
  const onRequest = callRequestHandler(input, ctx.clientHandler);
  let retry: { inputResponses?: Record<string, unknown>; requestState?: string } = {};
  let headerRetried = false;
  for (;;) {
    const params: JsonObject = { name, arguments: args, ...retry };
    const meta: JsonObject = { ...options.meta, ...(progressToken !== undefined ? { [META.progressToken]: progressToken } : {}) };
    const headers = tool !== undefined && tool.annotations.length > 0 ? buildParamHeaders(tool.annotations, args) : {};
    let result: JsonObject;
    try {
      result = await ctx.exchange.send('tools/call', params, {
        headers,
        meta,
        onNotification,
        ...(onRequest !== undefined ? { onRequest } : {}),
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(asTask ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
      });
    } catch (error) {
      // Headers were built from a stale tool list: refresh it and retry once (C-05, R-88).
      if (!headerRetried && error instanceof McpClientError && error.code === ErrorCode.HeaderMismatch && ctx.connection.kind === 'http' && ctx.exchange.state?.era === 'modern') {
        headerRetried = true;
        tool = await ctx.catalog.knownTool(name, true, options.signal);
        if (tool?.excluded !== undefined) throw excludedError(name, tool);
        continue;
      }
      throw error;
    }
    if (asTask) {
      const known = tool;
      const taskContext = { exchange: ctx.exchange, input, check: (final: JsonObject) => checkCallResult(final, known, name, ctx.validateOutput) };
      if (result.resultType === 'task') return taskFromCreated(taskContext, result);
      if (resultTypeOf(result, 'tools/call') === 'complete') return taskFromResult(taskContext, checkCallResult(result, tool, name, ctx.validateOutput));
    } else if (resultTypeOf(result, 'tools/call') === 'complete') return checkCallResult(result, tool, name, ctx.validateOutput);
    input.round++;
    if (input.round > ctx.maxRounds) throw new McpClientError('input_required', `tool ${JSON.stringify(name)} still asks for input after ${ctx.maxRounds} rounds; giving up`, { method: 'tools/call', data: result });
    const requests = isJsonObject(result.inputRequests) ? (result.inputRequests as Record<string, InputRequest>) : {};
    const state = result.requestState;
    if (state !== undefined && typeof state !== 'string') throw new McpClientError('protocol', 'tools/call: requestState must be a string', { method: 'tools/call', data: result });
    const responses = Object.keys(requests).length > 0 ? await answerInputRound(input, requests, result) : undefined;
    // The retry carries exactly this round's answers and the state echoed byte for byte (C-04); the exchange gives it a new id.
    retry = { ...(responses !== undefined ? { inputResponses: responses } : {}), ...(state !== undefined ? { requestState: state } : {}) };
  }
}
