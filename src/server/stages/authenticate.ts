import { rpcError } from '../outcomes.js';
import type { AuthInfo } from '../tool-types.js';
import { errorMessage, extend, fail } from './stage.js';
import type { Received, Stage } from './stage.js';

const NO_HEADER = (): undefined => undefined;

/**
 * Who is calling. Runs for every message; without an `authorize` option it passes at once and the
 * caller stays anonymous (`auth` undefined).
 */
export const authenticate: Stage<'authenticate', Received> = {
  name: 'authenticate',
  run(s, env) {
    const authorizer = env.authorize;
    if (authorizer === undefined) return s;
    const header = s.message.header ?? NO_HEADER;
    const authorization = header('authorization');
    const bearer = authorization !== undefined && /^bearer\s+/i.test(authorization) ? authorization.replace(/^bearer\s+/i, '').trim() : undefined;
    const refuse = () => {
      const challenge = `Bearer${env.resourceMetadataParam ? env.resourceMetadataParam.slice(1) : ''}`;
      return fail(rpcError('unauthenticated', 'Unauthorized: a valid bearer token is required', {
        headers: s.message.transport === 'http' ? { 'WWW-Authenticate': challenge } : undefined,
      }));
    };
    const decided = (auth: AuthInfo | null) => (auth === null ? refuse() : extend(s, { auth }));
    const threw = (error: unknown) => {
      env.logger.error('authorize() threw; request refused', { error: errorMessage(error) });
      return refuse();
    };
    try {
      return Promise.resolve(authorizer({ transport: s.message.transport, header, bearerToken: bearer })).then(decided, threw);
    } catch (error) {
      return threw(error);
    }
  },
};
