/**
 * The console's side of the one approval mechanism: the calls a server holds open for an operator
 * (`server.approvals`), live as `approval` events, and approve/decline bound to the digest the
 * operator saw. Decisions go through `server.approvals.decide`, single use; the record names the
 * operator the console was started for.
 */
import type { ApprovalQueue, PendingApproval } from '../server/approvals/operator-approvals.js';
import { CONSOLE_PATH } from './console-mount.js';
import type { ConsoleReply, ConsoleRoute, LiveEvent } from './console-mount.js';
import type { LiveChannel } from './live-channel.js';

/** The console's approval routes, what a page gets on connecting, and the end of the listening. */
export interface ApprovalRoutes {
  routes: ConsoleRoute[];
  /** What a page that connects now is sent first (every approval still waiting). */
  snapshot(): LiveEvent[];
  /** Stops listening to the approval queue. */
  close(): void;
}

const STATUS: Record<'unknown' | 'settled' | 'wrong-digest', number> = { unknown: 404, settled: 409, 'wrong-digest': 409 };

/**
 * Wires `queue` to the console. `operator` names who decides in the approval record (the console
 * is one operator's: it holds the token).
 */
export function createApprovalRoutes(queue: ApprovalQueue, channel: LiveChannel, operator: string): ApprovalRoutes {
  if (operator.trim() === '') throw new TypeError('console: the operator name must not be empty');
  const stop = queue.subscribe((event) => channel.broadcast('approval', event));
  // A client whose call is held learns from its progress messages where the operator decides it
  // (the path only: the console's address with its token is the operator's, never the client's).
  const withdraw = queue.advertise(`in the operator console at ${CONSOLE_PATH} on this server`);
  async function decide(body: unknown): Promise<ConsoleReply> {
    if (typeof body !== 'object' || body === null) return { status: 400, json: { error: 'body must be {"id", "approve", "digest"}' } };
    const { id, approve, digest } = body as { id?: unknown; approve?: unknown; digest?: unknown };
    if (typeof id !== 'string' || id === '') return { status: 400, json: { error: '"id" must be the id of a pending approval' } };
    if (typeof approve !== 'boolean') return { status: 400, json: { error: '"approve" must be true or false' } };
    if (digest !== undefined && typeof digest !== 'string') return { status: 400, json: { error: '"digest" must be a string' } };
    if (approve && digest === undefined) return { status: 400, json: { error: 'approving needs the "digest" the operator saw' } };
    const result = await queue.decide(id, { approve, operator, ...(digest !== undefined ? { digest } : {}) });
    if (!result.ok) return { status: STATUS[result.reason], json: { error: result.message, reason: result.reason } };
    return { status: 200, json: { decided: approve ? 'approved' : 'declined', id, operator: result.decidedBy.operator } };
  }
  return {
    routes: [
      { method: 'GET', path: '/api/approvals', handle: () => ({ status: 200, json: queue.pending() satisfies readonly PendingApproval[] }) },
      { method: 'POST', path: '/api/approvals/decide', handle: (request) => decide(request.body) },
    ],
    snapshot: () => [{ event: 'approvals', data: queue.pending() }],
    close: () => {
      stop();
      withdraw();
    },
  };
}
