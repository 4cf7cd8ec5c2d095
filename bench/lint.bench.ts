// Lint speed (issue 31 item 2) on a deterministic catalog of 1,000 tools (bench/lib/lint-catalog.ts).
// The current source is compiled first into a temporary directory (`tsc -p tsconfig.build.json
// --outDir`, then bundled by scripts/bundle-node.mjs as `npm run build` does; `--cli
// <dist/cli/main.js>` measures a given build instead), and everything timed in a
// fresh process runs that compiled JavaScript in plain node, as a user's process does (no tsx: its
// loader hooks cost ~100 ms of a cold run, most of it while gpt-tokenizer loads):
//   1. lintTools() in a fresh process (imported from 'toolwright/lint' as built, bundled), cold first
//      run, default rules and `--provider all`: CPU
//      (target < 500 ms with the default rules). 3 processes each, median.
//   2. the token counter alone (gpt-tokenizer's o200k_base: load + first count) in a fresh
//      process, measured separately because the budget rules need it and its load is fixed.
//   3. lintTools() warm, in this process (5 runs).
//   4. the compiled CLI as a user runs it, `node dist/cli/main.js lint <file> --format json`, in a
//      fresh process: wall time, start-up included (target < 1,000 ms); 5 runs, also with
//      `--provider all` and on an empty catalog.
// CPU time is printed beside wall time: on a shared machine wall time includes waiting for a core.
// Results go to bench/results/lint.md (`--no-write` to skip); `--json` prints them as JSON last;
// `--profile` also CPU-profiles one cold lintTools() process into bench/results/profile-lint.md.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintCatalog } from './lib/lint-catalog.js';
import { profileMarkdown, summariseProfile } from './lib/cpu-profile.js';

const self = fileURLToPath(import.meta.url);
const root = join(dirname(self), '..');
const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;

const TOOL_COUNT = 1000;
const CPU_TARGET_MS = 500;
const CLI_TARGET_MS = 1000;
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const loads: number[] = [loadavg()[0]!];
const tools = lintCatalog(TOOL_COUNT);
const dir = mkdtempSync(join(tmpdir(), 'tw-lint-bench-'));
const file = join(dir, 'tools.json');
const emptyFile = join(dir, 'empty.json');
writeFileSync(file, JSON.stringify({ tools }));
writeFileSync(emptyFile, JSON.stringify({ tools: [] }));

/**
 * The fresh-process measurements, as plain JavaScript run on the compiled build (`dist`, given as
 * its first argument): `cold <catalog> [all]` imports 'toolwright/lint' and times one lintTools();
 * `tokenizer` loads gpt-tokenizer's o200k_base and counts once. Each prints one JSON line.
 */
const COLD_CHILD = `import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
const [dist, mode, file, providers] = process.argv.slice(2);
const cpuMs = (u) => (u.user + u.system) / 1000;
const c0 = process.cpuUsage();
const t0 = performance.now();
if (mode === 'tokenizer') {
  createRequire(join(dist, 'lint', 'engine.js'))('gpt-tokenizer/encoding/o200k_base').countTokens('Grip force in newtons.');
  process.stdout.write(JSON.stringify({ wallMs: performance.now() - t0, cpuMs: cpuMs(process.cpuUsage(c0)) }));
} else {
  const { lintTools, parseLintConfig, BUILTIN_RULES } = await import(pathToFileURL(join(dist, 'lint', 'index.js')).href);
  const tools = JSON.parse(readFileSync(file, 'utf8')).tools;
  const options = providers === 'all' ? { config: parseLintConfig({ rules: Object.fromEntries(BUILTIN_RULES.filter((r) => r.family === 'provider').map((r) => [r.id, { options: { providers: ['all'] } }])) }, BUILTIN_RULES) } : {};
  const c1 = process.cpuUsage();
  const t1 = performance.now();
  const result = lintTools(tools, options);
  process.stdout.write(JSON.stringify({ wallMs: performance.now() - t1, cpuMs: cpuMs(process.cpuUsage(c1)), findings: result.findings.length }));
}
`;
const coldChild = join(dir, 'cold-child.mjs');
writeFileSync(coldChild, COLD_CHILD);

