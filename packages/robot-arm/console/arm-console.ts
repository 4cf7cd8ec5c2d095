/**
 * The robot console: the arm tab (live view, approval queue, e-stop, audit tail) beside the
 * workbench, mounted on the robot server's listener. State updates are coalesced to at most
 * `maxUpdatesPerSecond` (default 30, above the 20/s the view needs) so a fast simulator cannot
 * flood pages or the server. With `holdToRun`, the console acts as an enabling device: when the
 * last console page goes away while the arm moves, the arm is stopped (e-stop latched, reset by the
 * operator), as when a pendant's enabling switch is released.
 */
import { presenceUpdateOf } from '../driver/arm-driver.js';
import type { McpServer, StageEvent } from 'toolwright';
import { createApprovalRoutes, createConsoleMount, createWorkbench, LiveChannel } from 'toolwright/console';
import type { ConsoleMount, ConsoleReply } from 'toolwright/console';
import type { UserApprovalBoard } from '../server/user-approval-board.js';
import type { ArmFeed, ArmState } from '../view/arm-feed.js';

/** Options of {@link createArmConsole}. */
export interface ArmConsoleOptions {
  server: McpServer;
  feed: ArmFeed;
  /** Who decides, as approval and audit records name them (default "console operator"). */
  operator?: string;
  /** Stop the arm when the last console page disconnects during a motion (default false). */
  holdToRun?: boolean;
  token?: string;
  maxUpdatesPerSecond?: number;
  subscribeStageEvents?: (listener: (event: StageEvent) => void) => () => void;
  /**
   * Motions asked of a client's user (elicitation), shown as "awaiting the client's user": the
   * operator may decline them or e-stop, never approve them for the user. The robot's is
   * `robot.approval.awaitingUser`.
   */
  awaitingUser?: UserApprovalBoard;
}

/** Creates the robot console mount (pass it to `listen({ mounts })`). */
export function createArmConsole(options: ArmConsoleOptions): ConsoleMount {
  const { server, feed } = options;
  const operator = options.operator ?? 'console operator';
  const channel = new LiveChannel();
  const approvals = createApprovalRoutes(server.approvals, channel, operator);
  const workbench = createWorkbench({ server, channel, operator, ...(options.subscribeStageEvents !== undefined ? { subscribeStageEvents: options.subscribeStageEvents } : {}) });
  workbench.catalog();

  const minGapMs = 1000 / (options.maxUpdatesPerSecond ?? 30);
  let lastSent = 0;
  let latest: ArmState | undefined;
  let timer: NodeJS.Timeout | undefined;
  let moving = feed.snapshot().state.moving;
  const flush = (): void => {
    timer = undefined;
    if (latest === undefined) return;
    lastSent = performance.now();
    channel.broadcast('state', latest);
    latest = undefined;
  };
  const stopFeed = feed.subscribe((event) => {
    if (event.type !== 'state') {
      if (latest !== undefined) flush();
      channel.broadcast(event.type, event);
      return;
    }
    moving = event.state.moving;
    latest = event.state;
    // A stop or a start is sent at once; in-between poses are coalesced.
    const gap = performance.now() - lastSent;
    if (!event.state.moving || event.state.estop.latched || gap >= minGapMs) {
      if (timer !== undefined) clearTimeout(timer);
      flush();
    } else timer ??= setTimeout(flush, minGapMs - gap);
  });
  const board = options.awaitingUser;
  const stopBoard = board?.subscribe((event) => channel.broadcast('awaiting-user', event)) ?? (() => undefined);
  const declineForUser = (body: unknown): ConsoleReply => {
    if (board === undefined) return { status: 404, json: { error: 'this console shows no motions awaiting a client\'s user' } };
    const id = (body as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || id === '') return { status: 400, json: { error: '"id" must be the id of a motion awaiting the client\'s user' } };
    const result = board.decline(id, operator);
    return result.ok ? { status: 200, json: { declined: id, operator } } : { status: 404, json: { error: result.message, reason: result.reason } };
  };

  const stopWatch = options.holdToRun === true
    ? channel.onCountChange((count) => {
        if (count === 0 && moving) feed.emergencyStop(operator, 'hold-to-run: the console disconnected during a motion');
      })
    : () => undefined;

  const estop = (body: unknown): ConsoleReply => {
    const reason = typeof (body as { reason?: unknown } | null)?.reason === 'string' ? (body as { reason: string }).reason : 'e-stop pressed in the console';
    feed.emergencyStop(operator, reason);
    return { status: 200, json: { latched: true } };
  };
  const reset = async (body: unknown): Promise<ConsoleReply> => {
    // The page asks for a confirmation; the API insists on it too, so no stray POST resets.
    if ((body as { confirm?: unknown } | null)?.confirm !== true) return { status: 400, json: { error: 'resetting the e-stop needs {"confirm": true}' } };
    let cleared: boolean;
    try {
      cleared = await feed.resetEmergencyStop(operator);
    } catch (error) {
      // The controller did not confirm the release: the stop stays latched, and the page says why.
      return { status: 503, json: { error: error instanceof Error ? error.message : String(error) } };
    }
    return cleared ? { status: 200, json: { cleared: true } } : { status: 409, json: { error: 'no emergency stop is latched' } };
  };

  // Operator action: where the person is and the zones (the simulated presence sensor), audited by name.
  const presence = async (body: unknown): Promise<ConsoleReply> => {
    const update = presenceUpdateOf(body);
    if (typeof update === 'string') return { status: 400, json: { error: update } };
    if (feed.setPresence === undefined) return { status: 404, json: { error: 'this cell has no presence sensor to set' } };
    try {
      const status = await feed.setPresence(operator, update);
      return { status: 200, json: { zone: status.zone, allowedTcpSpeedMmS: status.allowedTcpSpeedMmS, operator } };
    } catch (error) {
      return { status: 409, json: { error: error instanceof Error ? error.message : String(error) } };
    }
  };

  const mount = createConsoleMount({
    ...(options.token !== undefined ? { token: options.token } : {}),
    title: `${server.name}: operator console`,
    pages: [{ id: 'arm', title: 'Arm', entry: new URL('./web/arm-page', import.meta.url) }, workbench.page],
    routes: [
      ...approvals.routes,
      ...workbench.routes,
      { method: 'GET', path: '/api/arm', handle: () => ({ status: 200, json: feed.snapshot() }) },
      { method: 'POST', path: '/api/estop', handle: (r) => estop(r.body) },
      { method: 'POST', path: '/api/estop/reset', handle: (r) => reset(r.body) },
      { method: 'POST', path: '/api/presence', handle: (r) => presence(r.body) },
      { method: 'POST', path: '/api/approvals/decline-user', handle: (r) => declineForUser(r.body) },
    ],
    channel,
    snapshot: () => [{ event: 'snapshot', data: feed.snapshot() }, ...approvals.snapshot(), { event: 'awaiting-users', data: board?.list() ?? [] }, { event: 'console', data: { operator, holdToRun: options.holdToRun === true } }],
  });
  return {
    ...mount,
    close() {
      if (timer !== undefined) clearTimeout(timer);
      stopFeed();
      stopBoard();
      stopWatch();
      approvals.close();
      mount.close();
    },
  };
}

