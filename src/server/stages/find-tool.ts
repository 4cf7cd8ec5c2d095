import { isJsonObject } from '../../protocol/json-rpc.js';
import { echoText } from '../../schema/describe-value.js';
import { rpcError } from '../outcomes.js';
import { describeType, extend, fail } from './stage.js';
import type { Stage, ToolFound, Versioned } from './stage.js';


/** The named tool (one this caller may see) and the call's parameters, each of the right JSON type. */
export const findTool: Stage<'find-tool', Versioned, ToolFound> = {
  name: 'find-tool',
  run(s, env) {
    const params = s.params;
    const name = params.name;
    if (typeof name !== 'string') return fail(rpcError('invalidCallParams', `Invalid params: tools/call needs a string "name", got ${describeType(name)}`));
    const tool = env.toolsByName.get(name);
    // A tool this caller may not see answers exactly as an unknown name, before any stage that could tell it exists.
    const gate = tool?.tool.visibleTo;
    if (tool === undefined || (gate !== undefined && !env.views.sees({ label: `tool ${name}`, visibleTo: gate }, env.views.viewerOf(s.auth)))) return fail(rpcError('unknownTool', `Unknown tool: ${echoText(name)}`));
    let args: Record<string, unknown> = {}; // OUTCOMES.argumentsAbsent: treated as {}
    if (params.arguments !== undefined) {
      if (!isJsonObject(params.arguments)) return fail(rpcError('argumentsNotObject', `Invalid params: arguments must be an object, got ${describeType(params.arguments)}`));
      args = params.arguments;
    }
    const inputResponses = params.inputResponses;
    if (inputResponses !== undefined && !isJsonObject(inputResponses)) {
      return fail(rpcError('invalidCallParams', `Invalid params: inputResponses must be an object, got ${describeType(inputResponses)}`));
    }
    const requestState = params.requestState;
    if (requestState !== undefined && typeof requestState !== 'string') {
      return fail(rpcError('invalidCallParams', `Invalid params: requestState must be a string, got ${describeType(requestState)}`));
    }
    return extend(s, { tool, args, inputResponses, requestState });
  },
};
