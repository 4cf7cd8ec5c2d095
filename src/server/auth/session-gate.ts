/**
 * Authorization for the parts of a 2025 session that never reach the pipeline: `initialize`, the
 * session's notifications and answers to server requests (POST), its GET stream and its DELETE.
 * Each request is checked on its own (MCP authorization: a token on every HTTP request), with the
 * pipeline's own `authenticate` stage, so the answer is the same 401/400/503 with the same
 * challenge. Session requests that do reach the pipeline are authenticated there again (the
 * authorizer is called twice for them; `jwtAuthorizer` answers the second from its cache).
 */
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { HeaderLookup, InboundMessage, MessageDispatcher, Reply, SessionEndpoint } from '../../transport/message-dispatcher.js';
import { authenticate } from '../stages/authenticate.js';
import type { PipelineEnv } from '../stages/pipeline-env.js';
import { receive } from '../stages/stage.js';
import type { Received, Stop } from '../stages/stage.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../eras.js';

type GateEnv = Pick<PipelineEnv, 'authorize' | 'challenge' | 'logger'>;

const BODILESS: InboundMessage = {
  body: '',
  transport: 'http',
  header: undefined,
  signal: new AbortController().signal,
  isAborted: () => false,
  notify: () => undefined,
};

function isStop(value: unknown): value is Stop {
  return isJsonObject(value) && typeof value.kind === 'string' && !('message' in value);
}

/** undefined when the caller may go on, else the refusal. */
async function refusal(env: GateEnv, message: InboundMessage): Promise<Reply | undefined> {
  const state: Received = receive(message);
  const outcome = await authenticate.run(state, env as PipelineEnv);
  if (!isStop(outcome) || outcome.kind !== 'error') return undefined;
  const reply: Reply = { status: outcome.error.httpStatus, body: JSON.stringify(outcome.error.toResponse(undefined)) };
  if (outcome.error.headers !== undefined) reply.headers = outcome.error.headers;
  return reply;
}

const LEGACY = new Set<string>(LEGACY_PROTOCOL_VERSIONS);

/** True for a POST the 2025 wire may answer itself (no 2026-07-28 claim in its headers). */
function mayBeLegacy(message: InboundMessage): boolean {
  const version = message.header?.('mcp-protocol-version')?.trim();
  return version === undefined || LEGACY.has(version);
}

/** `dispatcher` with every 2025-session request authenticated first; modern requests pass untouched (the pipeline checks them). */
export function gateSessions<D extends MessageDispatcher & { sessions?: SessionEndpoint }>(dispatcher: D, env: GateEnv): MessageDispatcher & { sessions?: SessionEndpoint } {
  if (env.authorize === undefined) return dispatcher;
  const sessions = dispatcher.sessions;
  const asMessage = (header: HeaderLookup): InboundMessage => ({ ...BODILESS, header });
  return {
    async handleMessage(message) {
      if (message.transport !== 'http' || !mayBeLegacy(message)) return dispatcher.handleMessage(message);
      return (await refusal(env, message)) ?? dispatcher.handleMessage(message);
    },
    ...(sessions === undefined
      ? {}
      : {
        sessions: {
          openStream: async (header) => (await refusal(env, asMessage(header))) ?? sessions.openStream(header),
          endSession: async (header) => (await refusal(env, asMessage(header))) ?? sessions.endSession(header),
        },
      }),
  };
}
