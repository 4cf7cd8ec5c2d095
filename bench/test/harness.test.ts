// The harness against real processes on 127.0.0.1 (TypeScript sources run through tsx): answers
// are verified, wrong or non-validating servers are refused, load results count mismatches, and
// every process is stopped by PID.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { checkSumAnswer, parseRpcBody } from '../lib/answers.js';
import { postRpc } from '../lib/http-client.js';
import { loadProblems, runLoad } from '../lib/http-load.js';
import { startHttpServer, stopProcess } from '../lib/processes.js';
import type { ServerUnderTest } from '../lib/servers.js';
import { runColdStart } from '../lib/suites/cold-start.js';
import { runHttpSuite, type HttpSuiteOptions } from '../lib/suites/http-calls.js';
import { runStdioSuite } from '../lib/suites/stdio-roundtrips.js';
import { callSumRequest, httpHeadersFor, listToolsRequest, MCP_PATH } from '../shared/mcp.js';
import { median } from '../lib/stats.js';
import type { LoadResult } from '../lib/http-load.js';
import { TSX_LOADER } from '../../test/support/repo-paths.js';

const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
// The loader by absolute URL: `--import tsx` would resolve from the working directory.
const TSX = ['--import', TSX_LOADER];
const BARE_HTTP = source('../servers/bare-http.ts');
const BARE_STDIO = source('../servers/bare-stdio.ts');
const WORKER = { script: source('../load/autocannon-worker.ts'), nodeFlags: TSX };
const bare: ServerUnderTest = { id: 'bare', label: 'bare', httpScript: BARE_HTTP, stdioScript: BARE_STDIO, validates: false, nodeFlags: TSX };
const silent = (): void => {};

