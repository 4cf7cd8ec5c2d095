/**
 * The ArmDriver contract (test/driver/arm-driver-contract.ts) run against RemoteArmDriver: every
 * subject is a fresh `robot-sim` child process (its own socket directory, latch and pose files),
 * reached over the controller protocol (test/support/driver-matrix.ts makes it). The fault it provokes
 * is the real one of a remote driver: the controller process is killed (SIGKILL, by the PID this
 * test's supervisor started). The heartbeat bound is wide here (hangs are controller-faults.test.ts's
 * subject): on a loaded machine a fresh controller's first path check can block it for over a second.
 * The cancel part runs over every driver and arm in test/driver/arm-driver-cancel-matrix.test.ts.
 */
import assert from 'node:assert/strict';
import { RemoteArmDriver } from '../../controller/remote-arm-driver.js';
import { armDriverContract } from '../driver/arm-driver-contract.js';
import { remoteSubject } from '../support/driver-matrix.js';

armDriverContract('RemoteArmDriver (robot-sim child process)', {
  create: () => remoteSubject('ur5e'),
  fault: {
    kind: 'disconnected',
    async provoke(subject) {
      const driver = subject.driver;
      assert.ok(driver instanceof RemoteArmDriver);
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
