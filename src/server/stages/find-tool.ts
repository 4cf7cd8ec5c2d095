import { isJsonObject } from '../../protocol/json-rpc.js';
import { echoText } from '../../schema/describe-value.js';
import { rpcError } from '../outcomes.js';
import { describeType, fail, grown } from './stage.js';
import type { SearchRouting } from './pipeline-env.js';
import type { Stage, Stop, ToolFound, Versioned } from './stage.js';

/** The name and arguments of the tool a call means. */
interface Named {
  readonly name: unknown;
  readonly args: unknown;
}

/**
 * `call_tool {name, arguments}` (search surface): the tool it names and that tool's arguments, so
 * that every later stage sees the inner call exactly as if it had been made directly.
 */
function unwrapCallTool(search: SearchRouting, outer: unknown): Named | Stop {
  if (outer === undefined) return fail(rpcError('invalidCallParams', `Invalid params: ${search.callTool} needs arguments {"name": <tool name>, "arguments": {...}}`));
  if (!isJsonObject(outer)) return fail(rpcError('argumentsNotObject', `Invalid params: arguments must be an object, got ${describeType(outer)}`));
  const extra = Object.keys(outer).filter((key) => key !== 'name' && key !== 'arguments');
  if (extra.length > 0) return fail(rpcError('invalidCallParams', `Invalid params: ${search.callTool} takes "name" and "arguments" only, got ${extra.map((k) => JSON.stringify(echoText(k))).join(', ')}`));
  if (typeof outer.name !== 'string') return fail(rpcError('invalidCallParams', `Invalid params: ${search.callTool} needs a string "name" (the tool to run), got ${describeType(outer.name)}`));
  return { name: outer.name, args: outer.arguments };
}

/** The named tool (one this caller may see) and the call's parameters, each of the right JSON type. */
export const findTool: Stage<'find-tool', Versioned, ToolFound> = {
  name: 'find-tool',
  run(s, env) {
    const params = s.params;
    let name = params.name;
    let rawArgs = params.arguments;
    // Only a server with the search surface pays for the check (no object per call otherwise).
    const search = env.search;
    if (search !== undefined && name === search.callTool) {
      const named = unwrapCallTool(search, rawArgs);
      if ('kind' in named) return named;
      name = named.name;
      rawArgs = named.args;
    }
    if (typeof name !== 'string') return fail(rpcError('invalidCallParams', `Invalid params: tools/call needs a string "name", got ${describeType(name)}`));
    // `search_tools` is found by its own name only (call_tool's lookup is in the catalog).
    const tool = search !== undefined && params.name === search.searchTool.name
      ? search.searchTool
      : env.toolsByName.get(name);
    // A tool this caller may not see answers exactly as an unknown name, before any stage that could tell it exists.
    const gate = tool?.tool.visibleTo;
    if (tool === undefined || (gate !== undefined && !env.views.sees({ label: `tool ${name}`, visibleTo: gate }, env.views.viewerOf(s.auth)))) return fail(rpcError('unknownTool', `Unknown tool: ${echoText(name)}`));
    let args: Record<string, unknown> = {}; // OUTCOMES.argumentsAbsent: treated as {}
    if (rawArgs !== undefined) {
      if (!isJsonObject(rawArgs)) return fail(rpcError('argumentsNotObject', `Invalid params: arguments must be an object, got ${describeType(rawArgs)}`));
      args = rawArgs;
    }
    const inputResponses = params.inputResponses;
    if (inputResponses !== undefined && !isJsonObject(inputResponses)) {
      return fail(rpcError('invalidCallParams', `Invalid params: inputResponses must be an object, got ${describeType(inputResponses)}`));
    }
    const requestState = params.requestState;
    if (requestState !== undefined && typeof requestState !== 'string') {
      return fail(rpcError('invalidCallParams', `Invalid params: requestState must be a string, got ${describeType(requestState)}`));
    }
    const out: ToolFound = grown(s);
    out.tool = tool;
    out.args = args;
    out.inputResponses = inputResponses;
    out.requestState = requestState;
    return out;
  },
};
