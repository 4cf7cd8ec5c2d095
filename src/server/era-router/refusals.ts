/**
 * Answers the era router gives itself, when a message belongs to no era this server serves: no
 * stage and no 2025 session runs for them.
 */
import { META } from '../../protocol/constants.js';
import { SUPPORTED_PROTOCOL_VERSIONS, SERVER_LEGACY_PROTOCOL_VERSIONS } from '../../protocol/versions.js';
import { isJsonObject, isJsonRpcId } from '../../protocol/json-rpc.js';
import type { JsonObject } from '../../protocol/json-rpc.js';
import { echoText } from '../../schema/describe-value.js';
import type { InboundMessage, Reply } from '../../transport/message-dispatcher.js';
import { rpcError } from '../outcomes.js';
import { errorReply } from '../pipeline/reply.js';
import { parseBody } from './classify.js';

const NO_CONTENT: Reply = { status: 202, body: undefined };

/**
 * The answer of a server that serves the 2025 era only (eras: 'legacy') to anything but a 2025
 * session: -32022 naming the revisions it does serve.
 */
export function refuseModern(message: InboundMessage): Reply {
  let m = message.parsed;
  if (m === undefined) m = parseBody(message)?.value;
  const request = isJsonObject(m) ? m : {};
  const meta = isJsonObject(request.params) ? request.params._meta : undefined;
  const requested = isJsonObject(meta) && typeof meta[META.protocolVersion] === 'string' ? meta[META.protocolVersion] : (message.header?.('mcp-protocol-version') ?? 'none');
  if (!isJsonRpcId(request.id)) return NO_CONTENT;
  return errorReply(rpcError('unsupportedVersion', `Unsupported protocol version: ${String(requested)}; this server serves ${SERVER_LEGACY_PROTOCOL_VERSIONS.join(', ')} only (send initialize)`, {
    data: { supported: [...SERVER_LEGACY_PROTOCOL_VERSIONS], requested },
  }), request.id);
}

/**
 * A version header naming no revision served, on a request without a 2026-07-28 `_meta` claim: the
 * pipeline would report the missing `_meta`, but what is wrong is the version. Notifications get 202.
 */
export function unknownVersion(m: JsonObject | undefined, versionHeader: string): Reply {
  if (!isJsonRpcId(m?.id)) return NO_CONTENT;
  const supported = [...SUPPORTED_PROTOCOL_VERSIONS, ...SERVER_LEGACY_PROTOCOL_VERSIONS];
  const requested = echoText(versionHeader);
  return errorReply(rpcError('unsupportedVersion', `Unsupported protocol version: ${requested} (MCP-Protocol-Version header); this server supports ${supported.join(', ')}`, {
    data: { supported, requested },
  }), m.id);
}
