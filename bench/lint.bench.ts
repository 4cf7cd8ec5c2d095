// Lint speed: 1,000 tools must lint in under 2 seconds (issue 6). Builds a deterministic catalog
// of 1,000 tools (the five seed robot tools, renamed and varied, plus broken variants so that
// rules actually report), then measures
//   1. lintTools() in-process with every default rule (5 runs: first, median, best), and
//   2. the whole `toolwright lint <file> --format json` command (its run()) in a fresh process
//      (startup, tsx transpilation, loading, linting, formatting), 3 runs, wall and CPU time.
// CPU time is printed beside wall time: on a shared machine wall time includes waiting for a core.
// `--json` also prints the numbers as JSON.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintTools } from '../src/lint/engine.js';

if (process.argv[2] === '--child') {
  // Fresh process: the real command on the file, output discarded; report CPU used since process start
  // (node startup, TypeScript transpilation, module loading, linting, formatting).
  const { run } = await import('../src/cli/commands/lint.js');
  const code = await run([process.argv[3]!, '--format', 'json'], { stdout: { write: () => true }, stderr: { write: (t: string) => process.stderr.write(t) } });
  const used = process.cpuUsage();
  process.stdout.write(JSON.stringify({ code, cpuMs: (used.user + used.system) / 1000 }));
  process.exit(0);
}

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const TOOL_COUNT = 1000;
const BUDGET_MS = 2000;

const seeds = (JSON.parse(readFileSync(join(root, 'test/fixtures/lint/seed-good.json'), 'utf8')) as { tools: Record<string, unknown>[] }).tools;
const words = ['north', 'south', 'east', 'west', 'upper', 'lower', 'left', 'right', 'front', 'rear'];

function variant(i: number): Record<string, unknown> {
  const seed = structuredClone(seeds[i % seeds.length]!);
  const suffix = `${words[i % words.length]}_${words[Math.floor(i / words.length) % words.length]}_${Math.floor(i / 100)}`;
  seed.name = `${String(seed.name)}_${suffix}`;
  seed.description = `${String(seed.description)} Station ${suffix.replace(/_/g, ' ')}.`;
  // Distinct schemas (as in a real catalog), so no cache keyed on schema content can help.
  for (const property of Object.values((seed.inputSchema as { properties: Record<string, Record<string, unknown>> }).properties)) {
    property.description = `${String(property.description)} (${suffix.replace(/_/g, ' ')})`;
    if (typeof property.maximum === 'number') property.maximum += i;
  }
  // Every seventh tool is broken in some way, so the reporting paths are exercised too.
  if (i % 7 === 3) (seed.inputSchema as Record<string, unknown>).additionalProperties = true;
  if (i % 7 === 5) seed.description = 'Controls it.';
  if (i % 7 === 6) seed.inputSchema = {};
  return seed;
}

const tools = Array.from({ length: TOOL_COUNT }, (_, i) => variant(i));

const runs: number[] = [];
const cpu: number[] = [];
let findings = 0;
for (let r = 0; r < 5; r++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = lintTools(tools);
  runs.push(performance.now() - t0);
  const used = process.cpuUsage(c0);
  cpu.push((used.user + used.system) / 1000);
  findings = result.findings.length;
}
const sorted = [...runs].sort((a, b) => a - b);
const cpuSorted = [...cpu].sort((a, b) => a - b);
// CPU time is reported beside wall time because the machine is shared: wall time includes waiting for a core.
const inProcess = { first: runs[0]!, median: sorted[2]!, best: sorted[0]!, cpuFirst: cpu[0]!, cpuMedian: cpuSorted[2]! };

const dir = mkdtempSync(join(tmpdir(), 'tw-lint-bench-'));
const file = join(dir, 'tools.json');
writeFileSync(file, JSON.stringify({ tools }));
const cli: number[] = [];
const cliCpu: number[] = [];
let exitCode: number | null = null;
try {
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', file], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    cli.push(performance.now() - t0);
    if (child.status !== 0) throw new Error(`lint child failed (${child.status}): ${child.stderr}`);
    const report = JSON.parse(child.stdout) as { code: number; cpuMs: number };
    exitCode = report.code;
    cliCpu.push(report.cpuMs);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const cliSorted = [...cli].sort((a, b) => a - b);
const command = { median: cliSorted[1]!, best: cliSorted[0]!, cpuMedian: [...cliCpu].sort((a, b) => a - b)[1]! };

const ok = (ms: number): string => (ms < BUDGET_MS ? 'OK' : 'OVER BUDGET');
const load = loadavg()[0]!;
process.stdout.write(`toolwright lint bench: ${TOOL_COUNT} tools, ${findings} findings (load average ${load.toFixed(1)})\n`);
process.stdout.write(`  lintTools() in-process: first ${inProcess.first.toFixed(0)} ms (CPU ${inProcess.cpuFirst.toFixed(0)} ms), median ${inProcess.median.toFixed(0)} ms (CPU ${inProcess.cpuMedian.toFixed(0)} ms), best ${inProcess.best.toFixed(0)} ms  [CPU ${ok(inProcess.cpuFirst)}, wall ${ok(inProcess.first)} vs ${BUDGET_MS} ms]\n`);
process.stdout.write(`  toolwright lint (new process via tsx, exit ${exitCode}): median ${command.median.toFixed(0)} ms (CPU ${command.cpuMedian.toFixed(0)} ms incl. startup), best ${command.best.toFixed(0)} ms  [CPU ${ok(command.cpuMedian)}, wall ${ok(command.median)} vs ${BUDGET_MS} ms]\n`);
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ tools: TOOL_COUNT, findings, inProcess, command, budgetMs: BUDGET_MS, loadAverage: load })}\n`);
