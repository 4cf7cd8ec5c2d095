import type { RobotServer } from './create-robot-server.js';

/** The start-up warning when the operator turned human approval off (main.ts and server.ts print the same). */
export function approvalOffWarning(): string {
  return [
    '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
    '!! WARNING: HUMAN APPROVAL IS OFF. Every checked motion runs without asking.   !!',
    '!! Acceptable for pure simulation only; never with real hardware.             !!',
    '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
  ].join('\n');
}

/** One banner line telling the operator how to clear a latched emergency stop. */
export function operatorResetHint(pid: number = process.pid): string {
  return `kill -USR2 ${pid}   clears a latched emergency stop (no tool can)`;
}

/**
 * The operator's reset, never a tool: SIGUSR2 to this process clears a latched emergency stop,
 * acknowledges a protective-stop fault and a broken audit chain, each written to the audit log. `log` receives one line per
 * outcome. Returns a function that removes the handler.
 */
export function installOperatorReset(robot: RobotServer, log: (line: string) => void): () => void {
  const reset = async (): Promise<void> => {
    const operator = `operator (SIGUSR2 to pid ${process.pid})`;
    // Logged once the controller confirmed it: a motion asked for after this line is accepted.
    try {
      const cleared = await robot.clearEmergencyStop(operator);
      log(cleared ? 'robot-arm: emergency stop cleared by the operator' : 'robot-arm: no emergency stop was latched');
    } catch (error) {
      log(`robot-arm: emergency stop NOT cleared: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      if (await robot.clearFault(operator)) log('robot-arm: protective-stop fault acknowledged by the operator');
    } catch (error) {
      log(`robot-arm: fault NOT cleared: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      if (robot.acknowledgeAuditBreak(operator)) log('robot-arm: broken audit chain acknowledged by the operator; motion accepted again');
    } catch (error) {
      log(`robot-arm: audit break NOT acknowledged: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  let running: Promise<void> = Promise.resolve();
  // Signals in a row are handled one after another, each after the one before has been confirmed.
  const onSignal = (): void => {
    running = running.then(reset);
  };
  process.on('SIGUSR2', onSignal);
  return () => {
    process.off('SIGUSR2', onSignal);
  };
}
