// Schema engine benchmark: our compileSchema().validate() against Ajv 8's compiled Ajv2020 validator
// (allErrors: true, like ours) in the same process, on the grasp tool and a 30-property trajectory
// tool, valid and invalid arguments. Also measures the first compile of the grasp schema in a fresh
// process (definition checks + code generation, with and without the one-time Ajv load). Prints ops/s, the ratio, and whether the targets (within 2x of Ajv; first compile
// < 20 ms) are met. `--json` prints the numbers as JSON too.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const load = (name: string): object => JSON.parse(readFileSync(join(here, 'fixtures/schemas', name), 'utf8')) as object;

if (process.argv.includes('--first-compile')) {
  // Fresh process. Validators are built lazily: compileSchema() runs every definition check, and
  // the first validate() loads Ajv (once per process) and generates the code. Both are timed, and
  // with --preload-ajv the one-time library load and generator warm-up are taken out first, leaving
  // the per-schema cost.
  const importStart = performance.now();
  const { compileSchema } = await import('../src/schema/index.js');
  const importMs = performance.now() - importStart;
  let ajvLoadMs = 0;
  if (process.argv.includes('--preload-ajv')) {
    const { prepareFastEngine } = await import('../src/schema/engines/fast.js');
    const t = performance.now();
    prepareFastEngine();
    ajvLoadMs = performance.now() - t;
  }
  const grasp = load('grasp.json');
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const compiled = compileSchema(grasp);
  const compileMs = performance.now() - t0;
  compiled.validate({ target_position: { x: 1, y: 2, z: 3 } });
  const readyMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  // CPU time is reported beside wall time: on a shared, loaded machine wall time includes waiting for a core.
  process.stdout.write(JSON.stringify({ compileMs, readyMs, cpuMs: (cpu.user + cpu.system) / 1000, importMs, ajvLoadMs, engine: compiled.engine }));
  process.exit(0);
}

const { compileSchema } = await import('../src/schema/index.js');
const { Ajv2020 } = await import('ajv/dist/2020.js');

const grasp = load('grasp.json');
const trajectory = load('trajectory.json');
const waypoint = (i: number) => ({ position: { x: 0.1 * i, y: 0.2, z: 0.3 }, orientation: { qx: 0, qy: 0, qz: 0, qw: 1 }, time_from_start: i * 0.5, joint_positions: [0, 0.5, 1, 1.5, -1, 0.2, 0] });
const trajectoryValid = {
  trajectory_id: 'traj-001', waypoints: Array.from({ length: 10 }, (_, i) => waypoint(i)),
  obstacles: [{ id: 'table', kind: 'box', size: [1, 0.6, 0.05] }, { id: 'cup', kind: 'cylinder', size: [0.04, 0.1] }],
  max_velocity: 0.5, max_acceleration: 1, interpolation: 'cubic', frame: 'base', blocking: true, priority: 3,
  tolerance: { position: 0.001, orientation: 0.01 }, tool: { name: 'gripper', tcp_offset: [0, 0, 0.12] }, payload_kg: 0.4,
  collision_check: true, retries: 1, timeout_s: 30, tags: ['demo', 'pick'], speed_scale: 0.5, gripper_action: 'close',
  gripper_force: 15, dry_run: false, safety_zone: { min: [-1, -1, 0], max: [1, 1, 1.5] }, stop_on_contact: true,
  contact_threshold_n: 20, log_level: 'info', request_id: 'req_42',
};
const trajectoryInvalid = {
  ...trajectoryValid, waypoints: [...trajectoryValid.waypoints.slice(0, 9), { position: { x: '0.1', y: 0, z: 0 }, time_from_start: -1 }],
  priority: 11, frame: 'moon', speed: 3,
};
const cases = [
  { name: 'grasp valid', schema: grasp, data: { target_position: { x: 0.42, y: -0.1, z: 0.25 }, force: 15, grasp_strategy: 'pinch', timeout: 5 }, valid: true },
  { name: 'grasp invalid', schema: grasp, data: { target_position: { x: '0.42', y: -0.1 }, force: 45, grasp_strategy: 'claw', speed: 3 }, valid: false },
  { name: 'trajectory valid', schema: trajectory, data: trajectoryValid, valid: true },
  { name: 'trajectory invalid', schema: trajectory, data: trajectoryInvalid, valid: false },
];

