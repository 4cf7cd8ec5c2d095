// stdio suite: one client, strictly sequential `tools/call` round trips over stdin/stdout, every
// answer checked. Rounds are interleaved across servers like the HTTP suite.
import { checkSumAnswer, rejectionOf } from '../answers.js';
import type { ServerId, ServerUnderTest } from '../servers.js';
import { cpuTimeMs } from '../processes.js';
import { median } from '../stats.js';
import { StdioSession, within } from '../stdio-session.js';
import { callSumRequest } from '../../shared/mcp.js';

export interface StdioSuiteOptions {
  /** Sequential calls per server per round. */
  readonly calls: number;
  /**
   * A round's calls go in blocks of this many, the servers taking turns block by block, so that a
   * change in the machine's load hits every server alike (a round trip's speed depends heavily on
   * how soon each process gets a core back).
   */
  readonly blockCalls: number;
  readonly warmupCalls: number;
  readonly rounds: number;
  readonly log: (line: string) => void;
}

export interface StdioServerOutcome {
  readonly id: ServerId;
  error?: string;
  rejection?: string;
  readonly roundTripsPerSec: number[];
  /** Server CPU (user + system) per round trip in each round, µs. */
  readonly cpuUsPerCall: number[];
  /** Round trips/s of every block, in the order the blocks ran (same index = adjacent in time across servers). */
  readonly blockRates: number[];
  median?: number;
  medianCpuUsPerCall?: number;
  peakRssKb?: number;
}

export interface StdioSuiteResult {
  readonly calls: number;
  readonly blockCalls: number;
  readonly rounds: number;
  readonly servers: StdioServerOutcome[];
}

let nextId = 10;

/** `count` checked round trips, one after another; resolves with the seconds they took. */
async function sequentialCalls(session: StdioSession, count: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const id = nextId++;
    const line = await session.exchange(JSON.stringify(callSumRequest(id)));
    checkSumAnswer(JSON.parse(line) as Parameters<typeof checkSumAnswer>[0], id);
  }
  return Number(process.hrtime.bigint() - started) / 1e9;
}

export async function runStdioSuite(servers: readonly ServerUnderTest[], options: StdioSuiteOptions): Promise<StdioSuiteResult> {
  const outcomes: StdioServerOutcome[] = servers.map((server) => ({ id: server.id, roundTripsPerSec: [], cpuUsPerCall: [], blockRates: [] }));
  const sessions = new Map<ServerId, StdioSession>();
  // Generous per-batch bound: even 1,000 round trips per second finishes well inside it.
  const boundMs = (calls: number): number => 30000 + calls * 1;
  try {
    for (const [index, server] of servers.entries()) {
      const outcome = outcomes[index]!;
      try {
        const session = new StdioSession(server.stdioScript, ['--tools', '1'], server.nodeFlags ?? []);
        sessions.set(server.id, session);
        await within(sequentialCalls(session, 1), 15000, `${server.id} first stdio answer`);
        if (server.validates) {
          const answer = await within(session.exchange(JSON.stringify(callSumRequest(2, { a: '20', b: 22 }))), 15000, `${server.id} invalid-arguments answer`);
          const rejection = rejectionOf(JSON.parse(answer) as Parameters<typeof rejectionOf>[0]);
          if (rejection === null) throw new Error(`claims to validate but executed calculate_sum with a string argument over stdio: ${answer.slice(0, 300)}`);
          outcome.rejection = rejection;
        }
        await within(sequentialCalls(session, options.warmupCalls), boundMs(options.warmupCalls), `${server.id} stdio warm-up`);
        options.log(`  stdio: ${server.id} verified and warmed up`);
      } catch (error) {
        outcome.error = error instanceof Error ? error.message : String(error);
        options.log(`  stdio: ${server.id} NOT MEASURED: ${outcome.error}`);
      }
    }

    const blockCalls = Math.max(1, Math.min(options.blockCalls, options.calls));
    const blocks = Math.ceil(options.calls / blockCalls);
    for (let round = 0; round < options.rounds; round++) {
      const seconds = new Map<ServerId, number>();
      const cpuBefore = new Map<ServerId, number>();
      for (const outcome of outcomes) {
        const session = sessions.get(outcome.id);
        if (session !== undefined && outcome.error === undefined) cpuBefore.set(outcome.id, cpuTimeMs(session.pid));
      }
      for (let block = 0; block < blocks; block++) {
        const count = Math.min(blockCalls, options.calls - block * blockCalls);
        const order = outcomes.map((_, i) => outcomes[(i + block + round) % outcomes.length]!);
        for (const outcome of order) {
          const session = sessions.get(outcome.id);
          if (session === undefined || outcome.error !== undefined) continue;
          try {
            const took = await within(sequentialCalls(session, count), boundMs(count), `${outcome.id} ${count} stdio calls`);
            seconds.set(outcome.id, (seconds.get(outcome.id) ?? 0) + took);
            outcome.blockRates.push(count / took);
          } catch (error) {
            outcome.error = error instanceof Error ? error.message : String(error);
            options.log(`  stdio: ${outcome.id} FAILED: ${outcome.error}`);
          }
        }
      }
      for (const outcome of outcomes) {
        const session = sessions.get(outcome.id);
        const took = seconds.get(outcome.id);
        if (session === undefined || outcome.error !== undefined || took === undefined) continue;
        const rate = options.calls / took;
        const cpuUs = ((cpuTimeMs(session.pid) - (cpuBefore.get(outcome.id) ?? 0)) * 1000) / options.calls;
        outcome.roundTripsPerSec.push(rate);
        outcome.cpuUsPerCall.push(cpuUs);
        options.log(`  stdio: round ${round + 1}/${options.rounds} ${outcome.id}: ${rate.toFixed(0)} round trips/s, ${cpuUs.toFixed(0)} µs server CPU/call`);
      }
    }

    for (const outcome of outcomes) {
      const session = sessions.get(outcome.id);
      if (session === undefined || outcome.error !== undefined) continue;
      outcome.median = median(outcome.roundTripsPerSec);
      outcome.medianCpuUsPerCall = median(outcome.cpuUsPerCall);
      outcome.peakRssKb = session.peakRssKb();
    }
  } finally {
    await Promise.all([...sessions.values()].map((session) => session.close()));
  }
  return { calls: options.calls, blockCalls: Math.max(1, Math.min(options.blockCalls, options.calls)), rounds: options.rounds, servers: outcomes };
}
