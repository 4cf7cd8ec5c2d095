// The auth suite against real processes (TypeScript sources through tsx; the Toolwright program
// loads the built dist/): both rows verified and measured, a rotation's answers compared per
// request, and a server that does not authorize refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { postRpc } from '../lib/http-client.js';
import { runLoad } from '../lib/http-load.js';
import { startHttpServer, stopProcess } from '../lib/processes.js';
import type { ServerUnderTest } from '../lib/servers.js';
import { runAuthSuite, type AuthPrograms, type AuthSuiteResult, type ViewsOutcome } from '../lib/suites/auth.js';
import { authTargets } from '../lib/auth-report.js';
import type { RoundSample } from '../lib/suites/http-calls.js';
import { callSumRequest, httpHeadersFor, MCP_PATH } from '../shared/mcp.js';
import { gateOf, sees, VIEW_CALLERS, VIEW_CATALOG_SIZE } from '../shared/auth-fixtures.js';
import { TSX_LOADER } from '../../test/support/repo-paths.js';

const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const TSX = ['--import', TSX_LOADER];
const bare: ServerUnderTest = { id: 'bare', label: 'bare', httpScript: source('../servers/bare-http.ts'), stdioScript: source('../servers/bare-stdio.ts'), validates: false, nodeFlags: TSX };
const programs = (authScript: string): AuthPrograms => ({
  bare,
  toolwright: { id: 'toolwright', label: 'Toolwright', httpScript: source('../servers/toolwright-http.ts'), stdioScript: '', validates: true, nodeFlags: TSX },
  authScript, nodeFlags: TSX, loadWorker: { script: source('../load/autocannon-worker.ts'), nodeFlags: TSX },
});
const quick = { rounds: 1, durationSec: 0.3, warmupSec: 0.2, concurrency: 4, log: (): void => {} };

test('the fixture rule: caller i sees what gateOf grants it, and the 100 views are distinct', () => {
  const views = new Set<string>();
  for (let caller = 0; caller < VIEW_CALLERS; caller++) {
    const even = caller % 2 === 0;
    let key = '';
    for (let tool = 0; tool < VIEW_CATALOG_SIZE; tool++) {
      const gate = gateOf(tool);
      const granted = gate === undefined || (gate.tenants.includes(`tenant-${String(caller).padStart(3, '0')}`) && (gate.scopes === undefined || even));
      assert.equal(sees(caller, tool), granted, `caller ${caller}, tool ${tool}`);
      key += granted ? '1' : '0';
    }
    views.add(key);
  }
  assert.equal(views.size, VIEW_CALLERS);
});

test('a rotation: each answer compared with its own expected body', async () => {
  const server = await startHttpServer(bare.httpScript, ['--port', '0'], TSX);
  try {
    const message = callSumRequest(1);
    const answer = await postRpc(server.port, message);
    const headers = httpHeadersFor(message);
    const rotation = [{ headers: { ...headers, authorization: 'Bearer one' }, expectBody: answer.body }, { headers: { ...headers, authorization: 'Bearer two' }, expectBody: 'not this' }];
    const result = await runLoad(programs('').loadWorker.script, { url: `http://127.0.0.1:${server.port}${MCP_PATH}`, connections: 1, durationSec: 0.3, body: JSON.stringify(message), headers: {}, rotation, timeoutSec: 5 }, TSX);
    // One connection alternates the two entries: half the answers meet the wrong expectation.
    assert.ok(result.requests >= 2);
    assert.ok(Math.abs(result.mismatches - result.requests / 2) <= 1, `${result.mismatches} mismatches of ${result.requests}`);
  } finally {
    await stopProcess(server.child);
  }
});

test('auth suite: static and JWT rows refuse a wrong token, then are measured; 100 distinct views', async () => {
  const result = await runAuthSuite({ ...quick, programs: programs(source('../servers/toolwright-auth.ts')) });
  for (const outcome of result.call.servers) {
    assert.equal(outcome.error, undefined, `${outcome.id}: ${outcome.error}`);
    assert.equal(outcome.byConcurrency['4']?.rounds.length, 1);
  }
  assert.deepEqual(result.call.servers.map((s) => s.id), ['bare', 'toolwright', 'toolwright-auth-static', 'toolwright-auth-jwt']);
  const [views, one] = result.views.servers;
  assert.equal(views?.error, undefined, views?.error);
  assert.equal(one?.error, undefined, one?.error);
  assert.equal(views?.distinctViews, VIEW_CALLERS);
  assert.equal(one?.distinctViews, 1);
  assert.deepEqual(views?.toolsSeen, { min: 90, max: 100 });
  assert.ok((views?.rps ?? 0) > 0 && (one?.rps ?? 0) > 0);
});

test('auth suite: a server that authorizes nothing is not measured in either row', async () => {
  const result = await runAuthSuite({ ...quick, programs: programs(source('./fixtures/ignores-auth-http.ts')) });
  for (const id of ['toolwright-auth-static', 'toolwright-auth-jwt'] as const) {
    assert.match(result.call.servers.find((s) => s.id === id)?.error ?? '', /wrong bearer token answered HTTP 200, expected 401/);
  }
  assert.match(result.views.servers[0]?.error ?? '', /caller 1: saw 100 tools, expected 90 \(missing: none; not granted: rotate_arm_1, move_gripper_10, move_camera_20\)/);
  assert.match(result.views.servers[1]?.error ?? '', /wrong bearer token answered HTTP 200/);
});

function sample(rps: number): RoundSample {
  return { requests: rps, elapsedSec: 1, rps, p50Ms: 1, p99Ms: 5, meanMs: 1, maxMs: 5, non2xx: 0, errors: 0, timeouts: 0, mismatches: 0, bytesPerResponse: 200, serverCpuMs: rps / 20, cpuUsPerRequest: 50 };
}

function figures(staticRps: number, viewsRps: number): AuthSuiteResult {
  const cell = (rps: number) => ({ '32': { rounds: [sample(rps)], rps, p50Ms: 1, p99Ms: 5, cpuUsPerRequest: 50 } });
  const views = (id: ViewsOutcome['id'], rps: number): ViewsOutcome => ({ id, rounds: [sample(rps)], rps, p50Ms: 1, p99Ms: 5, cpuUsPerRequest: 50, distinctViews: 1 });
  return {
    call: { name: 'auth call', workload: 'tools/call', catalogSize: 1, concurrencies: [32], rounds: 1, durationSec: 1, servers: [{ id: 'bare', byConcurrency: cell(1000) }, { id: 'toolwright-auth-static', byConcurrency: cell(staticRps) }] },
    views: { callers: 100, catalogSize: 100, concurrency: 32, rounds: 1, durationSec: 1, servers: [views('toolwright-views', viewsRps), views('toolwright-one-view', 1000)] },
  };
}

test('auth targets: static token ≥ 0.75× bare, views ≥ 0.50× one caller; a failed server is not measured', () => {
  assert.deepEqual(authTargets(figures(750, 500)).map((c) => c.verdict), ['met', 'met']);
  assert.deepEqual(authTargets(figures(749, 499)).map((c) => c.verdict), ['MISSED', 'MISSED']);
  const failed = figures(750, 500);
  failed.call.servers[1]!.error = 'exited before READY';
  failed.views.servers[0]!.error = 'caller 3: saw 100 tools';
  assert.deepEqual(authTargets(failed).map((c) => [c.verdict, c.measured]), [['not measured', 'exited before READY'], ['not measured', 'caller 3: saw 100 tools']]);
  assert.deepEqual(authTargets(undefined).map((c) => c.verdict), ['not measured', 'not measured']);
});
