// The `auth` suite (issue 29): what a bearer token costs a request, and what per-caller views cost
// tools/list.
//   call:  HTTP tools/call at c=32 with `Authorization: Bearer`, sent alike to the bare reference,
//          Toolwright without authorize, with staticTokenAuthorizer and with jwtAuthorizer (local
//          JWKS); the tokens are the same length, so every server receives the same request bytes.
//   views: tools/list, 100 callers each with its own view (visibleTo on 99 of 100 tools), every
//          connection rotating over the 100 tokens, each answer compared with that caller's own
//          verified list; beside the same catalog without visibleTo and one caller.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkListPage, parseRpcBody, WrongAnswerError } from '../answers.js';
import { postRpc } from '../http-client.js';
import { loadProblems, runLoad, type LoadJob } from '../http-load.js';
import { cpuTimeMs, peakRssKb, startHttpServer, stopProcess, type RunningHttpServer } from '../processes.js';
import { AUTH_SERVER_SCRIPT, LOAD_WORKER, SERVERS, type ServerId, type ServerUnderTest } from '../servers.js';
import { median } from '../stats.js';
import { runHttpSuite, type HttpSuiteResult, type RoundSample } from './http-calls.js';
import { catalogOf } from '../../shared/catalog.js';
import { sees, VIEW_CALLERS, VIEW_CATALOG_SIZE, viewToken, type AuthFixture } from '../../shared/auth-fixtures.js';
import { callSumRequest, httpHeadersFor, listToolsRequest, MCP_PATH } from '../../shared/mcp.js';

/** Programs the suite starts; tests pass the TypeScript sources (with `nodeFlags` running tsx). */
export interface AuthPrograms {
  readonly bare: ServerUnderTest;
  readonly toolwright: ServerUnderTest;
  readonly authScript: string;
  readonly nodeFlags: readonly string[];
  readonly loadWorker: { readonly script: string; readonly nodeFlags: readonly string[] };
}

export interface AuthSuiteOptions {
  readonly rounds: number;
  readonly durationSec: number;
  readonly warmupSec: number;
  /** Connections of both rows (32 in the bench). */
  readonly concurrency: number;
  readonly log: (line: string) => void;
  /** Default: the compiled programs under .cache/bench. */
  readonly programs?: AuthPrograms;
}

/** One server of the views row. */
export interface ViewsOutcome {
  readonly id: ServerId;
  error?: string;
  /** Distinct answers over the 100 tokens as verified before timing (100 for views, 1 for one-view). */
  distinctViews?: number;
  /** Tools in each caller's verified list: smallest and largest. */
  toolsSeen?: { readonly min: number; readonly max: number };
  /** Bytes of the verified answers, median over callers. */
  answerBytes?: number;
  peakRssKb?: number;
  rounds: RoundSample[];
  rps?: number;
  p50Ms?: number;
  p99Ms?: number;
  cpuUsPerRequest?: number;
}

export interface AuthSuiteResult {
  /** tools/call with a bearer token (bare, Toolwright without authorize, static, JWT). */
  readonly call: HttpSuiteResult;
  readonly views: {
    readonly callers: number;
    readonly catalogSize: number;
    readonly concurrency: number;
    readonly rounds: number;
    readonly durationSec: number;
    readonly servers: ViewsOutcome[];
  };
}

const defaultPrograms = (): AuthPrograms => ({
  bare: SERVERS.find((s) => s.id === 'bare')!,
  toolwright: SERVERS.find((s) => s.id === 'toolwright')!,
  authScript: AUTH_SERVER_SCRIPT,
  nodeFlags: [],
  loadWorker: { script: LOAD_WORKER, nodeFlags: [] },
});

/**
 * Writes a fresh fixture to `dir/auth.json`: an ES256 key pair (its public half as a JWK Set), a JWT
 * signed with it valid for two hours, and a static token of the JWT's length.
 */
