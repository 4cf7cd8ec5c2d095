import type { Server } from 'node:http';
import type { RobotServer } from './create-robot-server.js';

/** How long a graceful shutdown waits for in-flight calls before closing anyway. */
export const SHUTDOWN_DRAIN_MS = 10_000;

/** Counts the HTTP requests still being answered, so a shutdown can wait for them. */
export function trackInFlight(server: Server): { count: () => number; idle: () => Promise<void> } {
  let inFlight = 0;
  let waiters: Array<() => void> = [];
  server.on('request', (_req, res) => {
    inFlight++;
    res.once('close', () => {
      inFlight--;
      if (inFlight === 0) { for (const wake of waiters) wake(); waiters = []; }
    });
  });
  return {
    count: () => inFlight,
    idle: () => (inFlight === 0 ? Promise.resolve() : new Promise((wake) => waiters.push(wake))),
  };
}

/**
 * The first signal's shutdown: stop accepting connections, bring a running motion to a controlled
 * stop (its call answers, saying it was stopped because the server is shutting down), wait up to
 * `deadlineMs` for in-flight calls to be answered, then close (audit `server_stop`).
 */
export async function shutDownGracefully(robot: RobotServer, http: { server: Server; inFlight: ReturnType<typeof trackInFlight> } | undefined, deadlineMs: number, log: (line: string) => void): Promise<void> {
  http?.server.close();
  await robot.controller.stop('controlled', 'server shutting down', 'operator');
  if (http !== undefined && http.inFlight.count() > 0) {
    log(`robot-arm: waiting up to ${deadlineMs} ms for ${http.inFlight.count()} in-flight call(s)`);
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      http.inFlight.idle().then(() => true),
      new Promise<boolean>((done) => { timer = setTimeout(() => done(false), deadlineMs); }),
    ]);
    clearTimeout(timer);
    if (!drained) log(`robot-arm: ${http.inFlight.count()} call(s) still in flight after ${deadlineMs} ms; closing them`);
  }
  await robot.close();
}

/** The second signal: no more waiting. The stop is recorded (best effort) and the process exits. */
export function exitAtOnce(robot: RobotServer, signal: string): never {
  try { robot.audit.append({ type: 'server_stop', forced: true, signal }); } catch { /* already closed */ }
  process.exit(signal === 'SIGINT' ? 130 : 143);
}
