/**
 * `call_tool {name, arguments}`: not a tool of its own but a way of naming one. The `find-tool`
 * stage reads the inner name and arguments from it, and from there the call is the inner tool's:
 * the same lookup in the caller's view, the same shape check and errors, `check`, scopes,
 * approval (bound to the inner name and arguments), the inner tool's middleware (rate limit,
 * audit, result budget) and task policy.
 */
import type { ToolDescriptor } from '../../protocol/wire-types.js';
import { MAX_QUERY_LENGTH } from './search-options.js';

/** The name `tools/list` shows for the call tool. */
export const CALL_TOOL = 'call_tool';

/** The descriptor `tools/list` shows for `call_tool`. */
export const CALL_TOOL_DESCRIPTOR: Readonly<ToolDescriptor> = Object.freeze({
  name: CALL_TOOL,
  title: 'Call a tool',
  description: 'Run a tool found with search_tools: give its name and its arguments (as its inputSchema says). It runs exactly as if it were listed and called directly: the same checks, approvals and errors.',
  inputSchema: Object.freeze({
    type: 'object',
    properties: Object.freeze({
      name: Object.freeze({ type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH, description: 'The tool\'s name, as search_tools returned it.' }),
      arguments: Object.freeze({ type: 'object', description: 'The tool\'s arguments.' }),
    }),
    required: Object.freeze(['name']),
    additionalProperties: false,
  }),
  annotations: Object.freeze({ title: 'Call a tool', readOnlyHint: false, destructiveHint: true, openWorldHint: true }),
}) as Readonly<ToolDescriptor>;
