// What an open operator console costs the robot server (issue 18's budget: tools/call throughput
// within 10% of its figure without a console). The robot server (packages/robot-arm/main.ts, approval
// off, in-process simulator) is kept moving by back-and-forth motions, so its feed sends the
// motion-rate view updates a console receives; the load is get_device_status over HTTP (autocannon
// in its own process, c=16). Rounds alternate "no console" and "one console live channel open"
// (/console/events), in a rotating order, so drift in machine load hits both alike; the figure is
// the ratio of the medians. Writes bench/results/console.md (`--no-write` to skip).
//   npm run bench:console [-- --rounds 4 --duration 4]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runLoad, loadProblems, type LoadResult } from './lib/http-load.js';
import { median } from './lib/stats.js';
import { httpHeadersFor, REQUEST_META } from './shared/mcp.js';
import { repoPath, TSX_LOADER } from '../test/support/repo-paths.js';
import { robotAuthHeaders } from '../test/support/robot-token.js';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, duration: { type: 'string' }, 'no-write': { type: 'boolean' } } });
const ROUNDS = Number(values.rounds ?? 4);
const DURATION_SEC = Number(values.duration ?? 4);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1 || !Number.isInteger(DURATION_SEC) || DURATION_SEC < 1) throw new RangeError('--rounds and --duration must be positive whole numbers');

const WORKER = repoPath('bench/load/autocannon-worker.ts');
const TARGETS = [{ x_mm: -400, y_mm: -133, z_mm: 400 }, { x_mm: -380, y_mm: -50, z_mm: 450 }];

// The robot's state folder: its audit key, and the /mcp token file every request's header is read from.
const STATE_ENV = { TOOLWRIGHT_STATE_DIR: mkdtempSync(join(tmpdir(), 'console-bench-state-')) };

function headers(name: string): Record<string, string> {
  return { ...httpHeadersFor({ jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name } }), ...robotAuthHeaders(STATE_ENV) };
}

function callBody(id: number, name: string, args: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: REQUEST_META } });
}

interface Robot { child: ChildProcess; mcpUrl: string; consoleUrl: string }

function startRobot(): Promise<Robot> {
  const dir = mkdtempSync(join(tmpdir(), 'console-bench-'));
  const child = spawn(process.execPath, ['--import', TSX_LOADER, repoPath('packages/robot-arm/main.ts'), '--approval', 'off', '--controller', 'inprocess', '--rate', '20', '--audit-log', join(dir, 'audit.jsonl')], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, PORT: '0', ...STATE_ENV } });
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`robot server gave no banner in 60 s: ${stderr}`)); }, 60_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const consoleUrl = /^console: (\S+)$/m.exec(stderr)?.[1];
      const mcpUrl = /(http:\/\/\S+\/mcp)\b/.exec(stderr)?.[1];
      if (consoleUrl !== undefined && mcpUrl !== undefined) { clearTimeout(timer); resolve({ child, mcpUrl, consoleUrl }); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`robot server exited (${code}) before its banner: ${stderr}`)); });
  });
}

/** Moves the arm back and forth until stopped; counts motions that completed. */
function keepMoving(mcpUrl: string): { stop(): Promise<number> } {
  let running = true;
  let completed = 0;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const res = await fetch(mcpUrl, { method: 'POST', headers: headers('move_arm_to_pose'), body: callBody(i, 'move_arm_to_pose', { target_position: TARGETS[i % 2], speed: 0.3 }) });
      const text = await res.text();
      const json = text.startsWith('{') ? text : (text.split('\n').filter((l) => l.startsWith('data:')).pop() ?? '').slice(5);
      const status = (JSON.parse(json) as { result?: { structuredContent?: { status?: string } } }).result?.structuredContent?.status;
      if (status !== 'completed') throw new Error(`a motion did not complete: ${text.slice(0, 400)}`);
      completed++;
    }
  })();
  return { async stop() { running = false; await loop; return completed; } };
}

