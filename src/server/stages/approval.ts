import { isJsonObject } from '../../protocol/json-rpc.js';
import { ProtocolError } from '../../protocol/protocol-error.js';
import { approvalAnswer, approvalForm, canElicitForm, routeApproval } from '../approvals/approvals.js';
import { approverScopeError, callerMayApprove } from '../approvals/approver-trust.js';
import { rpcError, toolError } from '../outcomes.js';
import type { ApprovalRequest } from '../contract/tool-types.js';
import type { PipelineEnv } from './pipeline-env.js';
import { fail, respond, toolStop } from './stage.js';
import type { Shaped, Stage, Stop } from './stage.js';

/** Holds the call open until an operator decides (operator-approvals.ts). */
async function askOperator(s: Shaped, request: ApprovalRequest): Promise<Shaped | Stop> {
  const decision = await s.ctx.approvals.awaitOperator({
    summary: request.message,
    ...(request.digest !== undefined ? { digest: request.digest } : {}),
    ...(request.details !== undefined ? { details: request.details } : {}),
    ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
  });
  if (decision.approved) return s;
  return toolStop({ resultType: 'complete', ...decision.result });
}

function decide(s: Shaped, env: PipelineEnv, request: ApprovalRequest | null | undefined): Shaped | Stop | Promise<Shaped | Stop> {
  if (request === null || request === undefined) return s;
  const tool = s.tool;
  const approver = request.approver ?? 'elicitation';
  if (approver !== 'elicitation' && approver !== 'operator' && approver !== 'either') {
    throw new TypeError(`approval hook of ${tool.name}: approver must be "elicitation", "operator" or "either", got ${JSON.stringify(approver)}`);
  }
  // Only a caller trusted to ask a person (the approver scope, approver-trust.ts) approves by its own
  // answer; any other goes to the operator whatever it declares, or is refused naming the scope.
  const trusted = callerMayApprove(env.approverTrust, s.message.transport, s.auth);
  // A trusted retry carrying a requestState is an elicitation round in progress; only a fresh call goes to the operator.
  const route = routeApproval({ approver, callerMayApprove: trusted, formElicitation: canElicitForm(s.capabilities), answering: s.requestState !== undefined });
  if (route.to === 'operator') return askOperator(s, request);
  if (route.to === 'refused' && route.reason === 'approver-scope') return fail(approverScopeError(env.approverTrust, s.message.transport, tool.name));
  if (route.to === 'refused') {
    return fail(rpcError('missingClientCapability', `Missing required client capability: elicitation (tool ${tool.name} needs human approval)`, {
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    }));
  }
  // A retry under an approval state must carry an answer; anything else is a malformed retry, not a new question.
  const answer = s.inputResponses?.approval;
  if (s.approvalState !== undefined && (!isJsonObject(answer) || typeof answer.action !== 'string')) {
    return fail(rpcError('invalidCallParams', 'Invalid params: inputResponses.approval must be an elicitation result with an "action"'));
  }
  const question = approvalForm(request.message, { description: `Allow ${tool.name} to run with these arguments` });
  let got;
  try {
    got = s.ctx.inputs.require({ approval: question }, { singleUse: true, ...(request.digest !== undefined ? { approves: request.digest } : {}) });
  } catch (error) {
    if (error instanceof ProtocolError) return fail(error); // forged, expired, other call, other digest
    throw error;
  }
  if (!got.ready) return respond(got.result);
  const given = approvalAnswer(got.responses.approval);
  if (given === 'approved') return s;
  const how = given === 'not-approved' ? 'did not approve' : given;
  return toolStop(toolError('approvalDeclined', `The user ${how} the call of ${tool.name}; it was not executed.`));
}

/**
 * The tool's `approval` hook: a human approves this very call (single use, bound to the tool's
 * digest, this subject and client, before expiry) before `run` (approvals.ts): the client's user
 * through a form elicitation when the caller holds the approver scope, or an operator while the call
 * is held open (`approver`). An elicitation approval is claimed later, right before `execute`.
 */
export const approval: Stage<'approval', Shaped> = {
  name: 'approval',
  run(s, env) {
    const ask = s.tool.tool.handlers.approval;
    if (ask === undefined) return s;
    return Promise.resolve(ask(s.args, s.ctx)).then((request) => decide(s, env, request));
  },
};
