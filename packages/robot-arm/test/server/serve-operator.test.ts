import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readAuditLog } from '../../server/audit-log.js';
import { approvalOffWarning } from '../../server/operator-controls.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const CLI = join(ROOT, 'src', 'cli', 'main.ts');
const SERVER = join(ROOT, 'packages', 'robot-arm', 'server.ts');

/** The environment without any ROBOT_* variable of the caller, plus `robot`. */
function envWith(robot: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ROBOT_')));
  return { ...env, ...robot };
}

describe('toolwright serve packages/robot-arm/server.ts: start-up settings', () => {
  it('a mistyped setting stops the start with exit code 2 and names the valid values', () => {
    for (const [env, message] of [
      [{ ROBOT_PRESET: 'ur5' }, 'ROBOT_PRESET must be one of ur5e, xarm6, got "ur5"'],
      [{ ROBOT_APPROVAL: 'of' }, 'ROBOT_APPROVAL must be one of always, large-moves, off, got "of"'],
    ] as const) {
      const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, 'serve', SERVER, '--http', '0'], { cwd: ROOT, env: envWith(env), encoding: 'utf8', timeout: 30_000 });
      assert.equal(result.status, 2, result.stderr);
      assert.equal(result.stderr, `toolwright serve: cannot load ${SERVER}: ${message}\n`);
    }
  });
});

describe('toolwright serve packages/robot-arm/server.ts: the operator controls main.ts has', () => {
  it('ROBOT_APPROVAL=off prints the loud warning; SIGUSR2 clears a latched emergency stop', async () => {
    const audit = join(mkdtempSync(join(tmpdir(), 'robot-serve-operator-')), 'audit.jsonl');
    const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', SERVER, '--http', '0'], {
      cwd: ROOT,
      env: envWith({ ROBOT_APPROVAL: 'off', ROBOT_AUDIT_LOG: audit, ROBOT_TIME_SCALE: '20' }),
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    try {
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      const waitFor = (pattern: RegExp): Promise<RegExpExecArray> =>
        new Promise((done, reject) => {
          const check = (): void => {
            const match = pattern.exec(stderr);
            if (match === null) return;
            child.stderr.off('data', check);
            child.off('exit', onExit);
            done(match);
          };
          const onExit = (code: number | null): void => reject(new Error(`serve exited with ${code}: ${stderr}`));
          child.stderr.on('data', check);
          child.once('exit', onExit);
          check();
        });
      const url = (await waitFor(/serving 9 tool\(s\) of toolwright-robot-arm at (http:\/\/127\.0\.0\.1:\d+\/mcp)/))[1]!;
      assert.ok(stderr.startsWith(`${approvalOffWarning()}\n`), stderr);
      assert.match(stderr, new RegExp(`robot-arm: approval off; audit log ${audit}; operator: kill -USR2 ${child.pid}   clears a latched emergency stop`));
      let id = 1;
      const call = async (name: string, args: Record<string, unknown>): Promise<{ structuredContent?: Record<string, unknown> }> => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
          body: JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
          signal: AbortSignal.timeout(30_000),
        });
        return ((await response.json()) as { result: { structuredContent?: Record<string, unknown> } }).result;
      };
      const target = { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } };
      assert.equal((await call('stop_arm', { mode: 'emergency' })).structuredContent?.emergency_stop_latched, true);
      assert.deepEqual((await call('move_arm_to_pose', target)).structuredContent?.refused, {
        stage: 'state_gate',
        code: 'estop_latched',
        message: 'the emergency stop is latched (emergency stop requested through stop_arm); only an operator can clear it, no tool can',
      });
      child.kill('SIGUSR2');
      await waitFor(/robot-arm: emergency stop cleared by the operator\n/);
      assert.equal((await call('move_arm_to_pose', target)).structuredContent?.status, 'completed');
      const operatorActions = readAuditLog(audit).records.filter((r) => r.type === 'operator_action');
      assert.deepEqual(operatorActions.map((r) => [r.action, r.operator, r.cleared]), [
        ['clear_emergency_stop', `operator (SIGUSR2 to pid ${child.pid})`, true],
        ['clear_fault', `operator (SIGUSR2 to pid ${child.pid})`, false],
      ]);
    } finally {
      clearTimeout(killer);
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    }
  });
});