function child<T>(dist: string, args: string[], nodeFlags: string[] = []): T {
  const run = spawnSync(process.execPath, [...nodeFlags, coldChild, dist, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`bench child ${args[0]} failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

interface ProcessRun { wallMs: number; cpuMs: number; status: number | null }
// The child reports its own CPU time (user + system since process start) on stderr as it exits.
const CPU_REPORTER = `data:text/javascript,import{writeSync}from"node:fs";process.on("exit",()=>{const u=process.cpuUsage();writeSync(2,"\\ntw-bench-cpu-ms "+(u.user+u.system)/1000+"\\n")})`;
function runCompiled(main: string, target: string, extra: string[] = []): ProcessRun {
  const t0 = performance.now();
  const run = spawnSync(process.execPath, ['--import', CPU_REPORTER, main, 'lint', target, '--format', 'json', ...extra], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const wallMs = performance.now() - t0;
  const cpuLine = /tw-bench-cpu-ms ([\d.]+)/.exec(run.stderr);
  if (run.error !== undefined || cpuLine === null || (run.status !== 0 && run.status !== 1)) throw new Error(`compiled lint failed (${run.status}): ${run.error?.message ?? run.stderr}`);
  JSON.parse(run.stdout); // the report must be complete JSON
  return { wallMs, cpuMs: Number(cpuLine[1]), status: run.status };
}
/** Compiles src/ into a temporary directory that resolves packages from this checkout. */
function buildCli(): string {
  const out = join(dir, 'build');
  mkdirSync(out);
  symlinkSync(join(root, 'node_modules'), join(out, 'node_modules'), 'dir');
  cpSync(join(root, 'package.json'), join(out, 'package.json'));
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', join(out, 'dist')], { cwd: root, encoding: 'utf8' });
  const main = join(out, 'dist/cli/main.js');
  try { readFileSync(main); } catch { throw new Error(`tsc did not produce the CLI (${tsc.status}): ${tsc.stdout}${tsc.stderr}`); }
  // Bundled as `npm run build` bundles it: what an installed package runs.
  const bundle = spawnSync(process.execPath, [join(root, 'scripts/bundle-node.mjs'), join(out, 'dist')], { cwd: root, encoding: 'utf8' });
  if (bundle.status !== 0) throw new Error(`bundling the build failed (${bundle.status}): ${bundle.stdout}${bundle.stderr}`);
  return main;
}
const summarise = (rs: ProcessRun[]) => ({ runs: rs.length, wallMedian: median(rs.map((r) => r.wallMs)), cpuMedian: median(rs.map((r) => r.cpuMs)), wallBest: Math.min(...rs.map((r) => r.wallMs)), exit: rs[0]!.status });

interface Cold { wallMs: number; cpuMs: number; findings: number }
let result: Record<string, unknown>;
try {
  const coldDefault: Cold[] = [];
  const coldAll: Cold[] = [];
  const tokenizer: Array<{ wallMs: number; cpuMs: number }> = [];
  const main = process.argv.includes('--cli') ? process.argv[process.argv.indexOf('--cli') + 1]! : buildCli();
  const dist = dirname(dirname(main));
  for (let r = 0; r < 3; r++) {
    coldDefault.push(child<Cold>(dist, ['cold', file]));
    coldAll.push(child<Cold>(dist, ['cold', file, 'all']));
    tokenizer.push(child(dist, ['tokenizer']));
  }
  if (process.argv.includes('--profile')) {
    const profileDir = join(dir, 'profile');
    child<Cold>(dist, ['cold', file], ['--cpu-prof', '--cpu-prof-dir', profileDir]);
    const profile = join(profileDir, readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'))!);
    writeFileSync(join(root, 'bench/results/profile-lint.md'), `# CPU profile: one fresh process importing the lint engine and running lintTools() once on 1,000 tools (default rules)\n\nWritten by \`npm run bench:lint -- --profile\`; the whole process (start-up included), running the compiled build in plain node. Load average ${loadavg()[0]!.toFixed(2)}.\n\n${profileMarkdown('Self time', summariseProfile(profile, [dirname(dist), root], 25))}`);
  }
  const { lintTools } = await import('../src/lint/engine.js');
  lintTools(tools);
  const warm: number[] = [];
  for (let r = 0; r < 5; r++) { const c0 = process.cpuUsage(); lintTools(tools); warm.push(cpuMs(process.cpuUsage(c0))); }
  loads.push(loadavg()[0]!);
  const cli: ProcessRun[] = []; const cliAll: ProcessRun[] = []; const cliEmpty: ProcessRun[] = [];
  for (let r = 0; r < 5; r++) {
    cli.push(runCompiled(main, file));
    if (r < 3) { cliAll.push(runCompiled(main, file, ['--provider', 'all'])); cliEmpty.push(runCompiled(main, emptyFile)); }
  }
  loads.push(loadavg()[0]!);
  const pick = (runs: Cold[]) => ({ cpuMedian: median(runs.map((x) => x.cpuMs)), wallMedian: median(runs.map((x) => x.wallMs)), findings: runs[0]!.findings });
  result = {
    tools: TOOL_COUNT, coldDefault: pick(coldDefault), coldProviderAll: pick(coldAll),
    tokenizer: { cpuMedian: median(tokenizer.map((x) => x.cpuMs)), wallMedian: median(tokenizer.map((x) => x.wallMs)) },
    warmCpuMedian: median(warm), cli: summarise(cli), cliProviderAll: summarise(cliAll), cliEmpty: summarise(cliEmpty),
    targets: { cpuMs: CPU_TARGET_MS, cliWallMs: CLI_TARGET_MS }, loadAverage: loads, cores: cpus().length, node: process.version,
  };
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const r = result as {
  coldDefault: { cpuMedian: number; wallMedian: number; findings: number }; coldProviderAll: { cpuMedian: number; findings: number };
  tokenizer: { cpuMedian: number }; warmCpuMedian: number; cli: ReturnType<typeof summarise>; cliProviderAll: ReturnType<typeof summarise>; cliEmpty: ReturnType<typeof summarise>;
};
const ms = (x: number): string => `${x.toFixed(0)} ms`;
const verdict = (value: number, target: number): string => (value < target ? 'MET' : 'MISSED');
const loadText = `${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}`;
const lines = [
  `toolwright lint bench: ${TOOL_COUNT} tools, ${r.coldDefault.findings} findings with the default rules (${r.coldProviderAll.findings} with --provider all); load average ${loadText} on ${cpus().length} cores`,
  `  lintTools() cold first run, fresh process, default rules: CPU ${ms(r.coldDefault.cpuMedian)} (wall ${ms(r.coldDefault.wallMedian)})  [target < ${CPU_TARGET_MS} ms CPU: ${verdict(r.coldDefault.cpuMedian, CPU_TARGET_MS)}]`,
  `  lintTools() cold first run, --provider all: CPU ${ms(r.coldProviderAll.cpuMedian)}`,
  `  of which the token counter's one-time load (gpt-tokenizer o200k_base + first count, fresh process): CPU ${ms(r.tokenizer.cpuMedian)}`,
  `  lintTools() warm (this process, median of 5): CPU ${ms(r.warmCpuMedian)}`,
  `  compiled CLI, node dist/cli/main.js lint <file> --format json: wall ${ms(r.cli.wallMedian)} (CPU ${ms(r.cli.cpuMedian)}), exit ${r.cli.exit}  [target < ${CLI_TARGET_MS} ms wall: ${verdict(r.cli.wallMedian, CLI_TARGET_MS)}]`,
  `  compiled CLI with --provider all: wall ${ms(r.cliProviderAll.wallMedian)} (CPU ${ms(r.cliProviderAll.cpuMedian)}); empty catalog (start-up): wall ${ms(r.cliEmpty.wallMedian)} (CPU ${ms(r.cliEmpty.cpuMedian)})`,
];
process.stdout.write(`${lines.join('\n')}\n`);
if (!process.argv.includes('--no-write')) {
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  writeFileSync(join(root, 'bench/results/lint.md'), [
    '# toolwright lint: 1,000 tools (issue 31 item 2)', '',
    `Run by \`npm run bench:lint\` (bench/lint.bench.ts) on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${commit}, Node ${process.version}, ${cpus().length} cores, load average ${loadText}.`,
    'CPU time (user + system, all threads) is the guide on a shared machine: wall time includes waiting for a core.', '',
    '```text', ...lines, '```', '',
  ].join('\n'));
}
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(result)}\n`);
