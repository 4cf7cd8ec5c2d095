// Load generator, run as its own process so it never shares an event loop with a server under
// test. Reads one job (JSON) from stdin, drives it with autocannon, prints one JSON result line.
// autocannon's own latency histogram has 1 ms resolution, too coarse for sub-millisecond
// answers, so every response time is also kept here at full (hrtime) resolution.
import { createRequire } from 'node:module';

export interface LoadJob {
  readonly url: string;
  readonly connections: number;
  readonly durationSec: number;
  readonly body: string;
  readonly headers: Record<string, string>;
  /** Exact body every answer must equal; differences count as mismatches. */
  readonly expectBody?: string;
  readonly timeoutSec: number;
  /**
   * Requests every connection sends in turn (instead of `headers` and `expectBody`): each with its
   * own headers (e.g. one bearer token per caller) and the exact body its answer must equal.
   */
  readonly rotation?: readonly RotatingRequest[];
}

/** One entry of {@link LoadJob.rotation}: the same `body`, its own headers and expected answer. */
export interface RotatingRequest {
  readonly headers: Record<string, string>;
  readonly expectBody: string;
}

export interface LoadResult {
  readonly requests: number;
  readonly elapsedSec: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  readonly maxMs: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly mismatches: number;
  readonly bytesPerResponse: number;
}

interface AutocannonResult {
  readonly requests: { readonly total: number };
  readonly throughput: { readonly total: number };
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly mismatches: number;
  readonly start: Date;
  readonly finish: Date;
}

interface AutocannonInstance {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): void;
  on(event: 'done', listener: (result: AutocannonResult) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
}

type Autocannon = (options: Record<string, unknown>) => AutocannonInstance;

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as Autocannon;

function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

function run(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    let samples = new Float64Array(1 << 16);
    let count = 0;
    // Answers compared per rotating request (autocannon's expectBody is one body for all).
    let rotationMismatches = 0;
    const options: Record<string, unknown> = {
      url: job.url,
      method: 'POST',
      connections: job.connections,
      pipelining: 1,
      duration: job.durationSec,
      timeout: job.timeoutSec,
      headers: job.headers,
      body: job.body,
    };
    if (job.expectBody !== undefined) options['expectBody'] = job.expectBody;
    if (job.rotation !== undefined) {
      options['requests'] = job.rotation.map((entry) => ({
        method: 'POST',
        headers: entry.headers,
        body: job.body,
        onResponse: (status: number, body: string) => {
          if (status >= 200 && status <= 299 && body !== entry.expectBody) rotationMismatches++;
        },
      }));
    }
    const instance = autocannon(options);
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode < 200 || statusCode > 299) return;
      if (count === samples.length) {
        const grown = new Float64Array(samples.length * 2);
        grown.set(samples);
        samples = grown;
      }
      samples[count++] = responseTimeMs;
    });
    instance.on('error', reject);
    instance.on('done', (result) => {
      const sorted = samples.slice(0, count).sort();
      let total = 0;
      for (let i = 0; i < sorted.length; i++) total += sorted[i]!;
      const elapsedSec = (new Date(result.finish).getTime() - new Date(result.start).getTime()) / 1000;
      resolve({
        requests: result.requests.total,
        elapsedSec,
        rps: result.requests.total / elapsedSec,
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
        meanMs: count > 0 ? total / count : Number.NaN,
        maxMs: count > 0 ? sorted[count - 1]! : Number.NaN,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        mismatches: result.mismatches + rotationMismatches,
        bytesPerResponse: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
      });
    });
  });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

readStdin()
  .then((raw) => {
    if (raw.trim() === '') throw new Error('usage: autocannon-worker < job.json (one LoadJob as JSON on stdin)');
    return run(JSON.parse(raw) as LoadJob);
  })
  .then(
    (result) => { process.stdout.write(JSON.stringify(result) + '\n'); },
    (error: unknown) => { process.stderr.write(`load failed: ${error instanceof Error ? error.message : String(error)}\n`); process.exit(1); },
  );
