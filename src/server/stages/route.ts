import { rpcError } from '../outcomes.js';
import { echoText } from '../../schema/describe-value.js';
import { fail } from './stage.js';
import type { Stage, Versioned } from './stage.js';

/** Every method but `tools/call` is answered here by its route; `tools/call` goes on to the call stages. */
export const route: Stage<'route', Versioned> = {
  name: 'route',
  run(s, env) {
    const method = s.method;
    if (method === 'tools/call') return s;
    const handler = env.routes.get(method);
    if (handler === undefined) return fail(rpcError('methodNotFound', `Method not found: ${echoText(method)}`));
    return handler(s);
  },
};
