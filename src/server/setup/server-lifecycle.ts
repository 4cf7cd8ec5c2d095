/**
 * A server's life around its requests: the background validator build, middleware opened when
 * serving starts (never when a module is only loaded for its definitions, as lint and preview
 * do), and the shutdown order.
 */
import type { HttpListener } from '../../transport/node-http.js';
import type { StdioConnection } from '../../transport/stdio.js';
import type { LegacyHttpWire } from '../legacy/index.js';
import { closeMiddleware, openMiddleware } from '../middleware/middleware.js';
import type { Middleware } from '../middleware/middleware.js';
import type { ServerApprovalQueue } from '../approvals/operator-approvals.js';
import type { ServerLogger } from '../pipeline/create-pipeline.js';
import type { ChangeRelay } from '../catalog/change-relay.js';
import type { SubscriptionHub } from '../catalog/subscriptions.js';
import type { TaskEngine } from '../pipeline/task-engine.js';
import { warmValidators } from '../tools/tool-registry.js';
import type { RegisteredTool } from '../tools/tool-registry.js';

// How long a serving server with no traffic waits before building its validators in the background.
const WARM_IDLE_MS = 200;

/** What the shutdown stops, in order. */
export interface ServerParts {
  readonly approvals: ServerApprovalQueue;
  readonly tasks: TaskEngine | undefined;
  readonly changes: ChangeRelay;
  readonly hub: SubscriptionHub;
  readonly httpWires: Iterable<LegacyHttpWire>;
  readonly connections: Set<StdioConnection>;
  readonly listeners: Set<HttpListener>;
}

/** The lifecycle of one server. */
export interface ServerLifecycle {
  /** The first answer starts the background validator build (idempotent). */
  startWarming(): void;
  /** Serving started with no message yet: build the validators after a short idle wait. */
  warmWhenIdle(): void;
  /** Opens every middleware's files and locks, once; each serving entry point calls it. */
  openForServing(): void;
  /** Refuses held calls, ends tasks, streams and transports, then closes the middleware. */
  close(parts: ServerParts): Promise<void>;
}

export function createServerLifecycle(registered: readonly RegisteredTool[], middleware: readonly Middleware[], logger: ServerLogger): ServerLifecycle {
  // Validators are built on first use. The rest are built in the background (warmValidators) once
  // the server has answered its first message, so that answer (typically server/discover) never
  // waits for the schema compiler, whose loading is one synchronous ~100 ms step; or, when no
  // message comes, WARM_IDLE_MS after serving starts.
  let stopWarming: (() => void) | undefined;
  let idleWarm: NodeJS.Timeout | undefined;
  let opened = false;
  const startWarming = (): void => {
    if (idleWarm !== undefined) clearTimeout(idleWarm);
    stopWarming ??= warmValidators(registered, (tool, field, message) => {
      logger.error('tool schema could not be compiled; calls to this tool fail closed', { tool, field, reason: message });
    });
  };
  return {
    startWarming,
    warmWhenIdle() {
      if (stopWarming === undefined && idleWarm === undefined) idleWarm = setTimeout(startWarming, WARM_IDLE_MS).unref();
    },
    openForServing() {
      if (opened) return;
      openMiddleware(middleware);
      opened = true;
    },
    async close(parts) {
      if (idleWarm !== undefined) clearTimeout(idleWarm);
      stopWarming?.();
      const held = parts.approvals.pending().length > 0;
      await parts.approvals.close();
      await parts.tasks?.close();
      await parts.changes.close();
      const listening = parts.hub.size > 0;
      if (listening) parts.hub.close();
      // Refused held calls and ended subscriptions answer with a result; give those replies a turn to reach the wire before sockets close.
      if (held || listening) await new Promise<void>((resolve) => setImmediate(resolve));
      for (const wire of parts.httpWires) wire.close();
      for (const connection of parts.connections) connection.close();
      parts.connections.clear();
      await Promise.all([...parts.listeners].map((l) => l.close()));
      parts.listeners.clear();
      // Last, once nothing can call a tool any more: an audit log then records every call answered.
      await closeMiddleware(middleware, (name, error) => {
        logger.error(`middleware ${name}: close() threw`, { reason: error instanceof Error ? error.message : String(error) });
      });
    },
  };
}
