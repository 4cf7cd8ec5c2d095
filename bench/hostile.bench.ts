// Hostile-input figures (issue 13): stop_arm latency while hostile calls are in flight, and an
// RSS-sampled soak of hostile calls. Figures, not thresholds. Real loopback HTTP; the robot server
// and this client share one process, so the soak's RSS is server plus a light fetch client.
//   npx tsx bench/hostile.bench.ts [--quick] [--only stop|soak] [--json]
// `npm run bench -- --only hostile,soak` runs it through bench/lib/suites/hostile.ts (--json: the
// last stdout line is one JSON document, HostileBenchOutput).
// stop: for each hostile case (10,000 unknown keys, 20,000 bad array items, 174k-deep arguments,
// a 1 MB string) and a baseline with no hostile call, N rounds of: start a motion, fire the
// hostile call, send stop_arm, time stop_arm's answer.
// soak: hostile calls back to back for D seconds, each followed by a stop_arm, RSS sampled each
// second; flat means the last sample is within SOAK_TOLERANCE_MB of the first after a 2 s warm-up.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulatedRobotServer } from '../packages/robot-arm/wiring/simulated-robot-server.js';
import { steppedPacer } from '../packages/robot-arm/driver/sim-pacer.js';

/** One hostile case's stop_arm latencies. */
export interface StopLatencyRow {
  readonly label: string;
  readonly rounds: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
  /** Largest answer to the hostile call itself. */
  readonly hostileAnswerBytes: number;
  /** stop_arm answers that were not a success. */
  readonly stopErrors: number;
}

/** The soak's samples and verdict. */
export interface SoakFigures {
  readonly seconds: number;
  readonly calls: number;
  readonly stopCalls: number;
  /**
   * Answers other than the documented one: a hostile call is refused inside an HTTP 200 answer
   * (invalid arguments), except the nesting case, refused unread with HTTP 400 and -32600 (the
   * message nesting bound, docs/hostile-input.md); stop_arm answers 200.
   */
  readonly unexpectedAnswers: number;
  readonly rssMb: number[];
  readonly growthMb: number;
  readonly toleranceMb: number;
  readonly flat: boolean;
}

export interface HostileBenchOutput {
  readonly mode: 'quick' | 'full';
  readonly stop?: StopLatencyRow[];
  readonly soak?: SoakFigures;
}

export const SOAK_TOLERANCE_MB = 64;
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const json = args.includes('--json');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? args[onlyIndex + 1] : undefined;
if (only !== undefined && only !== 'stop' && only !== 'soak') throw new Error(`--only takes stop or soak, got ${only}`);
// 40: with 20, the p95 was the slowest round itself (one stall decided the row); the max is reported too.
const rounds = quick ? 5 : 40;
const soakSeconds = quick ? 10 : 60;
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const FAR = { target_position: { x_mm: -400, y_mm: -300, z_mm: 150 }, speed: 0.1 };
const say = (line: string): void => { if (!json) process.stdout.write(`${line}\n`); };

const auditDir = mkdtempSync(join(tmpdir(), 'hostile-bench-'));
// The audit key and head outside the log's folder, and never in the user's state folder.
const auditKeyDir = mkdtempSync(join(tmpdir(), 'hostile-bench-key-'));
const robot = createSimulatedRobotServer({ approval: 'off', pacer: steppedPacer(20), motionRatePerSecond: 1000, motionBurst: 1000, auditLogPath: join(auditDir, 'audit.jsonl'), auditKeyPath: join(auditKeyDir, 'audit.key'), auditHeadPath: join(auditKeyDir, 'audit.head') });
const listener = await robot.server.listen({ port: 0, host: '127.0.0.1' });
const url = String(listener.url);
let id = 1;

async function post(name: string, body: string): Promise<{ status: number; bytes: number; text: string }> {
  const response = await fetch(url, { method: 'POST', body, signal: AbortSignal.timeout(120_000), headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name } });
  const text = await response.text();
  return { status: response.status, bytes: text.length, text };
}
const call = (name: string, argsJson: string): Promise<{ status: number; bytes: number; text: string }> =>
  post(name, `{"jsonrpc":"2.0","id":${id++},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${argsJson},"_meta":${JSON.stringify(META)}}}`);

/** Each hostile call's arguments, and the answer it must get: the HTTP status and the JSON-RPC error code, if any. */
interface HostileCase { readonly args: string; readonly status: number; readonly errorCode?: number }
const cases: Record<string, HostileCase> = {
  'unknown keys (10,000; 99 KB)': { args: JSON.stringify({ ...FAR, ...Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`unknown_key_${i}`, i])) }), status: 200 },
  'bad array items (20,000)': { args: JSON.stringify({ waypoints: Array.from({ length: 20_000 }, (_, i) => i) }), status: 200 },
  'nesting (174,000 levels)': { args: `${'{"a":'.repeat(174_000)}1${'}'.repeat(174_000)}`, status: 400, errorCode: -32600 },
  'long string (1 MB)': { args: JSON.stringify({ ...FAR, frame: '1'.repeat(1_000_000) }), status: 200 },
};

