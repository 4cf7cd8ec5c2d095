/**
 * The ArmDriver contract (test/driver/arm-driver-contract.ts) run against RemoteArmDriver: every
 * subject is a fresh `robot-sim` child process (its own socket directory, latch and pose files),
 * reached over the controller protocol. The fault it provokes is the real one of a remote driver:
 * the controller process is killed (SIGKILL, by the PID this test's supervisor started). The
 * heartbeat bound is wide here (hangs are controller-faults.test.ts's subject): on a loaded machine a
 * fresh controller's first path check can block it for over a second.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RemoteArmDriver } from '../../controller/remote-arm-driver.js';
import { createArmModel } from '../../model/arm-model.js';
import { armDriverContract, type DriverSubject } from '../driver/arm-driver-contract.js';

async function remoteSubject(): Promise<DriverSubject> {
  const dir = mkdtempSync(join(tmpdir(), 'robot-sim-contract-'));
  const posePath = join(dir, 'pose.json');
  const driver = await RemoteArmDriver.start({ preset: 'ur5e', latchPath: join(dir, 'estop.json'), posePath, timeScale: 2, heartbeatTimeoutMs: 10_000, log: () => undefined });
  return {
    driver,
    model: createArmModel({ preset: 'ur5e' }),
    // The controller's simulation writes every change (every frame of a motion) to its pose file.
    groundTruthJoints: () => (JSON.parse(readFileSync(posePath, 'utf8')) as { jointsDeg: number[] }).jointsDeg,
    async close() {
      await driver.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

armDriverContract('RemoteArmDriver (robot-sim child process)', {
  create: remoteSubject,
  fault: {
    kind: 'disconnected',
    async provoke(subject) {
      const driver = subject.driver as RemoteArmDriver;
      const faulted = new Promise<void>((resolve) => {
        const off = driver.onFault(() => {
          off();
          resolve();
        });
      });
      process.kill(driver.supervisor.pid!, 'SIGKILL');
      await faulted;
    },
  },
});
