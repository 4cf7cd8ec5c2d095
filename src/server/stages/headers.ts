import { HEADER } from '../../protocol/constants.js';
import { renderJson } from '../../schema/describe-value.js';
import { decodeHeaderValue } from '../../protocol/x-mcp-header.js';
import { rpcError } from '../outcomes.js';
import { fail } from './stage.js';
import type { Stage, Versioned } from './stage.js';

// SEP-2663 "Routing Headers": the tasks methods carry Mcp-Name: <taskId>.
const NAME_PARAM: Readonly<Record<string, string>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };

/** Streamable HTTP headers must agree with the body; stdio has none. */
export const headers: Stage<'headers', Versioned> = {
  name: 'headers',
  run(s) {
    const header = s.message.header;
    if (header === undefined) return s;
    const protocolVersion = header(HEADER.protocolVersion);
    if (protocolVersion === undefined) return fail(rpcError('headerMismatch', 'Header mismatch: missing required header MCP-Protocol-Version'));
    if (protocolVersion.trim() !== s.version) {
      return fail(rpcError('headerMismatch', `Header mismatch: MCP-Protocol-Version ${renderJson(protocolVersion.trim())} differs from _meta protocolVersion ${renderJson(s.version)}`));
    }
    const method = header(HEADER.method);
    if (method === undefined) return fail(rpcError('headerMismatch', 'Header mismatch: missing required header Mcp-Method'));
    if (method.trim() !== s.method) {
      return fail(rpcError('headerMismatch', `Header mismatch: Mcp-Method ${renderJson(method.trim())} differs from method ${renderJson(s.method)}`));
    }
    const nameParam = NAME_PARAM[s.method];
    if (nameParam === undefined) return s;
    const bodyName = s.params[nameParam];
    if (typeof bodyName !== 'string') return s;
    const raw = header(HEADER.name);
    if (raw === undefined) return fail(rpcError('headerMismatch', 'Header mismatch: missing required header Mcp-Name'));
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) return fail(rpcError('headerMismatch', `Header mismatch: Mcp-Name ${decoded.reason}`));
    if (decoded.value !== bodyName) {
      return fail(rpcError('headerMismatch', `Header mismatch: Mcp-Name ${renderJson(decoded.value)} differs from params.${nameParam} ${renderJson(bodyName)}`));
    }
    return s;
  },
};