let sink = 0;
function opsPerSecond(fn: () => unknown, ms: number): number {
  let n = 0;
  const end = performance.now() + ms;
  let t = performance.now();
  while (t < end) {
    for (let i = 0; i < 200; i++) { if (fn()) sink++; }
    n += 200;
    t = performance.now();
  }
  return n / ((t - (end - ms)) / 1000);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const ajv = new Ajv2020({ strict: false, allErrors: true, addUsedSchema: false });
const rows: Array<Record<string, unknown>> = [];
let allWithin = true;
for (const c of cases) {
  const ours = compileSchema(c.schema);
  const theirs = ajv.compile(c.schema);
  if (ours.validate(c.data).valid !== c.valid || theirs(c.data) !== c.valid) throw new Error(`bench case ${c.name}: unexpected validity`);
  const oursFn = () => ours.validate(c.data).valid;
  const theirsFn = () => { const ok = theirs(c.data); return ok || (theirs.errors?.length ?? 0) > 0; };
  opsPerSecond(oursFn, 200); opsPerSecond(theirsFn, 200); // warm-up
  const o: number[] = []; const a: number[] = [];
  for (let round = 0; round < 5; round++) { o.push(opsPerSecond(oursFn, 300)); a.push(opsPerSecond(theirsFn, 300)); }
  const oursOps = median(o); const ajvOps = median(a);
  const ratio = ajvOps / oursOps;
  if (ratio > 2) allWithin = false;
  rows.push({ case: c.name, engine: ours.engine, ours_ops: Math.round(oursOps), ajv_ops: Math.round(ajvOps), ajv_over_ours: Number(ratio.toFixed(2)), errors: ours.validate(c.data).errors.length });
}

interface FirstCompile { compileMs: number; readyMs: number; cpuMs: number; importMs: number; ajvLoadMs: number }
const coldRuns: FirstCompile[] = [];
const preloadedRuns: FirstCompile[] = [];
for (let i = 0; i < 5; i++) {
  for (const preload of [false, true]) {
    const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--first-compile', ...(preload ? ['--preload-ajv'] : [])];
    const child = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 60_000 });
    if (child.status !== 0) throw new Error(`first-compile child failed: ${child.stderr}`);
    (preload ? preloadedRuns : coldRuns).push(JSON.parse(child.stdout) as FirstCompile);
  }
}
const med = (runs: FirstCompile[], key: keyof FirstCompile): number => median(runs.map((r) => r[key]));
// The target: the grasp schema compiled and its validator generated, the one-time Ajv load excluded.
const firstCompile = med(preloadedRuns, 'readyMs');
const firstCompileCpu = med(preloadedRuns, 'cpuMs');

console.log('case                 engine      ours ops/s     ajv ops/s   ajv/ours  errors');
for (const r of rows) {
  console.log(`${String(r.case).padEnd(20)} ${String(r.engine).padEnd(9)} ${String(r.ours_ops).padStart(12)} ${String(r.ajv_ops).padStart(13)} ${String(r.ajv_over_ours).padStart(9)}x ${String(r.errors).padStart(6)}`);
}
console.log(`first compile of grasp schema (fresh process, median of 5), Ajv loaded and warmed once per process: compile + code generation ${firstCompile.toFixed(2)} ms wall, ${firstCompileCpu.toFixed(2)} ms CPU (compileSchema alone ${med(preloadedRuns, 'compileMs').toFixed(2)} ms)`);
console.log(`  from a cold process: compileSchema ${med(coldRuns, 'compileMs').toFixed(2)} ms; first validate() ready after ${med(coldRuns, 'readyMs').toFixed(2)} ms wall (${med(coldRuns, 'cpuMs').toFixed(2)} ms CPU), which includes loading and warming Ajv once per process (${med(preloadedRuns, 'ajvLoadMs').toFixed(1)} ms measured alone); import of toolwright/schema through tsx ${med(coldRuns, 'importMs').toFixed(1)} ms`);
console.log(`load average now: ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ')} on ${(await import('node:os')).cpus().length} cores`);
console.log(`targets: within 2x of Ajv: ${allWithin ? 'MET' : 'MISSED'}; first compile < 20 ms, counted as compile + code generation, Ajv loaded and warmed once per process: wall ${firstCompile < 20 ? 'MET' : 'MISSED'}, CPU ${firstCompileCpu < 20 ? 'MET' : 'MISSED'} (the compileSchema() call alone: ${med(coldRuns, 'compileMs') < 20 ? 'MET' : 'MISSED'})`);
if (process.argv.includes('--json')) console.log(JSON.stringify({ rows, firstCompileMs: firstCompile, firstCompileCpuMs: firstCompileCpu, coldRuns, preloadedRuns }));
if (sink < 0) console.log(sink);
