// Proxy overhead (issue 32 "Measured"): a proxied tools/call (HTTP front from `toolwright proxy`,
// HTTP upstream from `toolwright serve`) against the same upstream called directly, at c=32 over
// keep-alive connections on loopback. Both servers are child processes; the load comes from this
// process. Prints one JSON line: throughput and p50/p99 of each, and the ratios.
// Run: npx tsx bench/proxy.bench.ts [--seconds 5] [--concurrency 32]
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postRpc } from './lib/http-client.js';
import { callSumRequest, EXPECTED_SUM } from './shared/mcp.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const SECONDS = arg('seconds', 5);
const CONCURRENCY = arg('concurrency', 32);

function start(args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not listening within 60 s: ${stderr}`)), 60_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /at http:\/\/127\.0\.0\.1:(\d+)\/mcp\n/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
}

async function load(port: number, tool: string): Promise<{ rps: number; p50: number; p99: number; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latencies: number[] = [];
  let errors = 0;
  let id = 0;
  const until = Date.now() + SECONDS * 1000;
  const worker = async (): Promise<void> => {
    while (Date.now() < until) {
      const base = callSumRequest(++id);
      const request = { ...base, params: { ...base.params, name: tool } };
      const started = performance.now();
      const answer = await postRpc(port, request, 30_000, agent);
      latencies.push(performance.now() - started);
      if (answer.status !== 200 || !answer.body.includes(`"sum":${EXPECTED_SUM}`)) errors++;
    }
  };
  const began = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - began) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2));
  return { rps: Math.round(latencies.length / elapsed), p50: at(0.5), p99: at(0.99), errors };
}

const dir = mkdtempSync(join(tmpdir(), 'tw-proxy-bench-'));
const upstream = await start(['serve', 'examples/demo/server.ts', '--http', '0']);
const config = join(dir, 'proxy.json');
writeFileSync(config, JSON.stringify({ upstreams: [{ prefix: 'up', http: { url: `http://127.0.0.1:${upstream.port}/mcp` }, maxConcurrent: CONCURRENCY }] }));
const front = await start(['proxy', '--config', config, '--http', '0']);
try {
  await load(upstream.port, 'calculate_sum'); // warm-up
  await load(front.port, 'up__calculate_sum');
  const direct = await load(upstream.port, 'calculate_sum');
  const proxied = await load(front.port, 'up__calculate_sum');
  console.log(JSON.stringify({ concurrency: CONCURRENCY, seconds: SECONDS, direct, proxied, throughputRatio: Number((proxied.rps / direct.rps).toFixed(2)), p99Ratio: Number((proxied.p99 / direct.p99).toFixed(2)) }));
} finally {
  front.child.kill('SIGTERM');
  upstream.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
