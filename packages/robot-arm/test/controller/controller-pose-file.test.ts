/**
 * The controller's pose file keeps the gripper as well as the joints: what it holds (with the grip
 * fixed at the grasp) and which objects are broken. A simulation started from the file holds the
 * object again; a file that does not fit is refused by `robot-sim` (a real child process) before it
 * reads its secret or opens a socket. The SIGKILL of a holding controller is in controller-faults.test.ts.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { TSX_LOADER, repoPath } from '../../../../test/support/repo-paths.js';
import { PoseFile } from '../../controller/controller-pose-file.js';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';
import type { RobotSimulation } from '../../driver/robot-simulation.js';
import type { Vec3 } from '../../sim/vector3.js';

const dirs: string[] = [];
function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'robot-pose-file-'));
  dirs.push(dir);
  return dir;
}
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function moveTo(sim: RobotSimulation, position: Vec3, contactAllowedWith: string[] = []): void {
  const plan = sim.planToPose({ position }, { speedFraction: 1 });
  assert.ok(plan.ok, plan.ok ? '' : plan.message);
  const started = sim.execute(plan.trajectory, { contactAllowedWith });
  assert.ok(started.ok, started.ok ? '' : started.message);
  assert.equal(sim.runUntilSettled(), true);
}

/** A simulated arm holding block-1 30 mm above where it stood, with egg-1 already broken. */
function holdingDriver(): SimArmDriver {
  const driver = new SimArmDriver({ restoredGripper: { held: null, brokenObjectIds: ['egg-1'] } });
  const block = driver.status().objects.find((o) => o.id === 'block-1')!;
  moveTo(driver.sim, { ...block.position, z: block.position.z + 100 });
  moveTo(driver.sim, block.position, ['block-1']);
  assert.ok(driver.sim.grasp({ forceN: 15 }).ok);
  moveTo(driver.sim, { ...block.position, z: block.position.z + 30 });
  return driver;
}

