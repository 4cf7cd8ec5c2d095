/**
 * Where the robot's files go by default, and that inspecting the server module leaves none: the
 * default audit log belongs to the checkout (not a temp path shared by every clone and user), and
 * `toolwright lint` of server.ts opens no audit log and prints no operator hint for a process about to exit.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, repoPath, TSX_LOADER } from '../../../../test/support/repo-paths.js';
import { defaultAuditLogPath, prepareAuditLogDirectory } from '../../main.js';
import type { RobotServer } from '../../server/create-robot-server.js';
import { createSimulatedRobotServer } from '../../wiring/simulated-robot-server.js';
import { readAuditLog } from '../../server/audit-log.js';
import { steppedPacer } from '../../driver/sim-pacer.js';

describe('default audit log: one per checkout', () => {
  it('two package roots get two paths, each inside its own root', () => {
    const first = defaultAuditLogPath('/home/a/clone-1/packages/robot-arm');
    const second = defaultAuditLogPath('/home/b/clone-2/packages/robot-arm');
    assert.notEqual(first, second);
    assert.equal(first, '/home/a/clone-1/packages/robot-arm/.data/audit.jsonl');
    assert.equal(second, '/home/b/clone-2/packages/robot-arm/.data/audit.jsonl');
  });

  it('main.ts defaults to this checkout\'s .data/audit.jsonl and says so in --help', () => {
    const expected = join(REPO_ROOT, 'packages', 'robot-arm', '.data', 'audit.jsonl');
    assert.equal(defaultAuditLogPath(), expected);
    const help = spawnSync(process.execPath, ['--import', TSX_LOADER, repoPath('packages', 'robot-arm', 'main.ts'), '--help'], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(help.status, 0, help.stderr);
    assert.ok(help.stdout.includes(`(default: ${expected},`), help.stdout);
    assert.ok(!help.stdout.includes('<tmp>'), help.stdout);
  });

  it('the directory it creates is the user\'s only (0700)', () => {
    const root = mkdtempSync(join(tmpdir(), 'robot-default-dir-'));
    try {
      const auditLog = defaultAuditLogPath(root);
      assert.equal(existsSync(join(root, '.data')), false);
      prepareAuditLogDirectory(auditLog);
      assert.equal(statSync(join(root, '.data')).mode & 0o777, 0o700);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('inspecting the server module is side-effect free', () => {
  it('toolwright lint packages/robot-arm/server.ts leaves nothing in TMPDIR and prints no kill -USR2 hint', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'robot-lint-cwd-'));
    const freshTmp = mkdtempSync(join(tmpdir(), 'robot-lint-tmp-'));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: freshTmp };
      delete env.ROBOT_AUDIT_LOG;
      const result = spawnSync(process.execPath, [repoPath('dist', 'cli', 'main.js'), 'lint', repoPath('packages', 'robot-arm', 'server.ts')], { cwd, env, encoding: 'utf8', timeout: 120_000 });
      const output = `${result.stdout}${result.stderr}`;
      assert.equal(result.status, 0, output);
      assert.match(result.stdout, /No problems found in 9 tools/);
      assert.doesNotMatch(output, /kill -USR2/);
      assert.doesNotMatch(output, /audit log/);
      // tsx-<uid> is the TypeScript loader's own transform cache, not the robot's.
      assert.deepEqual(readdirSync(freshTmp).filter((name) => !/^tsx-\d+$/.test(name)), []);
      assert.deepEqual(readdirSync(cwd), []);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
      rmSync(freshTmp, { recursive: true, force: true });
    }
  });

  it('with onFirstServe, the audit log opens (and the callback runs, once) when serving starts, not before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'robot-first-serve-'));
    const auditLogPath = join(dir, 'audit.jsonl');
    const served: RobotServer[] = [];
    const robot = createSimulatedRobotServer({ pacer: steppedPacer(), auditLogPath, approval: 'off', onFirstServe: (r) => served.push(r) });
    try {
      assert.equal(robot.server.tools.length, 9);
      assert.deepEqual(readdirSync(dir), []);
      assert.equal(served.length, 0);
      const listener = await robot.server.listen({ port: 0 });
      await listener.close();
      await (await robot.server.listen({ port: 0 })).close();
      assert.deepEqual(served, [robot]);
      assert.deepEqual(readAuditLog(auditLogPath).records.map((r) => r.type), ['chain_keyed', 'server_start']);
    } finally {
      await robot.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a deferred server that never served closes without creating a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'robot-never-served-'));
    try {
      const robot = createSimulatedRobotServer({ pacer: steppedPacer(), auditLogPath: join(dir, 'audit.jsonl'), onFirstServe: () => assert.fail('never served') });
      await robot.close();
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
