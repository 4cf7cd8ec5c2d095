// Legacy (2025) suite: what a 2025 client costs. Each session is `initialize` (+ the initialized
// notification) and then `callsPerSession` sequential `tools/call` round trips, every answer
// checked; over HTTP several sessions run side by side on keep-alive sockets (each carrying its
// Mcp-Session-Id when the server minted one), over stdio one session is one server process.
// Servers take turns round by round so load drift hits all alike.
import { Agent, request } from 'node:http';
import { parseRpcBody, WrongAnswerError } from '../answers.js';
import { startHttpServer, stopProcess } from '../processes.js';
import type { ServerId, ServerUnderTest } from '../servers.js';
import { median } from '../stats.js';
import { StdioSession, within } from '../stdio-session.js';
import { EXPECTED_SUM, MCP_PATH, SUM_ARGS } from '../../shared/mcp.js';

export interface LegacySuiteOptions {
  readonly sessions: number;
  readonly callsPerSession: number;
  readonly rounds: number;
  readonly log: (line: string) => void;
}

export interface LegacyServerOutcome {
  readonly id: ServerId;
  error?: string;
  /** Calls per second per round (initialize included in the time), all sessions together. */
  readonly httpCallsPerSec: number[];
  /** stdio, per round: the session's calls after a warm-up of the same number of calls (the target's figure). */
  readonly stdioCallsPerSec: number[];
  /** stdio, per round: the first `callsPerSession` calls of a fresh process, right after initialize. */
  readonly stdioColdCallsPerSec: number[];
  medianHttp?: number;
  medianStdio?: number;
  medianStdioCold?: number;
}

export interface LegacySuiteResult {
  readonly sessions: number;
  readonly callsPerSession: number;
  readonly rounds: number;
  readonly servers: LegacyServerOutcome[];
}

const VERSION = '2025-11-25';
const INITIALIZE = (id: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'toolwright-bench', version: '1.0.0' } } });
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
const CALL = (id: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'calculate_sum', arguments: SUM_ARGS } });

/** A 2025 answer: the sum as structured content (no resultType is required on this wire). */
function checkLegacySum(message: ReturnType<typeof parseRpcBody>, id: number): void {
  if (message.id !== id) throw new WrongAnswerError(`legacy tools/call: id ${JSON.stringify(message.id)} does not echo ${id}`);
  if (message.error !== undefined) throw new WrongAnswerError(`legacy tools/call: error ${JSON.stringify(message.error)}`);
  const structured = message.result?.['structuredContent'] as Record<string, unknown> | undefined;
  if (structured?.['sum'] !== EXPECTED_SUM) throw new WrongAnswerError(`legacy tools/call: structuredContent is ${JSON.stringify(structured)}`);
}

interface Posted { status: number; type: string; body: string; sessionId: string | undefined }

function post(port: number, agent: Agent, body: string, sessionId: string | undefined): Promise<Posted> {
  const headers: Record<string, string | number> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) };
  if (sessionId !== undefined) {
    headers['mcp-session-id'] = sessionId;
    headers['mcp-protocol-version'] = VERSION;
  }
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: MCP_PATH, method: 'POST', headers, agent, timeout: 30000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const minted = res.headers['mcp-session-id'];
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8'), sessionId: typeof minted === 'string' ? minted : undefined });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
    req.end(body);
  });
}

/** One HTTP session: initialize, initialized, then the calls. */
async function httpSession(port: number, agent: Agent, calls: number): Promise<void> {
  const init = await post(port, agent, INITIALIZE(1), undefined);
  if (init.status !== 200) throw new WrongAnswerError(`initialize answered HTTP ${init.status}: ${init.body.slice(0, 300)}`);
  const sessionId = init.sessionId;
  await post(port, agent, INITIALIZED, sessionId);
  for (let i = 0; i < calls; i++) {
    const id = 100 + i;
    const answer = await post(port, agent, CALL(id), sessionId);
    checkLegacySum(parseRpcBody(answer.type, answer.body), id);
  }
}

