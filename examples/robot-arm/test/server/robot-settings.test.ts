import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { robotSettingsFromEnv, RobotSettingsError } from '../../server/robot-settings.js';

describe('robot settings from ROBOT_* environment variables (toolwright serve examples/robot-arm/server.ts)', () => {
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
