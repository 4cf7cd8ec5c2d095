// Pick-and-place on simulated time: `npx tsx packages/robot-arm/driver/simulation-demo.ts`. Prints what happens at each step.
import type { CartesianTarget } from '../sim/index.js';
import { createRobotSimulation, type ExecuteOptions } from './robot-simulation.js';

const sim = createRobotSimulation({ preset: 'ur5e', seed: 1 });
const say = (what: string): void => {
  const p = sim.tcp;
  console.log(`[${(sim.nowMs / 1000).toFixed(3)} s] ${sim.state.padEnd(8)} TCP (${p.x.toFixed(1)}, ${p.y.toFixed(1)}, ${p.z.toFixed(1)}) mm  ${what}`);
};

function move(target: CartesianTarget, options: ExecuteOptions = {}): void {
  const plan = sim.planToPose(target, { speedFraction: 0.8 });
  if (!plan.ok) throw new Error(`plan refused: ${plan.code}: ${plan.message}`);
  const run = sim.execute(plan.trajectory, options);
  if (!run.ok) throw new Error(`execute refused: ${run.code}: ${run.message}`);
  sim.runUntilSettled();
  say(`moved (${plan.trajectory.durationS.toFixed(2)} s, peak ${plan.trajectory.peaks.peakTcpSpeedMmS.toFixed(0)} mm/s)`);
}

say('start');
for (const d of sim.captureCamera()) console.log(`  camera: ${d.id} ${d.label} at (${d.position.x}, ${d.position.y}, ${d.position.z}) mm, confidence ${d.confidence}`);
move({ position: { x: -420, y: -220, z: 200 } });
move({ position: { x: -420, y: -220, z: 70 } }, { contactAllowedWith: ['cup-1'] });
const grasp = sim.grasp({ forceN: 15 });
say(grasp.ok ? `grasped ${grasp.objectId} with ${grasp.appliedForceN} N (needs ${grasp.requiredForceN.toFixed(1)} N)` : `grasp failed: ${grasp.message}`);
sim.advance(200);
say(`F/T Fz (kalman) ${sim.readForceTorque({ axes: ['Fz'] }).values.Fz!.toFixed(2)} N`);
move({ position: { x: -350, y: 0, z: 200 } });
const plan = sim.planToPose({ position: { x: -350, y: 0, z: 75 } });
if (plan.ok && sim.execute(plan.trajectory).ok) {
  sim.advance(300);
  const stop = sim.stop();
  say(`stop requested: halts in ${stop.stoppingTimeS.toFixed(3)} s over ${stop.stoppingDistanceMm.toFixed(1)} mm`);
  sim.runUntilSettled();
  say('halted');
}
move({ position: { x: -350, y: 0, z: 75 } });
const release = sim.release();
say(release.ok ? `released ${release.objectId}, dropped ${release.dropHeightMm.toFixed(1)} mm` : `release failed: ${release.message}`);
move({ position: { x: -350, y: 0, z: 150 } }, { contactAllowedWith: ['cup-1'] }); // the open jaws still straddle the cup
const tooLow = sim.planToPose({ position: { x: -350, y: 0, z: 10 } }, { path: 'joint' });
if (!tooLow.ok) say(`plan refused: ${tooLow.code}: ${tooLow.message}`);
else {
  const refused = sim.execute(tooLow.trajectory);
  say(refused.ok ? 'accepted (unexpected)' : `refused as expected: ${refused.code}: ${refused.message}`);
}