/** A console page's live channel: counts the events it receives. */
async function openConsole(consoleUrl: string): Promise<{ close(): Promise<Map<string, number>> }> {
  const url = new URL(consoleUrl);
  const events = new URL(`/console/events?token=${url.searchParams.get('token') ?? ''}`, url);
  const abort = new AbortController();
  const res = await fetch(events, { signal: abort.signal, headers: { accept: 'text/event-stream' } });
  if (res.status !== 200 || res.body === null) throw new Error(`console events answered ${res.status}`);
  const counts = new Map<string, number>();
  const reading = (async () => {
    const decoder = new TextDecoder();
    try {
      const reader = res.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const [, name] of decoder.decode(value, { stream: true }).matchAll(/^event: (\S+)$/gm)) counts.set(name!, (counts.get(name!) ?? 0) + 1);
      }
    } catch { /* aborted */ }
  })();
  return { async close() { abort.abort(); await reading; return counts; } };
}

async function measure(robot: Robot, withConsole: boolean): Promise<{ load: LoadResult; perSec: Map<string, number> }> {
  const consoleChannel = withConsole ? await openConsole(robot.consoleUrl) : undefined;
  const started = performance.now();
  const load = await runLoad(WORKER, { url: robot.mcpUrl, connections: 16, durationSec: DURATION_SEC, body: callBody(1, 'get_device_status', {}), headers: headers('get_device_status'), timeoutSec: 10 }, ['--import', TSX_LOADER]);
  const events = consoleChannel === undefined ? new Map<string, number>() : await consoleChannel.close();
  const problems = loadProblems(load);
  if (problems.length > 0) throw new Error(`load run failed: ${problems.join('; ')}`);
  const seconds = (performance.now() - started) / 1000;
  return { load, perSec: new Map([...events].map(([name, n]) => [name, n / seconds])) };
}

const loadBefore = loadavg();
const robot = await startRobot();
const motion = keepMoving(robot.mcpUrl);
const without: number[] = [];
const withOne: number[] = [];
const eventRates = new Map<string, number[]>();
try {
  await measure(robot, false); // warm-up, not counted
  for (let round = 0; round < ROUNDS; round++) {
    for (const withConsole of round % 2 === 0 ? [false, true] : [true, false]) {
      const { load, perSec } = await measure(robot, withConsole);
      (withConsole ? withOne : without).push(load.rps);
      for (const [name, rate] of perSec) eventRates.set(name, [...(eventRates.get(name) ?? []), rate]);
      process.stderr.write(`round ${round + 1} ${withConsole ? 'console open' : 'no console  '}: ${load.rps.toFixed(0)} req/s${withConsole ? `, events/s ${[...perSec].map(([n, r]) => `${n} ${r.toFixed(1)}`).join(', ')}` : ''}\n`);
    }
  }
} finally {
  const motions = await motion.stop().catch((error: unknown) => { process.stderr.write(`motion loop: ${String(error)}\n`); return -1; });
  process.stderr.write(`${motions} motions completed during the run\n`);
  robot.child.kill('SIGTERM');
}
const ratio = median(withOne) / median(without);
const markdown = `# Operator console cost\n\nRobot server, approval off, in-process simulator, the arm moving throughout; get_device_status over HTTP, c=16, ${ROUNDS} rounds × ${DURATION_SEC} s per case, alternating. ${cpus().length} cores, load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} before.\n\n` +
  `| case | req/s (median) | rounds |\n|---|---:|---|\n| no console | ${median(without).toFixed(0)} | ${without.map((r) => r.toFixed(0)).join(', ')} |\n| one console live channel open | ${median(withOne).toFixed(0)} | ${withOne.map((r) => r.toFixed(0)).join(', ')} |\n\n` +
  `Ratio: **${ratio.toFixed(2)}×** (target ≥ 0.90×: ${ratio >= 0.9 ? 'met' : 'MISSED'}).\n\n` +
  `Events the console received per second (median over the rounds, by SSE event name; the workbench's call history gets every call's stage events): ${[...eventRates].map(([name, rates]) => `${name} ${median(rates).toFixed(1)}`).join(', ')}.\n`;
process.stdout.write(markdown);
if (values['no-write'] !== true) writeFileSync(repoPath('bench/results/console.md'), markdown);
