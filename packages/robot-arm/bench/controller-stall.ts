/**
 * Measures the worst-case stall of the robot-sim controller's loop, as the server's heartbeat sees it:
 * the longest gap between two state frames arriving from a real `robot-sim` process while the arm
 * moves back and forth without pause (every `execute` makes the controller re-check the whole path in
 * one synchronous step, its longest block). This process only plans two paths up front and then
 * waits on the socket, and its own event-loop delay is reported beside it, so a long gap is the
 * controller's (or the machine's scheduling under load), not this reader's.
 *
 * Run it while something loads the machine (e.g. the robot test suite):
 *   node --import tsx packages/robot-arm/bench/controller-stall.ts [seconds=120] [preset=ur5e]
 * It prints one JSON line: the gap percentiles and maximum, ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { RemoteArmDriver } from '../controller/remote-arm-driver.js';
import { ArmModel } from '../model/arm-model.js';
import type { ArmPresetId } from '../sim/arm-presets.js';

const seconds = Number(process.argv[2] ?? 120);
const preset = (process.argv[3] ?? 'ur5e') as ArmPresetId;
const dir = mkdtempSync(join(tmpdir(), 'controller-stall-'));
// A generous bound so that the measurement itself never loses the link.
const driver = await RemoteArmDriver.start({ preset, latchPath: join(dir, 'estop.json'), posePath: join(dir, 'pose.json'), heartbeatTimeoutMs: 60_000, log: () => undefined });
const model = new ArmModel({ preset });
const gaps: number[] = [];
let last = performance.now();
const off = driver.subscribe(() => {
  const now = performance.now();
  gaps.push(now - last);
  last = now;
});
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
const a = { x: -420, y: -150, z: 350 }, b = { x: -380, y: 150, z: 420 };
const first = model.planWaypoints(driver.status().jointsDeg, [{ position: a }], { speedFraction: 1 });
if (!first.ok) throw new Error(first.message);
await driver.execute(first.trajectory, { motionId: 'to-a' });
const there = model.planWaypoints(first.trajectory.endJointsDeg, [{ position: b }], { speedFraction: 1 });
if (!there.ok) throw new Error(there.message);
const back = model.planWaypoints(there.trajectory.endJointsDeg, [{ position: a }], { speedFraction: 1 });
if (!back.ok) throw new Error(back.message);
gaps.length = 0;
last = performance.now();
const end = performance.now() + seconds * 1000;
let motions = 0;
while (performance.now() < end) {
  const outcome = await driver.execute(motions % 2 === 0 ? there.trajectory : back.trajectory, { motionId: `m-${motions}` });
  if (outcome.status !== 'completed') throw new Error(`motion ${motions} ended ${outcome.status}`);
  motions++;
}
off();
loop.disable();
await driver.close();
rmSync(dir, { recursive: true, force: true });
gaps.sort((x, y) => x - y);
const pick = (q: number): number => Math.round(gaps[Math.min(gaps.length - 1, Math.floor(q * gaps.length))]! * 10) / 10;
console.log(JSON.stringify({ preset, seconds, motions, frames: gaps.length, gap_ms: { p50: pick(0.5), p99: pick(0.99), p999: pick(0.999), max: pick(1) }, reader_loop_delay_max_ms: Math.round(loop.max / 1e5) / 10 }));
