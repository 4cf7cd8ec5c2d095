import { CallContext } from './call-context.js';
import { grown } from './stage.js';
import type { Redeemed, Shaped, Stage } from './stage.js';

/**
 * Makes the handler context (`ctx`) once the arguments passed the shape check: business rules,
 * authorization, approval and `run` all get it. A task's later rounds get a fresh one from the
 * task engine, since their progress and signal are the task's, not the creating request's.
 */
export const context: Stage<'context', Redeemed, Shaped> = {
  name: 'context',
  run(s, env) {
    const out: Shaped = grown(s);
    out.ctx = new CallContext(s, env);
    return out;
  },
};
