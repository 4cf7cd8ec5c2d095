import { rpcError } from '../outcomes.js';
import { fail } from './stage.js';
import { insufficientScopeChallenge } from '../auth/bearer-challenge.js';
import type { Shaped, Stage } from './stage.js';

/** The caller must hold every scope the tool requires (403 with an RFC 6750 challenge otherwise). */
export const authorize: Stage<'authorize', Shaped> = {
  name: 'authorize',
  run(s, env) {
    const needed = s.tool.tool.scopes;
    if (needed.length === 0) return s;
    const granted = s.auth?.scopes ?? [];
    if (needed.every((scope) => granted.includes(scope))) return s;
    const message = `Insufficient scope: tool ${s.tool.name} requires ${needed.map((x) => JSON.stringify(x)).join(', ')}`;
    const challenge = insufficientScopeChallenge(env.challenge, needed, message);
    return fail(rpcError('insufficientScope', message, {
      data: { requiredScopes: [...needed] },
      headers: s.message.transport === 'http' ? { 'WWW-Authenticate': challenge } : undefined,
    }));
  },
};
