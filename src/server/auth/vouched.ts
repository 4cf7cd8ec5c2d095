/**
 * A caller authenticated once, in front of the runner. The era router authenticates a 2025
 * session's HTTP request before the legacy wire sees it (every request of a session is checked on
 * its own); the translated request the wire then hands to the pipeline is vouched for here, so the
 * `authenticate` stage takes the answer instead of asking the authorizer a second time.
 *
 * A WeakMap keyed by the message object, not a field on it: an `InboundMessage` is public (custom
 * transports build their own), and a field would let any of them claim to be authenticated.
 */
import type { InboundMessage } from '../../transport/message-dispatcher.js';
import type { AuthInfo } from '../contract/tool-types.js';

const vouched = new WeakMap<InboundMessage, AuthInfo>();

/** Records that `message` comes from the caller `auth`, already authenticated by the server itself. */
export function vouchFor(message: InboundMessage, auth: AuthInfo): void {
  vouched.set(message, auth);
}

/** The caller the server already authenticated for `message`, if any. */
export function vouchedAuth(message: InboundMessage): AuthInfo | undefined {
  return vouched.get(message);
}
