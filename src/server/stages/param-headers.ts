import { checkParamHeaders } from '../../protocol/x-mcp-header.js';
import { rpcError } from '../outcomes.js';
import { fail } from './stage.js';
import type { Stage, ToolFound } from './stage.js';

/** Arguments the tool mirrors into `Mcp-Param-*` headers must match them (x-mcp-header). */
export const paramHeaders: Stage<'param-headers', ToolFound> = {
  name: 'param-headers',
  run(s) {
    const header = s.message.header;
    if (header === undefined || s.tool.headers.length === 0) return s;
    const problem = checkParamHeaders(s.tool.headers, s.args, header);
    return problem === null ? s : fail(rpcError('headerMismatch', problem));
  },
};