/** Runs robot-sim with these arguments and no secret; resolves with its exit code and stderr. */
function runRobotSim(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, repoPath('packages/robot-arm/controller/robot-sim.ts'), ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

describe('controller pose file: the gripper', () => {
  it('saves what the gripper holds and what is broken; a simulation started from the file holds it, refuses a second grasp and plans the same fall', async () => {
    const dir = workDir();
    const first = holdingDriver();
    const file = new PoseFile(join(dir, 'pose.json'));
    file.save(first.status());
    const saved = file.load('ur5e');
    assert.ok(saved !== null);
    const held = first.status().held!;
    assert.deepEqual(saved.gripper, { held: { objectId: 'block-1', offsetInToolMm: held.offsetInToolMm, rotationInTool: held.rotationInTool, liftOffFloorsMm: held.liftOffFloorsMm }, brokenObjectIds: ['egg-1'] });
    assert.deepEqual(Object.keys(held.liftOffFloorsMm ?? {}), ['table'], 'the lift-off floor fixed at the grasp is saved with the grip');

    const second = new SimArmDriver({ initialJointsDeg: saved.jointsDeg, objects: saved.objects, restoredGripper: saved.gripper });
    const status = second.status();
    assert.equal(status.heldObjectId, 'block-1');
    assert.deepEqual(status.held, first.status().held);
    assert.deepEqual(status.objects, first.status().objects, 'every object as it was: held, broken, where it was carried');
    assert.equal(status.objects.find((o) => o.id === 'egg-1')?.condition, 'broken');
    assert.deepEqual(await second.grasp({ forceN: 15 }), { ok: false, code: 'already_holding', message: 'the gripper already holds an object; release it first' });
    assert.deepEqual(second.sim.planRelease(), first.sim.planRelease());
    const release = await second.release();
    assert.ok(release.ok && release.objectId === 'block-1' && Math.abs(release.dropHeightMm - 30) < 0.5, JSON.stringify(release));
    await first.close();
    await second.close();
  });

  it('a file from a robot-sim that did not record the gripper restarts it open, every object intact', () => {
    const dir = workDir();
    const path = join(dir, 'older.json');
    const status = new SimArmDriver().status();
    const objects = status.objects.map(({ condition: _condition, held: _held, ...spec }) => spec);
    writeFileSync(path, JSON.stringify({ presetId: 'ur5e', jointsDeg: status.jointsDeg, objects }));
    assert.deepEqual(new PoseFile(path).load('ur5e'), { presetId: 'ur5e', jointsDeg: status.jointsDeg, objects, gripper: { held: null, brokenObjectIds: [] } });
  });

  it('an open gripper is saved as held null and restarts open', () => {
    const dir = workDir();
    const driver = new SimArmDriver();
    const file = new PoseFile(join(dir, 'pose.json'));
    file.save(driver.status());
    const text = JSON.parse(readFileSync(file.path, 'utf8')) as Record<string, unknown>;
    assert.equal(text.held, null);
    assert.deepEqual(text.broken, []);
    assert.deepEqual(file.load('ur5e')?.gripper, { held: null, brokenObjectIds: [] });
  });

  it('robot-sim refuses to start, exit code 2 and a message naming the problem, on a pose file whose gripper part is malformed or does not fit (or an older file whose gripper held an object)', async () => {
    const dir = workDir();
    const good = holdingDriver();
    const goodFile = new PoseFile(join(dir, 'good.json'));
    goodFile.save(good.status());
    await good.close();
    const valid = JSON.parse(readFileSync(goodFile.path, 'utf8')) as Record<string, unknown> & { held: Record<string, unknown>; objects: Array<Record<string, unknown>> };
    const moved = valid.objects.map((o) => (o.id === 'block-1' ? { ...o, position: { ...(o.position as Vec3), z: (o.position as Vec3).z + 5 } } : o));
    const { broken: _broken, ...withoutBroken } = valid;
    const cases: Array<{ name: string; value: unknown; message: string }> = [
      { name: 'older-holding', value: { presetId: 'ur5e', jointsDeg: valid.jointsDeg, objects: valid.objects }, message: 'initial pose collides: ' },
      { name: 'half', value: withoutBroken, message: 'has an invalid broken: it must be a list of object ids' },
      { name: 'bad-held', value: { ...valid, held: { objectId: 'block-1', offsetInToolMm: { x: 0, y: 0 }, rotationInTool: valid.held.rotationInTool } }, message: 'has an invalid held: it must be null or { objectId, offsetInToolMm {x, y, z}, rotationInTool [9 numbers], liftOffFloorsMm? {obstacle: mm} }' },
      { name: 'bad-floors', value: { ...valid, held: { ...valid.held, liftOffFloorsMm: { table: 'low' } } }, message: 'has an invalid held: it must be null or { objectId, offsetInToolMm {x, y, z}, rotationInTool [9 numbers], liftOffFloorsMm? {obstacle: mm} }' },
      { name: 'bad-broken', value: { ...valid, broken: 'egg-1' }, message: 'has an invalid broken: it must be a list of object ids' },
      { name: 'unknown-held', value: { ...valid, held: { ...valid.held, objectId: 'mug-9' } }, message: 'restored gripper: the held object "mug-9" is not in the scene' },
      { name: 'unknown-broken', value: { ...valid, broken: ['mug-9'] }, message: 'restored gripper: broken object "mug-9" is not in the scene' },
      { name: 'not-rotation', value: { ...valid, held: { ...valid.held, rotationInTool: [2, 0, 0, 0, 1, 0, 0, 0, 1] } }, message: 'restored gripper: rotationInTool of block-1 must be a rotation matrix (9 numbers, orthonormal, determinant 1)' },
      { name: 'moved', value: { ...valid, objects: moved }, message: 'restored gripper: block-1 is recorded 5.0 mm from where the gripper holds it at these joints (at most 0.5 mm)' },
    ];
    for (const c of cases) {
      const path = join(dir, `${c.name}.json`);
      writeFileSync(path, JSON.stringify(c.value));
      const socket = join(dir, `${c.name}.sock`);
      const { code, stderr } = await runRobotSim(['--socket', socket, '--pose-file', path]);
      assert.equal(code, 2, `${c.name}: ${stderr}`);
      if (c.message.startsWith('initial pose collides')) assert.match(stderr, /^robot-sim: initial pose collides: \w+ is -?\d+\.\d mm from block-1\n$/, c.name);
      else assert.equal(stderr, c.message.startsWith('restored gripper') ? `robot-sim: ${c.message}\n` : `robot-sim: the pose file ${path} ${c.message}\n`, c.name);
      assert.equal(existsSync(socket), false, `${c.name}: no socket was opened`);
      assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), c.value, `${c.name}: the file is left as it was`);
    }
  });
});
