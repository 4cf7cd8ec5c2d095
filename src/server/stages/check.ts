import { toolError } from '../outcomes.js';
import type { RuleViolation } from '../contract/tool-types.js';
import { CANCELLED, errorMessage, toolStop } from './stage.js';
import type { Shaped, Stage, Stop } from './stage.js';

function verdict(s: Shaped, violations: readonly (RuleViolation | string)[]): Shaped | Stop {
  if (!Array.isArray(violations) || violations.length === 0) return s;
  const lines = violations.map((v) => (typeof v === 'string' ? `- ${v}` : `- ${v.path !== undefined && v.path !== '' ? `${v.path}: ` : ''}${v.message}`));
  return toolStop(toolError('businessRuleViolation', `Tool ${s.tool.name} refused the call:\n${lines.join('\n')}`));
}

/** The tool's business rules (`check`). A tool without them stays synchronous here. */
export const check: Stage<'check', Shaped> = {
  name: 'check',
  run(s) {
    const rules = s.tool.tool.handlers.check;
    if (rules === undefined) return s;
    const threw = (error: unknown): Stop => {
      if (s.message.isAborted()) return CANCELLED;
      return toolStop(toolError('checkThrew', `Tool ${s.tool.name} could not check the arguments: ${errorMessage(error)}`));
    };
    try {
      return Promise.resolve(rules(s.args, s.ctx)).then((violations) => verdict(s, violations), threw);
    } catch (error) {
      return threw(error);
    }
  },
};
