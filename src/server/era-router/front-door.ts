/**
 * Authentication in front of the 2025 wire: the era router asks here, once per HTTP request, for
 * every request of a 2025 session (`initialize`, calls, notifications, answers to server requests,
 * the GET stream, DELETE). MCP authorization wants a token on every HTTP request, never a session
 * remembered as authenticated. The check is the pipeline's own `authenticate` stage, so the
 * refusal is the same 401/400/503 with the same challenge; the caller it finds is vouched for on the
 * translated request (auth/vouched.ts), so the authorizer runs once per request, not twice.
 * Modern requests never come here: the pipeline's first stage authenticates them.
 */
import type { HeaderLookup, InboundMessage, Reply } from '../../transport/message-dispatcher.js';
import { authenticate } from '../stages/authenticate.js';
import type { PipelineEnv } from '../stages/pipeline-env.js';
import { receive } from '../stages/stage.js';
import type { AuthInfo } from '../contract/tool-types.js';

/** What the authorizer said about one request: the caller, or the reply refusing it. */
export type FrontDoorVerdict = { readonly auth: AuthInfo } | { readonly refused: Reply };

/** Authenticates one HTTP request (with its body) or one bodiless GET/DELETE (headers only). */
export interface FrontDoor {
  check(message: InboundMessage): Promise<FrontDoorVerdict>;
  checkHeaders(header: HeaderLookup): Promise<FrontDoorVerdict>;
}

type FrontDoorEnv = Pick<PipelineEnv, 'authorize' | 'challenge' | 'logger'>;

function bodiless(header: HeaderLookup, neverAborted: AbortSignal): InboundMessage {
  return { body: '', transport: 'http', header, signal: neverAborted, isAborted: () => false, notify: () => undefined };
}

/** The front door of a server with an `authorize` option; undefined without one (nothing to check). */
export function createFrontDoor(env: FrontDoorEnv): FrontDoor | undefined {
  if (env.authorize === undefined) return undefined;
  const stageEnv = env as PipelineEnv; // `authenticate` reads only these three members
  // Made here, not at module load: workerd refuses `new AbortController()` in a module's global
  // scope ("Disallowed operation called within global scope"), so a module-level one would stop a
  // Worker from loading at all (docs/deploy.md).
  const neverAborted = new AbortController().signal;
  async function check(message: InboundMessage): Promise<FrontDoorVerdict> {
    const outcome = await authenticate.run(receive(message), stageEnv);
    if ('kind' in outcome) {
      // The stage refuses only with an error stop.
      const error = outcome.kind === 'error' ? outcome.error : undefined;
      if (error === undefined) throw new Error(`authenticate stopped with ${outcome.kind}`);
      const refused: Reply = { status: error.httpStatus, body: JSON.stringify(error.toResponse(undefined)) };
      if (error.headers !== undefined) refused.headers = error.headers;
      return { refused };
    }
    const auth = outcome.auth;
    // An authorizer that answered must have named a caller (null is a refusal, handled by the stage).
    if (auth === undefined) throw new Error('authenticate passed without a caller');
    return { auth };
  }
  return { check, checkHeaders: (header) => check(bodiless(header, neverAborted)) };
}