/** Whether an answer is the one the case documents. */
function expected(answer: { status: number; text: string }, hostile: HostileCase): boolean {
  if (answer.status !== hostile.status) return false;
  const code = (JSON.parse(answer.text) as { error?: { code?: number } }).error?.code;
  return code === hostile.errorCode;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function waitForMotion(): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (robot.driver.sim.state !== 'moving') {
    if (Date.now() > deadline) throw new Error('the motion never started');
    await new Promise((done) => setTimeout(done, 2));
  }
}

async function stopLatencies(): Promise<StopLatencyRow[]> {
  const rows: StopLatencyRow[] = [];
  say(`stop_arm latency with a hostile call in flight (${rounds} rounds each, ms):`);
  for (const [label, hostileCase] of [['none (baseline: stop during a motion)', undefined] as const, ...Object.entries(cases)]) {
    const latencies: number[] = [];
    let answerBytes = 0;
    let stopErrors = 0;
    for (let r = 0; r < rounds; r++) {
      const move = call('move_arm_to_pose', JSON.stringify(FAR));
      await waitForMotion();
      const hostile = hostileCase === undefined ? undefined : call('move_arm_to_pose', hostileCase.args);
      const started = performance.now();
      const stop = await call('stop_arm', '{}');
      latencies.push(performance.now() - started);
      if (stop.status !== 200 || !stop.text.includes('"was_moving"')) stopErrors++;
      if (hostile !== undefined) answerBytes = Math.max(answerBytes, (await hostile).bytes);
      await move;
    }
    latencies.sort((a, b) => a - b);
    const row = { label, rounds, p50Ms: percentile(latencies, 0.5), p95Ms: percentile(latencies, 0.95), maxMs: latencies.at(-1)!, hostileAnswerBytes: answerBytes, stopErrors };
    rows.push(row);
    say(`  ${label.padEnd(38)} p50 ${row.p50Ms.toFixed(1)}  p95 ${row.p95Ms.toFixed(1)}  max ${row.maxMs.toFixed(1)}  (largest hostile answer ${answerBytes} bytes, stop errors ${stopErrors})`);
  }
  return rows;
}

async function soak(): Promise<SoakFigures> {
  const samples: number[] = [];
  let calls = 0;
  let stopCalls = 0;
  let unexpectedAnswers = 0;
  const end = Date.now() + soakSeconds * 1000;
  const sample = (): void => { samples.push(process.memoryUsage().rss / 2 ** 20); };
  sample();
  const sampler = setInterval(sample, 1000);
  const all = Object.values(cases);
  while (Date.now() < end) {
    const hostile = all[calls % all.length]!;
    const answer = await call('move_arm_to_pose', hostile.args);
    calls++;
    if (!expected(answer, hostile)) unexpectedAnswers++;
    if (calls % 4 === 0) {
      const stop = await call('stop_arm', '{}');
      stopCalls++;
      if (stop.status !== 200) unexpectedAnswers++;
    }
  }
  clearInterval(sampler);
  sample();
  const warm = samples.slice(Math.min(2, samples.length - 1));
  const growthMb = warm.at(-1)! - warm[0]!;
  const figures = { seconds: soakSeconds, calls, stopCalls, unexpectedAnswers, rssMb: samples.map((s) => Math.round(s * 10) / 10), growthMb, toleranceMb: SOAK_TOLERANCE_MB, flat: Math.abs(growthMb) <= SOAK_TOLERANCE_MB };
  say(`soak: ${calls} hostile calls and ${stopCalls} stop_arm in ${soakSeconds} s, ${unexpectedAnswers} answer(s) not the documented one; RSS MB ${samples.map((s) => s.toFixed(0)).join(' ')}; growth after warm-up ${growthMb.toFixed(1)} MB (${figures.flat ? `flat within ${SOAK_TOLERANCE_MB} MB` : `NOT flat within ${SOAK_TOLERANCE_MB} MB`})`);
  return figures;
}

try {
  const output: HostileBenchOutput = {
    mode: quick ? 'quick' : 'full',
    ...(only !== 'soak' ? { stop: await stopLatencies() } : {}),
    ...(only !== 'stop' ? { soak: await soak() } : {}),
  };
  if (json) process.stdout.write(`${JSON.stringify(output)}\n`);
} finally {
  await listener.close();
  await robot.close();
  rmSync(auditDir, { recursive: true, force: true });
  rmSync(auditKeyDir, { recursive: true, force: true });
}
