/**
 * The cancel contract (arm-driver-cancel-contract.ts) over every driver × arm combination of
 * test/support/driver-matrix.ts: the in-process simulation and a `robot-sim` child process through
 * RemoteArmDriver, each for the UR5e and the xArm 6. Every case gets a fresh subject.
 */
import { describe } from 'node:test';
import { DRIVER_MATRIX } from '../support/driver-matrix.js';
import { planTo, withSubject } from './arm-driver-contract.js';
import { cancelContract } from './arm-driver-cancel-contract.js';

for (const driverCase of DRIVER_MATRIX) {
  describe(`ArmDriver cancel contract: ${driverCase.label}`, () => {
    cancelContract((body) => () => withSubject(() => driverCase.create(), body), planTo);
  });
}
