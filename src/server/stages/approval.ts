import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { InputRequiredResult } from '../../protocol/wire-types.js';
import { rpcError, toolError } from '../outcomes.js';
import { digestArguments } from '../request-state.js';
import type { ApprovalRequest } from '../tool-types.js';
import { fail, respond, toolStop } from './stage.js';
import type { Shaped, Stage, Stop } from './stage.js';
import type { PipelineEnv } from './pipeline-env.js';

function decide(s: Shaped, env: PipelineEnv, request: ApprovalRequest | null | undefined): Shaped | Stop {
  if (request === null || request === undefined) return s;
  const tool = s.tool;
  const digest = digestArguments(s.args);
  const subject = s.auth?.subject ?? '';
  if (s.requestState !== undefined) {
    const verdict = env.signer.verify(s.requestState);
    if (!verdict.ok) return fail(rpcError('invalidRequestState', `Invalid params: ${verdict.reason}`));
    const claims = verdict.claims;
    if (claims.tool !== tool.name || claims.args !== digest || claims.sub !== subject) {
      return fail(rpcError('invalidRequestState', 'Invalid params: requestState belongs to a different call (tool, arguments or caller differ)'));
    }
    const answer = s.inputResponses?.approval;
    if (!isJsonObject(answer) || typeof answer.action !== 'string') {
      return fail(rpcError('invalidCallParams', 'Invalid params: inputResponses.approval must be an elicitation result with an "action"'));
    }
    const content = answer.content;
    if (answer.action === 'accept' && isJsonObject(content) && content.approve === true) return s;
    const how = answer.action === 'accept' ? 'did not approve' : answer.action === 'decline' ? 'declined' : 'cancelled';
    return toolStop(toolError('approvalDeclined', `The user ${how} the call of ${tool.name}; it was not executed.`));
  }
  const elicitation = s.capabilities.elicitation;
  if (!isJsonObject(elicitation) || (Object.keys(elicitation).length > 0 && elicitation.form === undefined)) {
    return fail(rpcError('missingClientCapability', `Missing required client capability: elicitation (tool ${tool.name} needs human approval)`, {
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    }));
  }
  const state = env.signer.sign({ tool: tool.name, args: digest, sub: subject, exp: Date.now() + env.approvalTtlMs });
  const result: InputRequiredResult = {
    resultType: 'input_required',
    inputRequests: {
      approval: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: request.message,
          requestedSchema: {
            type: 'object',
            properties: { approve: { type: 'boolean', title: 'Approve', description: `Allow ${tool.name} to run with these arguments` } },
            required: ['approve'],
          },
        },
      },
    },
    requestState: state,
  };
  return respond(result as unknown as JsonObject);
}

/** The tool's `approval` hook: a human approves this call through an elicitation before `run`. */
export const approval: Stage<'approval', Shaped> = {
  name: 'approval',
  run(s, env) {
    const ask = s.tool.tool.handlers.approval;
    if (ask === undefined) return s;
    return Promise.resolve(ask(s.args, s.ctx)).then((request) => decide(s, env, request));
  },
};
