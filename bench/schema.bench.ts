// Schema engine benchmark (issue 31 item 1): our compileSchema().validate() against Ajv 8's compiled
// Ajv2020 validator (allErrors: true, like ours) in the same process, on the four fixtures of
// bench/lib/schema-cases.ts, with every hostile-input bound at its default.
//
// Interleaved rounds: each round measures every case on both engines back to back (the order
// alternates between rounds), and the figure is the median of the per-round ratios ours ÷ Ajv, so
// drift of the shared machine's load cancels out. The load average is printed; a run whose
// 1-minute load average exceeded 1.5 (this process alone adds ~1) is marked to be repeated.
// Targets: every fixture >= 1.0x Ajv, none below 0.8x.
//
// Also measures the first compile of the grasp schema in fresh processes, and the cost of reading
// the model-readable messages of an invalid result (not a target: Ajv has no such messages).
//
//   npm run bench:schema                       rounds + first compile
//   npm run bench:schema -- --rounds 21 --ms 150
//   npm run bench:schema -- --profile          also CPU-profiles ours on each case (node --cpu-prof)
//                                              and writes bench/results/profile-schema.md
//   npm run bench:schema -- --json             last line: the figures as JSON (bench/run.ts reads it)
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { SCHEMA_CASES, graspSchema } from './lib/schema-cases.js';
import { profileMarkdown, summariseProfile } from './lib/cpu-profile.js';

const self = fileURLToPath(import.meta.url);
const root = join(dirname(self), '..');
const argValue = (flag: string, fallback: number): number => {
  const at = process.argv.indexOf(flag);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};

let sink = 0;
function opsPerSecond(fn: () => unknown, ms: number): number {
  let n = 0;
  const start = performance.now();
  const end = start + ms;
  let t = start;
  while (t < end) {
    for (let i = 0; i < 200; i++) { if (fn()) sink++; }
    n += 200;
    t = performance.now();
  }
  return n / ((t - start) / 1000);
}

if (process.argv[2] === '--first-compile') {
  // Fresh process. compileSchema() runs every definition check; the first validate() builds the
  // validator. With --preload-ajv the one-time Ajv load and generator warm-up are taken out first.
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
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const compiled = compileSchema(graspSchema);
  const compileMs = performance.now() - t0;
  compiled.validate({ target_position: { x: 1, y: 2, z: 3 } });
  const readyMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({ compileMs, readyMs, cpuMs: (cpu.user + cpu.system) / 1000, importMs, ajvLoadMs, engine: compiled.engine }));
  process.exit(0);
}

if (process.argv[2] === '--profile-child') {
  // Runs only ours on one case, under node --cpu-prof (started by the parent).
  const { compileSchema } = await import('../src/schema/index.js');
  const c = SCHEMA_CASES[Number(process.argv[3])]!;
  const ours = compileSchema(c.schema);
  opsPerSecond(() => ours.validate(c.data).valid, argValue('--ms', 3000));
  process.exit(sink < 0 ? 1 : 0);
}

const { compileSchema } = await import('../src/schema/index.js');
const { Ajv2020 } = await import('ajv/dist/2020.js');

const rounds = argValue('--rounds', 15);
const ms = argValue('--ms', 200);
const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const loadBefore = loadavg()[0]!;

const ajv = new Ajv2020({ strict: false, allErrors: true, addUsedSchema: false });
const prepared = SCHEMA_CASES.map((c) => {
  const ours = compileSchema(c.schema);
  const theirs = ajv.compile(c.schema);
  if (ours.validate(c.data).valid !== c.valid || theirs(c.data) !== c.valid) throw new Error(`bench case ${c.name}: unexpected validity`);
  const oursFn = (): boolean => ours.validate(c.data).valid;
  // Ajv's answer: its validity plus the error objects it built (allErrors).
  const theirsFn = (): boolean => { const ok = theirs(c.data); return ok || (theirs.errors?.length ?? 0) > 0; };
  // Not a target: the invalid result's messages read too (Ajv leaves messages to the caller).
  const withMessages = (): boolean => ours.validate(c.data).errors.length > 0;
  opsPerSecond(oursFn, 300); opsPerSecond(theirsFn, 300); // warm-up
  return { c, ours, oursFn, theirsFn, withMessages, oursOps: [] as number[], ajvOps: [] as number[], ratios: [] as number[], messagesOps: [] as number[] };
});
for (let round = 0; round < rounds; round++) {
  for (const p of prepared) {
    let o: number; let a: number;
    if (round % 2 === 0) { o = opsPerSecond(p.oursFn, ms); a = opsPerSecond(p.theirsFn, ms); } else { a = opsPerSecond(p.theirsFn, ms); o = opsPerSecond(p.oursFn, ms); }
    p.oursOps.push(o); p.ajvOps.push(a); p.ratios.push(o / a);
    if (!p.c.valid && round < 3) p.messagesOps.push(opsPerSecond(p.withMessages, ms));
  }
}
const loadAfter = loadavg()[0]!;

