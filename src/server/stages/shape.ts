import { formatSchemaErrors } from '../../schema/index.js';
import { toolError } from '../outcomes.js';
import { toolStop } from './stage.js';
import type { Redeemed, Stage } from './stage.js';

/** The arguments against the tool's input schema (one compiled validator). */
export const shape: Stage<'shape', Redeemed> = {
  name: 'shape',
  run(s) {
    const tool = s.tool;
    const verdict = tool.input.validate(s.args);
    if (!verdict.valid) return toolStop(toolError('invalidArguments', `Invalid arguments for tool ${tool.name}:\n${formatSchemaErrors(verdict.errors)}`));
    return s;
  },
};
