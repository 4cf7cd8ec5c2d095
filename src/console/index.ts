/**
 * The operator console: routes mounted on the MCP server's listener (`/console`), guarded by the
 * listener's Host/Origin rules and a per-start token, with a live SSE channel and bundled pages.
 * `createWorkbenchConsole` is the workbench for any server; the robot arm adds its own tab.
 */
export { createConsoleMount, CONSOLE_PATH } from './console-mount.js';
export type { ConsoleMount, ConsoleOptions, ConsolePage, ConsoleReply, ConsoleRequest, ConsoleRoute, LiveEvent } from './console-mount.js';
export { assertConsoleToken, createConsoleToken, checkConsoleToken, CONSOLE_TOKEN_HEADER } from './console-token.js';
export type { TokenCheck } from './console-token.js';
export { LiveChannel } from './live-channel.js';
export type { LiveChannelOptions } from './live-channel.js';
export { createWorkbench } from './workbench.js';
export type { Workbench, WorkbenchCall, WorkbenchCatalog, WorkbenchOptions, WorkbenchTool, ProviderView } from './workbench.js';
export { createApprovalRoutes } from './approval-routes.js';
export type { ApprovalRoutes } from './approval-routes.js';
export { bundleBrowserEntry, createAsset } from './static-assets.js';
export type { StaticAsset } from './static-assets.js';
export { createStageEventFanout } from './stage-event-fanout.js';
export type { StageEventFanout } from './stage-event-fanout.js';
import type { McpServer } from '../server/create-server.js';
import type { StageEvent } from '../server/stages/stage-events.js';
import { createConsoleMount } from './console-mount.js';
import type { ConsoleMount } from './console-mount.js';
import { LiveChannel } from './live-channel.js';
import { createWorkbench } from './workbench.js';
import { createApprovalRoutes } from './approval-routes.js';

/** Options of {@link createWorkbenchConsole}. */
export interface WorkbenchConsoleOptions {
  /** Console token; default random per start. */
  token?: string;
  /** Subscribes to the server's stage events, so direct calls show their stages. */
  subscribeStageEvents?: (listener: (event: StageEvent) => void) => () => void;
  /** Who decides in the approvals tab and calls from the workbench, as approval and audit records name them (default `console operator`). */
  operator?: string;
}

/**
 * The console for any server (what `toolwright serve <module> --console` mounts): the workbench,
 * and the approvals tab where an operator decides the calls the server holds
 * (`ctx.approvals.awaitOperator`, the hook's `approver: 'operator'`).
 *
 * @example
 * ```ts
 * import { createServer, defineTool } from 'toolwright';
 * import { createStageEventFanout, createWorkbenchConsole } from 'toolwright/console';
 *
 * const echo = defineTool({
 *   name: 'echo',
 *   inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const,
 *   run: ({ text }) => text,
 * });
 * // The fan-out lets the console show each call's stages beside any other listener.
 * const stages = createStageEventFanout();
 * const server = createServer({ name: 'demo', version: '1.0.0', tools: [echo], onStageEvent: stages.onStageEvent });
 * const consoleMount = createWorkbenchConsole(server, { operator: 'Ada', subscribeStageEvents: stages.subscribe });
 * await consoleMount.ready();
 * const listener = await server.listen({ port: 3000, mounts: [consoleMount] });
 * console.error(`console: ${consoleMount.url(listener)}`); // the address carries the operator's token
 * ```
 */
export function createWorkbenchConsole(server: McpServer, options: WorkbenchConsoleOptions = {}): ConsoleMount {
  const channel = new LiveChannel();
  const workbench = createWorkbench({ server, channel, ...(options.operator !== undefined ? { operator: options.operator } : {}), ...(options.subscribeStageEvents !== undefined ? { subscribeStageEvents: options.subscribeStageEvents } : {}) });
  const approvals = createApprovalRoutes(server.approvals, channel, options.operator ?? 'console operator');
  // Lint and provider mapping run now, at start, so the first page load does not wait for them.
  workbench.catalog();
  let mount: ConsoleMount;
  try {
    mount = createConsoleMount({
      ...(options.token !== undefined ? { token: options.token } : {}),
      title: `${server.name}: Toolwright console`,
      // `../console/web/`: this file also runs bundled from dist/bundle/, one folder below dist/ as here.
      pages: [workbench.page, { id: 'approvals', title: 'Approvals', entry: new URL('../console/web/approvals-page', import.meta.url) }],
      routes: [...workbench.routes, ...approvals.routes],
      channel,
      snapshot: () => [...workbench.snapshot(), ...approvals.snapshot()],
    });
  } catch (error) {
    // No console after all (a bad token): calls must not be told to look for one.
    approvals.close();
    throw error;
  }
  return {
    ...mount,
    close() {
      approvals.close();
      mount.close();
    },
  };
}
