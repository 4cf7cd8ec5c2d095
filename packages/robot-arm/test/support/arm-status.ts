/** Waiting on the arm's state stream, as the driver tests read it. */
import type { ArmStatus } from '../../driver/arm-driver.js';
import type { RemoteArmDriver } from '../../controller/remote-arm-driver.js';

/** Resolves with the first status matching `test`: the current one, else the next one the stream brings. */
export function statusWhere(driver: RemoteArmDriver, test: (s: ArmStatus) => boolean): Promise<ArmStatus> {
  return new Promise((resolve) => {
    if (test(driver.status())) return resolve(driver.status());
    const off = driver.subscribe((s) => {
      if (test(s)) {
        off();
        resolve(s);
      }
    });
  });
}
