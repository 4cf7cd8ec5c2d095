import { rpcError } from '../outcomes.js';
import { fail, respond, toolStop } from './stage.js';
import type { Executed, Stage } from './stage.js';

/** The structured result against the output schema: a broken promise is withheld (-32603). */
export const output: Stage<'output', Executed> = {
  name: 'output',
  run(s, env) {
    const tool = s.tool;
    const result = s.result;
    // OUTCOMES.errorResultUnchecked: an error result describes a failure, not the promised output.
    if (result.isError === true) return toolStop(result);
    if (tool.output !== undefined) {
      if (result.structuredContent === undefined) {
        env.logger.error('tool returned no structuredContent although it declares an outputSchema', { tool: tool.name });
        return fail(rpcError('outputContractBroken', `Internal error: tool ${tool.name} returned no structuredContent although it declares an outputSchema`));
      }
      const verdict = tool.output.validate(result.structuredContent);
      if (!verdict.valid) {
        env.logger.error('tool output breaks its outputSchema; the value was withheld', {
          tool: tool.name,
          structuredContent: result.structuredContent,
          errors: verdict.errors.map((e) => e.message),
        });
        return fail(rpcError('outputContractBroken', `Internal error: tool ${tool.name} produced output that breaks its outputSchema`));
      }
    }
    return respond(result);
  },
};