/** The load result's figures agree with each other (each is derived from the same responses). */
function assertConsistentLoad(result: LoadResult): void {
  assert.ok(Number.isInteger(result.requests) && result.requests >= 1, `requests ${result.requests}`);
  assert.equal(result.rps, result.requests / result.elapsedSec);
  assert.ok(result.p50Ms <= result.p99Ms && result.p99Ms <= result.maxMs, JSON.stringify(result));
  assert.ok(result.meanMs <= result.maxMs, JSON.stringify(result));
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

const suiteOptions = (overrides: Partial<HttpSuiteOptions> = {}): HttpSuiteOptions => ({
  name: 'test', workload: 'tools/call', catalogSize: 1, concurrencies: [2], rounds: 1, durationSec: 0.3, warmupSec: 0.2, log: silent, loadWorker: WORKER, ...overrides,
});

test('load from the worker process: every answer equal to the verified body, then a wrong expected body is counted', async () => {
  const server = await startHttpServer(BARE_HTTP, ['--port', '0'], TSX);
  try {
    const message = callSumRequest(1);
    const answer = await postRpc(server.port, message);
    checkSumAnswer(parseRpcBody(answer.contentType, answer.body), 1);
    const job = { url: `http://127.0.0.1:${server.port}${MCP_PATH}`, connections: 2, durationSec: 0.3, body: JSON.stringify(message), headers: httpHeadersFor(message), timeoutSec: 5 };
    const ok = await runLoad(WORKER.script, { ...job, expectBody: answer.body }, WORKER.nodeFlags);
    assertConsistentLoad(ok);
    assert.equal(ok.mismatches, 0);
    assert.deepEqual(loadProblems(ok), []);
    const wrong = await runLoad(WORKER.script, { ...job, expectBody: answer.body.replace('42', '41') }, WORKER.nodeFlags);
    assertConsistentLoad(wrong);
    // Every answer is the real one, so every answer differs from the altered expectation.
    assert.equal(wrong.mismatches, wrong.requests);
    assert.deepEqual(loadProblems(wrong), [`${wrong.requests} answers differed from the verified body`]);
  } finally {
    await stopProcess(server.child);
  }
  assert.equal(alive(server.pid), false);
});

test('a server that answers a wrong sum is not measured', async () => {
  const wrong: ServerUnderTest = { ...bare, httpScript: source('./fixtures/wrong-sum-http.ts') };
  const result = await runHttpSuite([wrong], suiteOptions());
  const outcome = result.servers[0]!;
  assert.match(outcome.error ?? '', /structuredContent is \{"sum":41\}, expected \{"sum":42\}/);
  assert.deepEqual(outcome.byConcurrency, {});
});

test('a server claiming to validate but executing bad arguments is not measured', async () => {
  const result = await runHttpSuite([{ ...bare, validates: true }], suiteOptions());
  assert.match(result.servers[0]!.error ?? '', /claims to validate but executed calculate_sum with a is a string/);
});

test('HTTP suite on the bare reference: verified, measured per concurrency, peak RSS read', async () => {
  const result = await runHttpSuite([bare], suiteOptions({ concurrencies: [1, 2] }));
  const outcome = result.servers[0]!;
  assert.equal(outcome.error, undefined);
  assert.deepEqual(Object.keys(outcome.byConcurrency), ['1', '2']);
  for (const cell of Object.values(outcome.byConcurrency)) {
    assert.equal(cell.rounds.length, 1);
    const [round] = cell.rounds;
    assertConsistentLoad(round!);
    assert.deepEqual(loadProblems(round!), []);
    // One round: the cell's figures are that round's, and CPU per request is the server's CPU over its answers.
    assert.equal(cell.rps, round!.rps);
    assert.equal(cell.p99Ms, round!.p99Ms);
    assert.equal(cell.cpuUsPerRequest, round!.cpuUsPerRequest);
    assert.equal(round!.cpuUsPerRequest, (round!.serverCpuMs * 1000) / round!.requests);
  }
  // VmHWM in KiB: a Node.js process peaks well above 10 MiB and below 4 GiB; bytes or pages would fall outside.
  assert.ok(outcome.peakRssKb !== undefined && outcome.peakRssKb > 10 * 1024 && outcome.peakRssKb < 4 * 1024 * 1024, `peak RSS ${outcome.peakRssKb} KiB`);
});

test('HTTP suite: each round runs in a fresh process per server, none is left running', async () => {
  const lines: string[] = [];
  const result = await runHttpSuite([bare], suiteOptions({ rounds: 3, log: (line) => lines.push(line) }));
  assert.equal(result.servers[0]!.error, undefined);
  assert.equal(result.servers[0]!.byConcurrency['2']?.rounds.length, 3);
  const pids = lines.map((line) => /^ {2}test: round \d\/3 c=2 bare \(pid (\d+)\):/.exec(line)?.[1]).filter((pid) => pid !== undefined).map(Number);
  assert.equal(pids.length, 3, lines.join('\n'));
  assert.equal(new Set(pids).size, 3, `three rounds, three processes: ${pids.join(', ')}`);
  for (const pid of pids) assert.equal(alive(pid), false, `process ${pid} still running`);
  // Each process's peak RSS, and the highest of them as the server's.
  const peaks = result.servers[0]!.peakRssKbByProcess ?? [];
  assert.equal(peaks.length, 3);
  assert.equal(result.servers[0]!.peakRssKb, Math.max(...peaks));
});

test('tools/list suite walks every page and records bytes', async () => {
  const result = await runHttpSuite([bare], suiteOptions({ workload: 'tools/list', catalogSize: 20, concurrencies: [1], listWalks: 2 }));
  const outcome = result.servers[0]!;
  assert.equal(outcome.error, undefined);
  assert.equal(outcome.fullList?.pages, 1);
  assert.equal(outcome.fullList?.samplesMs.length, 2);
  // The bytes recorded are exactly those of the page, as a client fetching it itself receives them.
  const server = await startHttpServer(BARE_HTTP, ['--port', '0', '--tools', '20'], TSX);
  try {
    const page = await postRpc(server.port, listToolsRequest(100));
    assert.equal(outcome.fullList?.bytes, page.bytes);
  } finally {
    await stopProcess(server.child);
  }
});

test('stdio suite: sequential checked round trips against the bare stdio server', async () => {
  const result = await runStdioSuite([bare], { calls: 50, blockCalls: 20, warmupCalls: 10, rounds: 2, log: silent });
  const outcome = result.servers[0]!;
  assert.equal(outcome.error, undefined);
  assert.equal(outcome.roundTripsPerSec.length, 2);
  // 50 calls in blocks of 20: 20 + 20 + 10, per round.
  assert.equal(outcome.blockRates.length, 6);
  assert.equal(outcome.cpuUsPerCall.length, 2);
  for (const rate of [...outcome.roundTripsPerSec, ...outcome.blockRates]) assert.ok(Number.isFinite(rate) && rate > 0, `rate ${rate}`);
  assert.equal(outcome.median, median(outcome.roundTripsPerSec));
});

test('stdio suite: a server that dies is reported, not hung on', async () => {
  const dead: ServerUnderTest = { ...bare, stdioScript: source('./fixtures/exits-at-once.ts') };
  const result = await runStdioSuite([dead], { calls: 5, blockCalls: 5, warmupCalls: 1, rounds: 1, log: silent });
  assert.match(result.servers[0]!.error ?? '', /exited \(code 3/);
  assert.deepEqual(result.servers[0]!.roundTripsPerSec, []);
});

test('cold start: a verified server/discover answer, wall and CPU time per repetition', async () => {
  const result = await runColdStart([bare], { repetitions: 2, log: silent });
  const outcome = result.servers[0]!;
  assert.equal(outcome.error, undefined);
  assert.equal(outcome.samplesMs.length, 2);
  assert.equal(outcome.cpuSamplesMs.length, 2);
  assert.equal(result.nodeSamplesMs.length, 2);
});
