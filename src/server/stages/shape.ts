import { formatSchemaErrors } from '../../schema/index.js';
import { CallContext } from '../call-context.js';
import { toolError } from '../outcomes.js';
import { extend, toolStop } from './stage.js';
import type { Redeemed, Shaped, Stage } from './stage.js';

/** The arguments against the tool's input schema (one compiled validator); then the handler context. */
export const shape: Stage<'shape', Redeemed, Shaped> = {
  name: 'shape',
  run(s, env) {
    const tool = s.tool;
    const verdict = tool.input.validate(s.args);
    if (!verdict.valid) return toolStop(toolError('invalidArguments', `Invalid arguments for tool ${tool.name}:\n${formatSchemaErrors(verdict.errors)}`));
    return extend(s, { ctx: new CallContext(s, env) });
  },
};
