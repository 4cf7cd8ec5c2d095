#!/usr/bin/env node
// The `robot-sim` command: registers tsx (the package ships TypeScript sources) and runs the controller.
import { register } from 'tsx/esm/api';

register();
const { runRobotSim } = await import('../controller/robot-sim.ts');
await runRobotSim(process.argv.slice(2));
