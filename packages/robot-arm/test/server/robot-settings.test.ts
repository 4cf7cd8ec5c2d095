import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RemoteArmDriver } from '../../controller/remote-arm-driver.js';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';
import { RobotController } from '../../server/robot-controller.js';
import { checkNumber, parseHeartbeatTimeout, robotSettingsFromEnv, RobotSettingsError } from '../../server/robot-settings.js';

describe('robot settings from ROBOT_* environment variables (toolwright serve packages/robot-arm/server.ts)', () => {
  it('unset variables take the defaults; other environment variables are ignored', () => {
    assert.deepEqual(robotSettingsFromEnv({ PATH: '/bin', ROBOTIC: 'x' }), { preset: 'ur5e', readOnly: false, approval: 'always', timeScale: 1, rate: 2 });
  });

  it('reads every setting', () => {
    const env = { ROBOT_PRESET: 'xarm6', ROBOT_READ_ONLY: 'true', ROBOT_APPROVAL: 'large-moves', ROBOT_AUDIT_LOG: '/tmp/a.jsonl', ROBOT_TIME_SCALE: '20', ROBOT_RATE: '0.5' };
    assert.deepEqual(robotSettingsFromEnv(env), { preset: 'xarm6', readOnly: true, approval: 'large-moves', auditLogPath: '/tmp/a.jsonl', timeScale: 20, rate: 0.5 });
    assert.equal(robotSettingsFromEnv({ ROBOT_READ_ONLY: '0' }).readOnly, false);
    assert.equal(robotSettingsFromEnv({ ROBOT_READ_ONLY: '1' }).readOnly, true);
  });

  it('a bad value is an error naming the variable, the value and the valid values (never a silent default)', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ ROBOT_PRESET: 'ur5' }, 'ROBOT_PRESET must be one of ur5e, xarm6, got "ur5"'],
      [{ ROBOT_PRESET: '' }, 'ROBOT_PRESET must be one of ur5e, xarm6, got ""'],
      [{ ROBOT_APPROVAL: 'never' }, 'ROBOT_APPROVAL must be one of always, large-moves, off, got "never"'],
      [{ ROBOT_APPROVAL: 'OFF' }, 'ROBOT_APPROVAL must be one of always, large-moves, off, got "OFF"'],
      [{ ROBOT_READ_ONLY: 'on' }, 'ROBOT_READ_ONLY must be one of 1, true, yes, 0, false, no, got "on"'],
      [{ ROBOT_AUDIT_LOG: ' ' }, 'ROBOT_AUDIT_LOG must be a file path, got ""'],
      [{ ROBOT_TIME_SCALE: '0' }, 'ROBOT_TIME_SCALE must be a number of simulated seconds per second in (0, 1000], got "0"'],
      [{ ROBOT_TIME_SCALE: '' }, 'ROBOT_TIME_SCALE must be a number of simulated seconds per second in (0, 1000], got ""'],
      [{ ROBOT_RATE: '-1' }, 'ROBOT_RATE must be a number of motion commands per second in (0, 100], got "-1"'],
      [{ ROBOT_RATE: 'Infinity' }, 'ROBOT_RATE must be a number of motion commands per second in (0, 100], got "Infinity"'],
      [{ ROBOT_APROVAL: 'off' }, 'unknown setting ROBOT_APROVAL; the robot-arm server reads ROBOT_PRESET, ROBOT_READ_ONLY, ROBOT_APPROVAL, ROBOT_AUDIT_LOG, ROBOT_TIME_SCALE, ROBOT_RATE'],
      [{ ROBOT_PRESETS: 'x', ROBOT_READONLY: '1' }, 'unknown settings ROBOT_PRESETS, ROBOT_READONLY; the robot-arm server reads ROBOT_PRESET, ROBOT_READ_ONLY, ROBOT_APPROVAL, ROBOT_AUDIT_LOG, ROBOT_TIME_SCALE, ROBOT_RATE'],
    ];
    for (const [env, message] of cases) {
      assert.throws(() => robotSettingsFromEnv(env), (error: unknown) => error instanceof RobotSettingsError && error.message === message, JSON.stringify(env));
    }
  });
});

describe('one checker for every numeric robot option: flags, variables and constructor options', () => {
  const isSettingsError = (message: string) => (error: unknown) => error instanceof RobotSettingsError && error instanceof RangeError && error.message === message;

  it('checks the range, its open or closed ends, and whole numbers', () => {
    const rule = { what: 'a whole number of milliseconds', min: 300, max: 60_000, integer: true };
    assert.equal(checkNumber(300, 'x', rule), 300);
    assert.equal(checkNumber(60_000, 'x', rule), 60_000);
    assert.throws(() => checkNumber(299, 'x', rule), isSettingsError('x must be a whole number of milliseconds in [300, 60000], got 299'));
    assert.throws(() => checkNumber(300.5, 'x', rule), isSettingsError('x must be a whole number of milliseconds in [300, 60000], got 300.5'));
    assert.throws(() => checkNumber(Number.NaN, 'x', rule), isSettingsError('x must be a whole number of milliseconds in [300, 60000], got NaN'));
    assert.throws(() => checkNumber(0, 'y', { what: 'a number', min: 0, aboveMin: true, max: 1 }), isSettingsError('y must be a number in (0, 1], got 0'));
    assert.equal(parseHeartbeatTimeout('500', '--heartbeat-timeout'), 500);
    assert.throws(() => parseHeartbeatTimeout(' ', '--heartbeat-timeout'), isSettingsError('--heartbeat-timeout must be a whole number of milliseconds in [300, 60000], got " "'));
  });

  it('the controller supervisor refuses bad bounds before it starts anything', async () => {
    const base = { preset: 'ur5e' as const, latchPath: '/nonexistent/estop.json', posePath: '/nonexistent/pose.json', log: () => undefined };
    const cases: Array<[Record<string, number>, string]> = [
      [{ heartbeatTimeoutMs: 100 }, 'heartbeatTimeoutMs must be a whole number of milliseconds in [300, 60000], got 100'],
      [{ heartbeatTimeoutMs: Number.POSITIVE_INFINITY }, 'heartbeatTimeoutMs must be a whole number of milliseconds in [300, 60000], got Infinity'],
      [{ timeScale: 0 }, 'timeScale must be a number of simulated seconds per second in (0, 1000], got 0'],
      [{ startTimeoutMs: 10 }, 'startTimeoutMs must be a whole number of milliseconds in [1000, 600000], got 10'],
      [{ seed: 1.5 }, 'seed must be an integer in [-9007199254740991, 9007199254740991], got 1.5'],
    ];
    for (const [option, message] of cases) await assert.rejects(RemoteArmDriver.start({ ...base, ...option }), isSettingsError(message), JSON.stringify(option));
  });

  it('the robot controller refuses bad watchdog and snapshot-age bounds', async () => {
    const driver = new SimArmDriver();
    assert.throws(() => new RobotController({ model: driver.model, driver, maxStatusAgeMs: 0 }), isSettingsError('maxStatusAgeMs must be a number of milliseconds in (0, 600000], got 0'));
    assert.throws(() => new RobotController({ model: driver.model, driver, watchdogWallSlackMs: -1 }), isSettingsError('watchdogWallSlackMs must be a number of milliseconds in [0, 600000], got -1'));
    await driver.close();
  });
});
