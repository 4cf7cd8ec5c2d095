// Scale-out figures (issue 19), all real processes on loopback (test/support/scaleout-cluster.ts):
// the latency nginx adds in front of an instance, the latency of one Redis claim (the store work
// of one approval), a legacy session served by an instance that did not open it, and throughput through nginx with 1 and with 3 instances. The instances run
// under tsx (the other suites run compiled JavaScript): compare these figures with each other,
// not with the other suites. On a 2-core machine shared by nginx, Redis, the load generator and
// the instances, 1 vs 3 is not a scaling figure; docs/scale-out.md says how it should scale.
import { createRequire } from 'node:module';
import { createMemoryStore, createRedisStore } from '../../../src/server/store/index.js';
import type { Store } from '../../../src/server/store/index.js';
import { startCluster } from '../../../test/support/scaleout-cluster.js';
import { missing } from '../../../test/support/local-services.js';

export interface LatencyFigure { readonly n: number; readonly p50Ms: number; readonly p99Ms: number; readonly meanMs: number }
export interface ThroughputFigure { readonly instances: number; readonly connections: number; readonly durationSec: number; readonly rps: number; readonly p50Ms: number; readonly p99Ms: number; readonly non2xx: number; readonly errors: number }
export interface ScaleoutSuiteResult {
  readonly skipped?: string;
  readonly direct?: LatencyFigure;
  readonly throughNginx?: LatencyFigure;
  readonly nginxHopP50Ms?: number;
  readonly claimRedis?: LatencyFigure;
  readonly claimMemory?: LatencyFigure;
  /** c=1 legacy 2025 `tools/call` on one instance, of a session opened on another (its record read from Redis per request). */
  readonly legacyElsewhere?: LatencyFigure;
  readonly throughput?: ThroughputFigure[];
}

interface AutocannonResult { requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number }
const autocannon = createRequire(import.meta.url)('autocannon') as (o: Record<string, unknown>, cb: (e: Error | null, r: AutocannonResult) => void) => unknown;

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'read_state' };
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_state', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });

function figure(samples: number[]): LatencyFigure {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  return { n: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), meanMs: sorted.reduce((s, v) => s + v, 0) / sorted.length };
}

/** Sequential calls (c=1), so each sample is one request's full latency; the answer is checked. */
async function sequential(url: string, n: number): Promise<LatencyFigure> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await fetch(url, { method: 'POST', headers: HEADERS, body: BODY });
    const text = await res.text();
    if (res.status !== 200 || !text.includes('"instance"')) throw new Error(`unexpected answer ${res.status} ${text.slice(0, 200)}`);
    samples.push(performance.now() - started);
  }
  return figure(samples);
}

/** c=1 legacy calls at `url` in a session opened at `openAt` (another instance). */
async function legacyCalls(openAt: string, url: string, n: number): Promise<LatencyFigure> {
  const post = (target: string, body: unknown, headers: Record<string, string>): Promise<Response> =>
    fetch(target, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
  const opened = await post(openAt, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }, {});
  const id = opened.headers.get('mcp-session-id');
  await opened.text();
  if (opened.status !== 200 || id === null) throw new Error(`legacy initialize failed: ${opened.status}`);
  const headers = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
  await (await post(openAt, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await post(url, { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'read_state', arguments: {} } }, headers);
    const text = await res.text();
    if (res.status !== 200 || !text.includes('"instance"')) throw new Error(`unexpected legacy answer ${res.status} ${text.slice(0, 200)}`);
    samples.push(performance.now() - started);
  }
  await fetch(url, { method: 'DELETE', headers });
  return figure(samples);
}

async function claims(store: Store, n: number): Promise<LatencyFigure> {
  const samples: number[] = [];
  const prefix = `bench-${process.pid}-${Date.now()}`;
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const claim = await store.claimOnce(`${prefix}-${i}`, { expiresAt: Date.now() + 60_000, value: { approvedBy: 'bench' } });
    samples.push(performance.now() - started);
    if (!claim.claimed) throw new Error('a fresh key was already claimed');
  }
  return figure(samples);
}

function load(url: string, connections: number, durationSec: number): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    autocannon({ url, method: 'POST', headers: HEADERS, body: BODY, connections, duration: durationSec, timeout: 10 }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

export async function runScaleoutSuite(options: { quick: boolean; durationSec: number; log: (line: string) => void }): Promise<ScaleoutSuiteResult> {
  const absent = missing('redis-server', 'nginx');
  if (absent !== undefined) {
    options.log(`  skipped: ${absent}`);
    return { skipped: absent };
  }
  const n = options.quick ? 300 : 2000;
  const throughput: ThroughputFigure[] = [];
  let latency: Pick<ScaleoutSuiteResult, 'direct' | 'throughNginx' | 'claimRedis' | 'claimMemory' | 'legacyElsewhere'> = {};
  for (const instances of [1, 3]) {
    const cluster = await startCluster(instances);
    try {
      // Warm up every path (tsx module load, keep-alive connections, JIT) before measuring.
      await sequential(cluster.instances[0]!.url, 100);
      await sequential(cluster.url, 100);
      if (instances === 3) {
        const direct = await sequential(cluster.instances[0]!.url, n);
        const throughNginx = await sequential(cluster.url, n);
        options.log(`  c=1 read_state: direct p50 ${direct.p50Ms.toFixed(3)} ms p99 ${direct.p99Ms.toFixed(3)} ms; through nginx p50 ${throughNginx.p50Ms.toFixed(3)} ms p99 ${throughNginx.p99Ms.toFixed(3)} ms`);
        const redis = createRedisStore({ url: cluster.redis.url });
        await redis.ready();
        await claims(redis, 100);
        const claimRedis = await claims(redis, n);
        await redis.close();
        const claimMemory = await claims(createMemoryStore(), n);
        options.log(`  one approval claim: Redis p50 ${claimRedis.p50Ms.toFixed(3)} ms p99 ${claimRedis.p99Ms.toFixed(3)} ms; memory p50 ${claimMemory.p50Ms.toFixed(4)} ms`);
        await legacyCalls(cluster.instances[1]!.url, cluster.instances[0]!.url, 50);
        const legacyElsewhere = await legacyCalls(cluster.instances[1]!.url, cluster.instances[0]!.url, n);
        options.log(`  c=1 legacy read_state on i1, session opened on i2: p50 ${legacyElsewhere.p50Ms.toFixed(3)} ms p99 ${legacyElsewhere.p99Ms.toFixed(3)} ms`);
        latency = { direct, throughNginx, claimRedis, claimMemory, legacyElsewhere };
      }
      const connections = 32;
      const result = await load(cluster.url, connections, options.durationSec);
      const cell: ThroughputFigure = { instances, connections, durationSec: options.durationSec, rps: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
      throughput.push(cell);
      options.log(`  through nginx, ${instances} instance(s), c=${connections}: ${cell.rps.toFixed(0)} req/s, p50 ${cell.p50Ms} ms, p99 ${cell.p99Ms} ms, ${cell.non2xx} non-2xx, ${cell.errors} errors`);
    } finally {
      await cluster.stop();
    }
  }
  const hop = latency.direct !== undefined && latency.throughNginx !== undefined ? latency.throughNginx.p50Ms - latency.direct.p50Ms : undefined;
  return { ...latency, ...(hop !== undefined ? { nginxHopP50Ms: hop } : {}), throughput };
}
