import { insufficientScope } from '../auth/scope-refusal.js';
import { fail } from './stage.js';
import type { Shaped, Stage } from './stage.js';

/** The caller must hold every scope the tool requires (403 with an RFC 6750 challenge otherwise). */
export const authorize: Stage<'authorize', Shaped> = {
  name: 'authorize',
  run(s, env) {
    const needed = s.tool.tool.scopes;
    if (needed.length === 0) return s;
    const refusal = insufficientScope(`tool ${s.tool.name}`, needed, s.auth, s.message.transport, env.challenge);
    return refusal === undefined ? s : fail(refusal);
  },
};
