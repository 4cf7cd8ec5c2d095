import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonObject, JsonValue } from '../../protocol/json-rpc.js';
import { ProtocolError } from '../../protocol/protocol-error.js';
import type { CallToolResult, ContentBlock, InputRequest, InputRequiredResult } from '../../protocol/wire-types.js';
import { capabilityFor } from '../approvals/input-flow.js';
import { rpcError, toolError } from '../outcomes.js';
import type { RegisteredTool } from '../tools/tool-registry.js';
import type { ToolResultInit } from '../contract/tool-types.js';
import type { PipelineEnv } from './pipeline-env.js';
import { CANCELLED, describeType, errorMessage, fail, grown, isThenable, respond, toolStop } from './stage.js';
import type { Executed, Shaped, Stage, Stop } from './stage.js';

function invalidRunResult(env: PipelineEnv, tool: RegisteredTool, what: string): Stop {
  env.logger.error(`tool ${what}`, { tool: tool.name });
  return fail(rpcError('invalidRunResult', `Internal error: tool ${tool.name} ${what}`));
}

function runFailed(s: Shaped, error: unknown): Stop {
  if (s.message.isAborted()) return CANCELLED;
  if (error instanceof ProtocolError) return fail(error);
  return toolStop(toolError('runThrew', errorMessage(error)));
}

function inputRequiredStop(s: Shaped, env: PipelineEnv, raw: JsonObject): Stop {
  const tool = s.tool;
  const requests = raw.inputRequests;
  if (raw.requestState === undefined && requests === undefined) return invalidRunResult(env, tool, 'returned input_required without inputRequests or requestState');
  if (raw.requestState !== undefined && typeof raw.requestState !== 'string') return invalidRunResult(env, tool, 'returned a requestState that is not a string');
  if (requests !== undefined) {
    if (!isJsonObject(requests)) return invalidRunResult(env, tool, 'returned inputRequests that is not an object');
    const missing: Record<string, unknown> = {};
    for (const request of Object.values(requests)) {
      const needed = capabilityFor(request);
      if (needed === undefined) return invalidRunResult(env, tool, `returned an input request with unknown method ${JSON.stringify(isJsonObject(request) ? request.method : undefined)}`);
      if (s.capabilities[needed] === undefined) missing[needed] = {};
    }
    // never ask the client for something it did not declare.
    if (Object.keys(missing).length > 0) {
      return fail(rpcError('missingClientCapability', `Missing required client capability: ${Object.keys(missing).join(', ')} (tool ${tool.name} needs it to continue)`, {
        data: { requiredCapabilities: missing },
      }));
    }
  }
  const result: InputRequiredResult = { resultType: 'input_required' };
  if (requests !== undefined) result.inputRequests = requests as Record<string, InputRequest>;
  if (raw.requestState !== undefined) result.requestState = raw.requestState as string;
  if (isJsonObject(raw._meta)) result._meta = raw._meta;
  return respond(result);
}

/** What `run` returned, as a tool result (or the input-required answer or error it amounts to). */
function runReturned(s: Shaped, env: PipelineEnv, value: unknown): Executed | Stop {
  const tool = s.tool;
  let raw = value;
  if (s.message.isAborted()) return CANCELLED;
  if (raw === undefined) raw = { content: [] };
  else if (typeof raw === 'string') raw = { content: [{ type: 'text', text: raw }] };
  if (!isJsonObject(raw)) return invalidRunResult(env, tool, `returned ${describeType(raw)}`);
  if (raw.resultType === 'input_required') return inputRequiredStop(s, env, raw);
  if (raw.resultType !== undefined && raw.resultType !== 'complete') return invalidRunResult(env, tool, `returned unknown resultType ${JSON.stringify(raw.resultType)}`);
  const init = raw as ToolResultInit;
  if (init.content !== undefined && !Array.isArray(init.content)) return invalidRunResult(env, tool, 'returned content that is not an array');
  if (init.isError !== undefined && typeof init.isError !== 'boolean') return invalidRunResult(env, tool, 'returned isError that is not a boolean');
  let content = init.content;
  if (content === undefined) {
    // OUTCOMES.structuredOnly: older clients only read content, so mirror the structured value as text.
    content = init.structuredContent === undefined ? [] : [{ type: 'text', text: JSON.stringify(init.structuredContent) }];
  }
  const result: CallToolResult = { resultType: 'complete', content: content as ContentBlock[] };
  // The handler's value as it gave it: the reply serialises it as JSON, and `output` checks it against outputSchema.
  if (init.structuredContent !== undefined) result.structuredContent = init.structuredContent as JsonValue;
  if (init.isError === true) result.isError = true;
  if (isJsonObject(init._meta)) result._meta = { ...init._meta, ...env.resultMeta };
  const out: Executed = grown(s);
  out.result = result;
  return out;
}

/** Runs the tool. A synchronous `run` keeps the whole call synchronous; only a returned promise is awaited. */
export const execute: Stage<'execute', Shaped, Executed> = {
  name: 'execute',
  run(s, env) {
    if (s.message.isAborted()) return CANCELLED;
    let raw: unknown;
    try {
      raw = s.tool.tool.handlers.run(s.args, s.ctx);
    } catch (error) {
      return runFailed(s, error);
    }
    if (isThenable(raw)) return Promise.resolve(raw).then((value) => runReturned(s, env, value), (error: unknown) => runFailed(s, error));
    return runReturned(s, env, raw);
  },
};