interface SchemaBenchRow { case: string; engine: string; oursOps: number; ajvOps: number; ratio: number; lowestRoundRatio: number; errors: number; messagesOps?: number }
const rows: SchemaBenchRow[] = prepared.map((p) => ({
  case: p.c.name, engine: p.ours.engine, oursOps: median(p.oursOps), ajvOps: median(p.ajvOps), ratio: median(p.ratios),
  lowestRoundRatio: Math.min(...p.ratios), errors: p.ours.validate(p.c.data).errors.length,
  ...(p.messagesOps.length > 0 ? { messagesOps: median(p.messagesOps) } : {}),
}));

interface FirstCompile { compileMs: number; readyMs: number; cpuMs: number; importMs: number; ajvLoadMs: number }
const coldRuns: FirstCompile[] = [];
const preloadedRuns: FirstCompile[] = [];
for (let i = 0; i < 5; i++) {
  for (const preload of [false, true]) {
    const args = ['--import', 'tsx', self, '--first-compile', ...(preload ? ['--preload-ajv'] : [])];
    const child = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 60_000 });
    if (child.status !== 0) throw new Error(`first-compile child failed: ${child.stderr}`);
    (preload ? preloadedRuns : coldRuns).push(JSON.parse(child.stdout) as FirstCompile);
  }
}
const med = (runs: FirstCompile[], key: keyof FirstCompile): number => median(runs.map((r) => r[key]));
const firstCompile = med(preloadedRuns, 'readyMs');
const firstCompileCpu = med(preloadedRuns, 'cpuMs');

const busy = Math.max(loadBefore, loadAfter) > 1.5;
const allAtLeastOne = rows.every((r) => r.ratio >= 1);
const noneBelowFloor = rows.every((r) => r.ratio >= 0.8);
console.log(`schema engine vs Ajv2020 (allErrors), ${rounds} interleaved rounds × ${ms} ms per engine per case; figure = median of per-round ratios ours ÷ Ajv`);
console.log('case                 engine      ours ops/s     ajv ops/s  ours÷ajv  lowest round  errors  ours ops/s with messages read');
for (const r of rows) {
  console.log(`${r.case.padEnd(20)} ${r.engine.padEnd(9)} ${r.oursOps.toFixed(0).padStart(12)} ${r.ajvOps.toFixed(0).padStart(13)} ${r.ratio.toFixed(2).padStart(8)}x ${r.lowestRoundRatio.toFixed(2).padStart(12)}x ${String(r.errors).padStart(7)}  ${r.messagesOps === undefined ? '' : r.messagesOps.toFixed(0)}`);
}
console.log(`first compile of grasp schema (fresh process, median of 5), Ajv preloaded: compileSchema + first validate() (code generation) ${firstCompile.toFixed(2)} ms wall, ${firstCompileCpu.toFixed(2)} ms CPU (compileSchema alone ${med(preloadedRuns, 'compileMs').toFixed(2)} ms)`);
console.log(`  from a cold process: compileSchema ${med(coldRuns, 'compileMs').toFixed(2)} ms; first validate() ready after ${med(coldRuns, 'readyMs').toFixed(2)} ms wall (${med(coldRuns, 'cpuMs').toFixed(2)} ms CPU); the grasp schema is specialised, so Ajv (${med(preloadedRuns, 'ajvLoadMs').toFixed(1)} ms to load and warm alone) is not loaded for it; import of toolwright/schema through tsx ${med(coldRuns, 'importMs').toFixed(1)} ms`);
console.log(`load average (1 min): ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after, on ${cpus().length} cores${busy ? ' — ABOVE 1.5: repeat this run on a quieter machine; its figures are not reportable' : ''}`);
console.log(`targets: every fixture >= 1.0x Ajv: ${allAtLeastOne ? 'MET' : 'MISSED'}; none below 0.8x: ${noneBelowFloor ? 'MET' : 'MISSED'}; first compile < 20 ms: wall ${firstCompile < 20 ? 'MET' : 'MISSED'}, CPU ${firstCompileCpu < 20 ? 'MET' : 'MISSED'}`);

let profile: string | undefined;
if (process.argv.includes('--profile')) {
  const dir = mkdtempSync(join(tmpdir(), 'tw-schema-prof-'));
  const parts: string[] = ['# CPU profile: compileSchema().validate() on the schema bench fixtures', '', `Written by \`npm run bench:schema -- --profile\`: one process per case runs only our validate() for 3 s under \`node --cpu-prof\` (ops/s are lower than unprofiled). Load average ${loadavg()[0]!.toFixed(2)}.`, ''];
  try {
    SCHEMA_CASES.forEach((c, i) => {
      const caseDir = join(dir, String(i));
      const child = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', caseDir, '--import', 'tsx', self, '--profile-child', String(i)], { encoding: 'utf8', timeout: 60_000 });
      if (child.status !== 0) throw new Error(`profile child failed: ${child.stderr}`);
      const file = readdirSync(caseDir).find((name) => name.endsWith('.cpuprofile'))!;
      parts.push(profileMarkdown(`${c.name}: self time`, summariseProfile(join(caseDir, file), root, 12)).replace(/^## /, '## '));
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  profile = parts.join('\n');
  writeFileSync(join(root, 'bench', 'results', 'profile-schema.md'), profile);
  console.log('CPU profiles written to bench/results/profile-schema.md');
}
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ rows, rounds, msPerMeasurement: ms, loadBefore, loadAfter, busy, firstCompileMs: firstCompile, firstCompileCpuMs: firstCompileCpu, profiled: profile !== undefined }));
}
if (sink < 0) console.log(sink);