async function measureHttp(server: ServerUnderTest, options: LegacySuiteOptions): Promise<number> {
  const running = await startHttpServer(server.legacyHttpScript ?? server.httpScript, [...((server.legacyHttpScript === undefined ? server.httpArgs : server.legacyHttpArgs) ?? []), '--port', '0', '--tools', '1'], server.nodeFlags ?? []);
  const agent = new Agent({ keepAlive: true, maxSockets: options.sessions });
  try {
    await within(httpSession(running.port, agent, 20), 30000, `${server.id} legacy HTTP warm-up`);
    const started = process.hrtime.bigint();
    await within(Promise.all(Array.from({ length: options.sessions }, () => httpSession(running.port, agent, options.callsPerSession))), 300000, `${server.id} legacy HTTP sessions`);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return (options.sessions * options.callsPerSession) / seconds;
  } finally {
    agent.destroy();
    await stopProcess(running.child);
  }
}

/** Calls between the cold block and the warm block of a stdio session. */
export const STDIO_WARMUP_CALLS = 5000;

/**
 * One stdio session = one server process, so its first calls also pay the process's warm-up (JIT,
 * validator code generation) that a bare responder barely has; over HTTP the server process is
 * warm from earlier sessions. Both figures are kept: `cold` is the first `callsPerSession` calls
 * after initialize, `warm` the same number after {@link STDIO_WARMUP_CALLS} untimed warm-up calls on the same session.
 */
async function measureStdio(server: ServerUnderTest, options: LegacySuiteOptions): Promise<{ cold: number; warm: number }> {
  const session = new StdioSession(server.legacyStdioScript ?? server.stdioScript, ['--tools', '1'], server.nodeFlags ?? []);
  try {
    // Timed from the initialize answer: before it, the time is the process's cold start (the cold suite measures that).
    const init = JSON.parse(await within(session.exchange(INITIALIZE(1)), 15000, `${server.id} legacy initialize`)) as { result?: { protocolVersion?: string } };
    if (init.result?.protocolVersion === undefined) throw new WrongAnswerError(`initialize over stdio did not negotiate a version: ${JSON.stringify(init).slice(0, 300)}`);
    session.child.stdin?.write(`${INITIALIZED}\n`);
    let id = 100;
    const block = async (calls = options.callsPerSession): Promise<number> => {
      const started = process.hrtime.bigint();
      for (let i = 0; i < calls; i++, id++) {
        checkLegacySum(JSON.parse(await within(session.exchange(CALL(id)), 30000, `${server.id} legacy stdio call`)) as ReturnType<typeof parseRpcBody>, id);
      }
      return calls / (Number(process.hrtime.bigint() - started) / 1e9);
    };
    const cold = await block();
    // Untimed: V8 keeps promoting the pipeline's functions for a few thousand calls (measured: the
    // rate climbs until about call 5,000 and is flat after), while the bare responder is warm at once.
    await block(STDIO_WARMUP_CALLS);
    return { cold, warm: await block() };
  } finally {
    await session.close();
  }
}

export async function runLegacySuite(servers: readonly ServerUnderTest[], options: LegacySuiteOptions): Promise<LegacySuiteResult> {
  const outcomes: LegacyServerOutcome[] = servers.map((server) => ({ id: server.id, httpCallsPerSec: [], stdioCallsPerSec: [], stdioColdCallsPerSec: [] }));
  for (let round = 0; round < options.rounds; round++) {
    for (const [index, server] of servers.entries()) {
      const outcome = outcomes[index]!;
      if (outcome.error !== undefined) continue;
      try {
        outcome.httpCallsPerSec.push(await measureHttp(server, options));
        const stdio = await measureStdio(server, options);
        outcome.stdioCallsPerSec.push(stdio.warm);
        outcome.stdioColdCallsPerSec.push(stdio.cold);
        options.log(`  legacy round ${round + 1}: ${server.id} HTTP ${outcome.httpCallsPerSec.at(-1)!.toFixed(0)} calls/s, stdio ${stdio.warm.toFixed(0)} calls/s (first ${options.callsPerSession} of the process: ${stdio.cold.toFixed(0)} calls/s)`);
      } catch (error) {
        outcome.error = error instanceof Error ? error.message : String(error);
        options.log(`  legacy: ${server.id} NOT MEASURED: ${outcome.error}`);
      }
    }
  }
  for (const outcome of outcomes) {
    if (outcome.error !== undefined) continue;
    outcome.medianHttp = median(outcome.httpCallsPerSec);
    outcome.medianStdio = median(outcome.stdioCallsPerSec);
    outcome.medianStdioCold = median(outcome.stdioColdCallsPerSec);
  }
  return { sessions: options.sessions, callsPerSession: options.callsPerSession, rounds: options.rounds, servers: outcomes };
}