export async function writeAuthFixture(dir: string): Promise<{ path: string; fixture: AuthFixture }> {
  const jose = await import('jose');
  const { publicKey, privateKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const publicJwk = { ...(await jose.exportJWK(publicKey)), kid: 'bench-1', alg: 'ES256', use: 'sig' };
  const issuer = 'https://issuer.toolwright-bench.invalid';
  const resource = 'https://toolwright-bench.invalid/mcp';
  const jwt = await new jose.SignJWT({ scope: 'arm:read', client_id: 'toolwright-bench' })
    .setProtectedHeader({ alg: 'ES256', kid: 'bench-1' })
    .setIssuer(issuer).setAudience(resource).setSubject('bench-operator').setIssuedAt().setExpirationTime('2h')
    .sign(privateKey);
  let staticToken = '';
  while (staticToken.length < jwt.length) staticToken += crypto.getRandomValues(new Uint8Array(32)).reduce((text, byte) => text + byte.toString(16).padStart(2, '0'), '');
  staticToken = staticToken.slice(0, jwt.length);
  const fixture: AuthFixture = { staticToken, jwt, jwks: { keys: [publicJwk as Record<string, unknown>] }, issuer, resource };
  const path = join(dir, 'auth.json');
  writeFileSync(path, JSON.stringify(fixture), { mode: 0o600 });
  return { path, fixture };
}

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** An authorizing server must refuse a wrong token with 401 before its figures mean anything. */
async function checkRefusesWrongToken(port: number, message: ReturnType<typeof callSumRequest>, length: number): Promise<void> {
  const wrong = await postRpc(port, message, 30000, false, bearer('w'.repeat(length)));
  if (wrong.status !== 401) throw new WrongAnswerError(`a wrong bearer token answered HTTP ${wrong.status}, expected 401: ${wrong.body.slice(0, 200)}`);
}

async function callRow(fixture: AuthFixture, authFile: string, options: AuthSuiteOptions, programs: AuthPrograms): Promise<HttpSuiteResult> {
  const authServer = (id: ServerId, variant: string): ServerUnderTest => ({
    id, label: id, httpScript: programs.authScript, httpArgs: ['--auth-file', authFile, '--variant', variant], stdioScript: '', validates: true, nodeFlags: programs.nodeFlags,
  });
  const servers = [programs.bare, programs.toolwright, authServer('toolwright-auth-static', 'static'), authServer('toolwright-auth-jwt', 'jwt')];
  // Authorization must be on: start each authorizing server once and see a wrong token refused.
  const refused = new Map<ServerId, string>();
  for (const server of servers.slice(2)) {
    let running: RunningHttpServer | undefined;
    try {
      running = await startHttpServer(server.httpScript, [...(server.httpArgs ?? []), '--port', '0', '--tools', '1'], server.nodeFlags ?? []);
      await checkRefusesWrongToken(running.port, callSumRequest(1), fixture.jwt.length);
    } catch (error) {
      refused.set(server.id, error instanceof Error ? error.message : String(error));
    } finally {
      if (running !== undefined) await stopProcess(running.child);
    }
  }
  const measured = servers.filter((server) => !refused.has(server.id));
  const result = await runHttpSuite(measured, {
    name: 'auth call', workload: 'tools/call', catalogSize: 1, concurrencies: [options.concurrency], rounds: options.rounds,
    durationSec: options.durationSec, warmupSec: options.warmupSec, log: options.log, loadWorker: programs.loadWorker,
    extraHeaders: (server) => bearer(server.id === 'toolwright-auth-jwt' ? fixture.jwt : fixture.staticToken),
  });
  for (const [id, error] of refused) {
    options.log(`  auth call: ${id} NOT MEASURED: ${error}`);
    result.servers.push({ id, error, byConcurrency: {} });
  }
  return result;
}

interface ViewsEntry { readonly outcome: ViewsOutcome; readonly running: RunningHttpServer; readonly rotation: LoadJob['rotation'] }

/** Verifies every caller's list against {@link sees} and returns the rotation the load sends. */
async function verifyViews(id: ServerId, port: number, outcome: ViewsOutcome): Promise<NonNullable<LoadJob['rotation']>> {
  const message = listToolsRequest(1);
  const all = catalogOf(VIEW_CATALOG_SIZE).map((tool) => tool.name);
  const gated = id === 'toolwright-views';
  const callers = gated ? Array.from({ length: VIEW_CALLERS }, (_, i) => i) : [0];
  const bodies = new Map<number, string>();
  const sizes: number[] = [];
  const bytes: number[] = [];
  for (const caller of callers) {
    const headers = bearer(viewToken(caller));
    const answer = await postRpc(port, message, 30000, false, headers);
    if (answer.status !== 200) throw new WrongAnswerError(`caller ${caller}: tools/list answered HTTP ${answer.status}: ${answer.body.slice(0, 200)}`);
    const page = checkListPage(parseRpcBody(answer.contentType, answer.body), 1);
    const expected = gated ? all.filter((_, tool) => sees(caller, tool)) : all;
    if (page.nextCursor !== undefined) throw new WrongAnswerError(`caller ${caller}: the list was paginated; expected one page of ${expected.length}`);
    if (page.names.join(',') !== expected.join(',')) {
      const missing = expected.filter((n) => !page.names.includes(n));
      const extra = page.names.filter((n) => !expected.includes(n));
      throw new WrongAnswerError(`caller ${caller}: saw ${page.names.length} tools, expected ${expected.length} (missing: ${missing.slice(0, 3).join(', ') || 'none'}; not granted: ${extra.slice(0, 3).join(', ') || 'none'})`);
    }
    const again = await postRpc(port, message, 30000, false, headers);
    if (again.body !== answer.body) throw new WrongAnswerError(`caller ${caller}: two identical requests gave different bodies`);
    bodies.set(caller, answer.body);
    sizes.push(page.names.length);
    bytes.push(answer.bytes);
  }
  await checkRefusesWrongToken(port, message, viewToken(0).length);
  outcome.distinctViews = new Set(bodies.values()).size;
  if (outcome.distinctViews !== callers.length) throw new WrongAnswerError(`${callers.length} callers gave only ${outcome.distinctViews} distinct lists`);
  outcome.toolsSeen = { min: Math.min(...sizes), max: Math.max(...sizes) };
  outcome.answerBytes = median(bytes);
  const base = httpHeadersFor(message);
  // Every connection sends the 100 entries in turn: the 100 callers (views) or the one caller 100 times.
  return Array.from({ length: VIEW_CALLERS }, (_, i) => {
    const caller = gated ? i : 0;
    return { headers: { ...base, ...bearer(viewToken(caller)) }, expectBody: bodies.get(caller)! };
  });
}

async function viewsRow(authFile: string, options: AuthSuiteOptions, programs: AuthPrograms): Promise<AuthSuiteResult['views']> {
  const ids: [ServerId, string][] = [['toolwright-views', 'views'], ['toolwright-one-view', 'one-view']];
  const outcomes: ViewsOutcome[] = ids.map(([id]) => ({ id, rounds: [] }));
  const entries: ViewsEntry[] = [];
  const payload = JSON.stringify(listToolsRequest(1));
  try {
    for (const [index, [id, variant]] of ids.entries()) {
      const outcome = outcomes[index]!;
      let running: RunningHttpServer | undefined;
      try {
        running = await startHttpServer(programs.authScript, ['--auth-file', authFile, '--variant', variant, '--port', '0', '--tools', String(VIEW_CATALOG_SIZE)], programs.nodeFlags);
        const rotation = await verifyViews(id, running.port, outcome);
        entries.push({ outcome, running, rotation });
        options.log(`  auth views: ${id} verified (${outcome.distinctViews} distinct list(s), ${outcome.toolsSeen?.min}-${outcome.toolsSeen?.max} tools, ${outcome.answerBytes} B)`);
      } catch (error) {
        outcome.error = error instanceof Error ? error.message : String(error);
        options.log(`  auth views: ${id} NOT MEASURED: ${outcome.error}`);
        if (running !== undefined) await stopProcess(running.child);
      }
    }
    const measure = async (entry: ViewsEntry, durationSec: number): Promise<RoundSample | null> => {
      if (entry.outcome.error !== undefined) return null;
      try {
        const job: LoadJob = { url: `http://127.0.0.1:${entry.running.port}${MCP_PATH}`, connections: options.concurrency, durationSec, body: payload, headers: {}, rotation: entry.rotation, timeoutSec: 10 };
        const cpuBefore = cpuTimeMs(entry.running.pid);
        const result = await runLoad(programs.loadWorker.script, job, programs.loadWorker.nodeFlags);
        const serverCpuMs = cpuTimeMs(entry.running.pid) - cpuBefore;
        const problems = loadProblems(result);
        if (problems.length > 0) throw new Error(problems.join('; '));
        return { ...result, serverCpuMs, cpuUsPerRequest: result.requests > 0 ? (serverCpuMs * 1000) / result.requests : Number.NaN };
      } catch (error) {
        entry.outcome.error = error instanceof Error ? error.message : String(error);
        options.log(`  auth views: ${entry.outcome.id} FAILED under load: ${entry.outcome.error}`);
        return null;
      }
    };
    for (const entry of entries) await measure(entry, options.warmupSec);
    for (let round = 0; round < options.rounds; round++) {
      for (const entry of entries.map((_, i) => entries[(i + round) % entries.length]!)) {
        const sample = await measure(entry, options.durationSec);
        if (sample === null) continue;
        entry.outcome.rounds.push(sample);
        options.log(`  auth views: round ${round + 1}/${options.rounds} c=${options.concurrency} ${entry.outcome.id}: ${sample.rps.toFixed(0)} req/s, p50 ${sample.p50Ms.toFixed(2)} ms, p99 ${sample.p99Ms.toFixed(2)} ms, ${sample.cpuUsPerRequest.toFixed(0)} µs CPU/req`);
      }
    }
    for (const { outcome, running } of entries) {
      if (outcome.error !== undefined) continue;
      outcome.peakRssKb = peakRssKb(running.pid);
      outcome.rps = median(outcome.rounds.map((r) => r.rps));
      outcome.p50Ms = median(outcome.rounds.map((r) => r.p50Ms));
      outcome.p99Ms = median(outcome.rounds.map((r) => r.p99Ms));
      outcome.cpuUsPerRequest = median(outcome.rounds.map((r) => r.cpuUsPerRequest));
    }
  } finally {
    await Promise.all(entries.map((entry) => stopProcess(entry.running.child)));
  }
  return { callers: VIEW_CALLERS, catalogSize: VIEW_CATALOG_SIZE, concurrency: options.concurrency, rounds: options.rounds, durationSec: options.durationSec, servers: outcomes };
}

/** Runs both rows of the `auth` suite; the fixture (keys, tokens) lives in a temporary folder removed at the end. */
export async function runAuthSuite(options: AuthSuiteOptions): Promise<AuthSuiteResult> {
  const programs = options.programs ?? defaultPrograms();
  const dir = mkdtempSync(join(tmpdir(), 'toolwright-bench-auth-'));
  try {
    const { path, fixture } = await writeAuthFixture(dir);
    options.log(`  auth: tokens of ${fixture.jwt.length} characters (ES256 JWT and static token alike)`);
    const call = await callRow(fixture, path, options, programs);
    const views = await viewsRow(path, options, programs);
    return { call, views };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
