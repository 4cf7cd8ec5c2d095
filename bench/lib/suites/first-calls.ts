// First calls of a fresh process (issue 31 item 4): a server that is fast only once V8 has promoted
// its pipeline shows it here. Each sample starts a new server process, waits for one answered
// `server/discover` (start-up is the cold-start suite's figure, not this one's), then times the
// first `calls` sequential `tools/call` round trips, every answer checked: over stdio (2026-07-28
// `_meta` on each request) and over HTTP (one keep-alive connection). The 2025 stdio figure comes
// from the legacy suite (its `medianStdioCold`). Servers take turns sample by sample.
import { Agent } from 'node:http';
import { checkDiscoverAnswer, checkSumAnswer, parseRpcBody } from '../answers.js';
import { postRpc } from '../http-client.js';
import { startHttpServer, stopProcess } from '../processes.js';
import type { ServerId, ServerUnderTest } from '../servers.js';
import { median } from '../stats.js';
import { StdioSession, within } from '../stdio-session.js';
import { callSumRequest, discoverRequest } from '../../shared/mcp.js';

export interface FirstCallsOptions {
  /** Calls timed per fresh process. */
  readonly calls: number;
  /** Fresh processes per server and transport. */
  readonly rounds: number;
  readonly log: (line: string) => void;
}

export interface FirstCallsOutcome {
  readonly id: ServerId;
  error?: string;
  /** Calls per second of the first `calls` calls, one sample per fresh process. */
  readonly stdioCallsPerSec: number[];
  readonly httpCallsPerSec: number[];
  medianStdio?: number;
  medianHttp?: number;
}

export interface FirstCallsResult {
  readonly calls: number;
  readonly rounds: number;
  readonly servers: FirstCallsOutcome[];
}

// Even 200 round trips per second finish inside it; a silent server cannot hang the run.
const boundMs = (calls: number): number => 15000 + calls * 5;

async function stdioSample(server: ServerUnderTest, calls: number): Promise<number> {
  const session = new StdioSession(server.stdioScript, ['--tools', '1'], server.nodeFlags ?? []);
  try {
    checkDiscoverAnswer(JSON.parse(await within(session.exchange(JSON.stringify(discoverRequest(1))), 15000, `${server.id} server/discover`)) as Parameters<typeof checkDiscoverAnswer>[0], 1);
    const started = process.hrtime.bigint();
    await within((async () => {
      for (let id = 2; id < calls + 2; id++) checkSumAnswer(JSON.parse(await session.exchange(JSON.stringify(callSumRequest(id)))) as Parameters<typeof checkSumAnswer>[0], id);
    })(), boundMs(calls), `${server.id} first ${calls} stdio calls`);
    return calls / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    await session.close();
  }
}

async function httpSample(server: ServerUnderTest, calls: number): Promise<number> {
  const running = await startHttpServer(server.httpScript, [...(server.httpArgs ?? []), '--port', '0', '--tools', '1'], server.nodeFlags ?? []);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const discover = await postRpc(running.port, discoverRequest(1), 15000, agent);
    checkDiscoverAnswer(parseRpcBody(discover.contentType, discover.body), 1);
    const started = process.hrtime.bigint();
    await within((async () => {
      for (let id = 2; id < calls + 2; id++) {
        const answer = await postRpc(running.port, callSumRequest(id), 15000, agent);
        checkSumAnswer(parseRpcBody(answer.contentType, answer.body), id);
      }
    })(), boundMs(calls), `${server.id} first ${calls} HTTP calls`);
    return calls / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    agent.destroy();
    await stopProcess(running.child);
  }
}

export async function runFirstCallsSuite(servers: readonly ServerUnderTest[], options: FirstCallsOptions): Promise<FirstCallsResult> {
  const outcomes: FirstCallsOutcome[] = servers.map((server) => ({ id: server.id, stdioCallsPerSec: [], httpCallsPerSec: [] }));
  for (let round = 0; round < options.rounds; round++) {
    for (const [index, server] of servers.entries()) {
      const outcome = outcomes[index]!;
      if (outcome.error !== undefined) continue;
      try {
        outcome.stdioCallsPerSec.push(await stdioSample(server, options.calls));
        outcome.httpCallsPerSec.push(await httpSample(server, options.calls));
        options.log(`  first ${options.calls} calls, round ${round + 1}/${options.rounds}: ${server.id} stdio ${outcome.stdioCallsPerSec.at(-1)!.toFixed(0)} calls/s, HTTP ${outcome.httpCallsPerSec.at(-1)!.toFixed(0)} calls/s`);
      } catch (error) {
        outcome.error = error instanceof Error ? error.message : String(error);
        options.log(`  first calls: ${server.id} NOT MEASURED: ${outcome.error}`);
      }
    }
  }
  for (const outcome of outcomes) {
    if (outcome.error !== undefined) continue;
    outcome.medianStdio = median(outcome.stdioCallsPerSec);
    outcome.medianHttp = median(outcome.httpCallsPerSec);
  }
  return { calls: options.calls, rounds: options.rounds, servers: outcomes };
}
