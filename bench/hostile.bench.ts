// Hostile-input figures (issue 13): stop_arm latency while hostile calls are in flight, and an
// RSS-sampled soak of hostile calls. A figure, not a threshold. Real loopback HTTP, one process.
//   npx tsx bench/hostile.bench.ts [--quick]
// For each hostile case (10,000 unknown keys, 20,000 bad array items, 174k-deep arguments,
// ^\d+\d+$-style long strings), N rounds of: start a motion, fire the hostile call, send stop_arm,
// time stop_arm's answer. Then a soak: hostile calls back to back for D seconds, RSS sampled each
// second; flat means the last sample is within 64 MB of the first after warm-up.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRobotServer } from '../examples/robot-arm/server/create-robot-server.js';
import { steppedPacer } from '../examples/robot-arm/server/sim-pacer.js';

const quick = process.argv.includes('--quick');
const rounds = quick ? 5 : 20;
const soakSeconds = quick ? 10 : 60;
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const FAR = { target_position: { x_mm: -400, y_mm: -300, z_mm: 150 }, speed: 0.1 };

const robot = createRobotServer({ approval: 'off', pacer: steppedPacer(20), motionRatePerSecond: 100, motionBurst: 100, auditLogPath: join(mkdtempSync(join(tmpdir(), 'hostile-bench-')), 'audit.jsonl') });
const listener = await robot.server.listen({ port: 0, host: '127.0.0.1' });
const url = String(listener.url);
let id = 1;

async function post(name: string, body: string): Promise<number> {
  const response = await fetch(url, { method: 'POST', body, signal: AbortSignal.timeout(120_000), headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name } });
  return (await response.text()).length;
}
const call = (name: string, args: string): Promise<number> => post(name, `{"jsonrpc":"2.0","id":${id++},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${args},"_meta":${JSON.stringify(META)}}}`);

const cases: Record<string, string> = {
  'unknown keys (10,000; 99 KB)': JSON.stringify({ ...FAR, ...Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`unknown_key_${i}`, i])) }),
  'bad array items (20,000)': JSON.stringify({ waypoints: Array.from({ length: 20_000 }, (_, i) => i) }),
  'nesting (174,000 levels)': `${'{"a":'.repeat(174_000)}1${'}'.repeat(174_000)}`,
  'long string (1 MB)': JSON.stringify({ ...FAR, frame: '1'.repeat(1_000_000) }),
};

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
console.log(`stop_arm latency with a hostile call in flight (${rounds} rounds each, ms):`);
for (const [label, args] of Object.entries(cases)) {
  const latencies: number[] = [];
  let answerBytes = 0;
  for (let r = 0; r < rounds; r++) {
    const move = call('move_arm_to_pose', JSON.stringify(FAR));
    while (robot.controller.sim.state !== 'moving') await new Promise((done) => setTimeout(done, 2));
    const hostile = call('move_arm_to_pose', args);
    const started = performance.now();
    await call('stop_arm', '{}');
    latencies.push(performance.now() - started);
    answerBytes = Math.max(answerBytes, await hostile);
    await move;
  }
  latencies.sort((a, b) => a - b);
  console.log(`  ${label.padEnd(30)} p50 ${percentile(latencies, 0.5).toFixed(1)}  p95 ${percentile(latencies, 0.95).toFixed(1)}  max ${latencies.at(-1)!.toFixed(1)}  (largest hostile answer ${answerBytes} bytes)`);
}

const samples: number[] = [];
let calls = 0;
const end = Date.now() + soakSeconds * 1000;
const sampler = setInterval(() => samples.push(process.memoryUsage().rss / 2 ** 20), 1000);
const all = Object.values(cases);
while (Date.now() < end) { await call('move_arm_to_pose', all[calls % all.length]!); calls++; }
clearInterval(sampler);
const warm = samples.slice(Math.min(2, samples.length - 1));
const growth = warm.at(-1)! - warm[0]!;
console.log(`soak: ${calls} hostile calls in ${soakSeconds} s; RSS MB ${samples.map((s) => s.toFixed(0)).join(' ')}; growth after warm-up ${growth.toFixed(1)} MB (${Math.abs(growth) <= 64 ? 'flat within 64 MB' : 'NOT flat within 64 MB'})`);
await listener.close();
await robot.close();
