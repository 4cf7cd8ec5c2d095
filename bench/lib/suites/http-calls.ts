// HTTP load suite: the same request against every server in interleaved rounds (every round visits
// every concurrency and every server, in a rotating order) so that drift in machine load hits all
// servers alike. Each round starts every server afresh (verified, then warmed up): a process is one
// draw of its program's speed, and the median over rounds is a median over processes.
import { Agent } from 'node:http';
import { checkListPage, checkSumAnswer, checkWholeList, parseRpcBody, rejectionOf } from '../answers.js';
import { postRpc } from '../http-client.js';
import { loadProblems, runLoad, type LoadResult } from '../http-load.js';
import { cpuTimeMs, peakRssKb, startHttpServer, stopProcess, type RunningHttpServer } from '../processes.js';
import { LOAD_WORKER, type ServerId, type ServerUnderTest } from '../servers.js';
import { median, percentileOf } from '../stats.js';
import { callSumRequest, httpHeadersFor, listToolsRequest, MCP_PATH, type JsonRpcRequest } from '../../shared/mcp.js';

export type HttpWorkload = 'tools/call' | 'tools/list';

export interface HttpSuiteOptions {
  readonly name: string;
  readonly workload: HttpWorkload;
  readonly catalogSize: number;
  readonly concurrencies: readonly number[];
  readonly rounds: number;
  readonly durationSec: number;
  readonly warmupSec: number;
  readonly log: (line: string) => void;
  /** Extra node flags for the server processes (e.g. `--cpu-prof`). */
  readonly nodeFlags?: readonly string[];
  /** tools/list only: how many timed sequential walks over every page, per server. */
  readonly listWalks?: number;
  /** Headers sent to a server besides the 2026-07-28 ones (e.g. `authorization`), in verification and under load. */
  readonly extraHeaders?: (server: ServerUnderTest) => Record<string, string>;
  /** The load generator program; defaults to the compiled autocannon worker. */
  readonly loadWorker?: { readonly script: string; readonly nodeFlags: readonly string[] };
}

export interface FullListWalk {
  readonly pages: number;
  readonly bytes: number;
  readonly samplesMs: number[];
  readonly medianMs: number;
  readonly p99Ms: number;
}

/** One measured run: the load generator's view plus the server's own CPU time during it. */
export interface RoundSample extends LoadResult {
  /** Server process CPU (user + system) spent during the run, ms (10 ms ticks). */
  readonly serverCpuMs: number;
  /**
   * Server CPU per answered request, µs. On a machine shared with other work this is the steadier
   * cost figure: waiting for a core inflates latency and lowers req/s, but not CPU per request.
   */
  readonly cpuUsPerRequest: number;
}

export interface HttpCell {
  readonly rounds: RoundSample[];
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly cpuUsPerRequest: number;
}

export interface HttpServerOutcome {
  readonly id: ServerId;
  /** Set when the server could not be measured; no numbers are reported for it then. */
  error?: string;
  /** Bytes of one verified answer body. */
  answerBytes?: number;
  /** How the server answered schema-violating arguments (validating servers only). */
  rejections?: Record<string, string>;
  /** Peak RSS (VmHWM), KiB: the highest of the server's processes (one per round). */
  peakRssKb?: number;
  /** Each process's peak RSS, KiB, in round order. */
  peakRssKbByProcess?: number[];
  /** tools/list only: fetching the whole catalog page by page. */
  fullList?: FullListWalk;
  readonly byConcurrency: Record<string, HttpCell>;
}

export interface HttpSuiteResult {
  readonly name: string;
  readonly workload: HttpWorkload;
  readonly catalogSize: number;
  readonly concurrencies: readonly number[];
  readonly rounds: number;
  readonly durationSec: number;
  readonly servers: HttpServerOutcome[];
}

const BAD_ARGUMENTS: Record<string, Record<string, unknown>> = {
  'a is a string': { a: '20', b: 22 },
  'extra property c': { a: 20, b: 22, c: 1 },
  'b missing': { a: 20 },
  'a is 1.5': { a: 1.5, b: 22 },
};

async function verify(server: ServerUnderTest, running: RunningHttpServer, options: HttpSuiteOptions, outcome: HttpServerOutcome): Promise<string> {
  const message: JsonRpcRequest = options.workload === 'tools/call' ? callSumRequest(1) : listToolsRequest(1);
  const extra = options.extraHeaders?.(server) ?? {};
  const answer = await postRpc(running.port, message, 30000, false, extra);
  if (answer.status !== 200) throw new Error(`${options.workload} answered HTTP ${answer.status}: ${answer.body.slice(0, 300)}`);
  const parsed = parseRpcBody(answer.contentType, answer.body);
  if (options.workload === 'tools/call') checkSumAnswer(parsed, 1);
  else {
    const walk = await walkList(running.port, false, extra);
    checkWholeList(walk.names, options.catalogSize);
    checkListPage(parsed, 1);
  }
  outcome.answerBytes = answer.bytes;
  if (server.validates && options.workload === 'tools/call') {
    const rejections: Record<string, string> = {};
    for (const [label, args] of Object.entries(BAD_ARGUMENTS)) {
      const bad = await postRpc(running.port, callSumRequest(2, args), 30000, false, extra);
      const rejection = rejectionOf(parseRpcBody(bad.contentType, bad.body));
      if (rejection === null) throw new Error(`claims to validate but executed calculate_sum with ${label}: ${bad.body.slice(0, 300)}`);
      rejections[label] = `HTTP ${bad.status}, ${rejection}`;
    }
    outcome.rejections = rejections;
  }
  // A second identical request must give the identical body, or expectBody would be meaningless.
  const again = await postRpc(running.port, message, 30000, false, extra);
  if (again.body !== answer.body) throw new Error('two identical requests produced different bodies; cannot verify answers under load');
  return answer.body;
}

/** Fetch the whole tool list, following `nextCursor`; bounded to 10,000 pages. */
async function walkList(port: number, agent: Agent | false, extraHeaders: Record<string, string> = {}): Promise<{ names: string[]; pages: number; bytes: number }> {
  const names: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let bytes = 0;
  do {
    const id = 100 + pages;
    const answer = await postRpc(port, listToolsRequest(id, cursor), 30000, agent, extraHeaders);
    if (answer.status !== 200) throw new Error(`tools/list page ${pages + 1} answered HTTP ${answer.status}: ${answer.body.slice(0, 300)}`);
    const page = checkListPage(parseRpcBody(answer.contentType, answer.body), id);
    names.push(...page.names);
    cursor = page.nextCursor;
    bytes += answer.bytes;
    pages++;
    if (pages > 10000) throw new Error('tools/list did not end after 10,000 pages');
  } while (cursor !== undefined);
  return { names, pages, bytes };
}

async function timeListWalks(port: number, walks: number, extraHeaders: Record<string, string>): Promise<FullListWalk> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const samplesMs: number[] = [];
    let last = { pages: 0, bytes: 0 };
    for (let i = 0; i < walks; i++) {
      const started = process.hrtime.bigint();
      last = await walkList(port, agent, extraHeaders);
      samplesMs.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    return { pages: last.pages, bytes: last.bytes, samplesMs, medianMs: median(samplesMs), p99Ms: percentileOf(samplesMs, 0.99) };
  } finally {
    agent.destroy();
  }
}

export async function runHttpSuite(servers: readonly ServerUnderTest[], options: HttpSuiteOptions): Promise<HttpSuiteResult> {
  const outcomes: HttpServerOutcome[] = servers.map((server) => ({ id: server.id, byConcurrency: {} }));
  const running = new Map<ServerId, { server: ServerUnderTest; process: RunningHttpServer; body: string; outcome: HttpServerOutcome }>();
  const message: JsonRpcRequest = options.workload === 'tools/call' ? callSumRequest(1) : listToolsRequest(1);
  const payload = JSON.stringify(message);
  const headers = httpHeadersFor(message);

  const peakKb = new Map<ServerId, number[]>();
  /** Starts and verifies every server still measurable, each in a fresh process. */
  const startAll = async (round: number): Promise<void> => {
    for (const [index, server] of servers.entries()) {
      const outcome = outcomes[index]!;
      if (outcome.error !== undefined) continue;
      let started: RunningHttpServer | undefined;
      try {
        started = await startHttpServer(server.httpScript, [...(server.httpArgs ?? []), '--port', '0', '--tools', String(options.catalogSize)], [...(server.nodeFlags ?? []), ...(options.nodeFlags ?? [])]);
        const body = await verify(server, started, options, outcome);
        running.set(server.id, { server, process: started, body, outcome });
        if (round === 0) options.log(`  ${options.name}: ${server.id} verified (${outcome.answerBytes} B answer)`);
      } catch (error) {
        outcome.error = error instanceof Error ? error.message : String(error);
        options.log(`  ${options.name}: ${server.id} NOT MEASURED: ${outcome.error}`);
        if (started !== undefined) await stopProcess(started.child);
      }
    }
  };
  /** Stops every running server, keeping the highest peak RSS each server's processes reached. */
  const stopAll = async (): Promise<void> => {
    for (const entry of running.values()) {
      try {
        peakKb.set(entry.server.id, [...(peakKb.get(entry.server.id) ?? []), peakRssKb(entry.process.pid)]);
      } catch (error) {
        entry.outcome.error ??= `peak RSS unreadable: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    await Promise.all([...running.values()].map((entry) => stopProcess(entry.process.child)));
    running.clear();
  };

  try {
    const jobFor = (entry: { server: ServerUnderTest; process: RunningHttpServer; body: string }, connections: number, durationSec: number) => ({
      url: `http://127.0.0.1:${entry.process.port}${MCP_PATH}`,
      connections, durationSec, body: payload, headers: { ...headers, ...options.extraHeaders?.(entry.server) }, expectBody: entry.body, timeoutSec: 10,
    });

    const measure = async (entry: { server: ServerUnderTest; process: RunningHttpServer; body: string; outcome: HttpServerOutcome }, connections: number, durationSec: number): Promise<RoundSample | null> => {
      if (entry.outcome.error !== undefined) return null;
      try {
        const worker = options.loadWorker ?? { script: LOAD_WORKER, nodeFlags: [] };
        const cpuBefore = cpuTimeMs(entry.process.pid);
        const result = await runLoad(worker.script, jobFor(entry, connections, durationSec), worker.nodeFlags);
        const serverCpuMs = cpuTimeMs(entry.process.pid) - cpuBefore;
        const problems = loadProblems(result);
        if (problems.length > 0) throw new Error(`c=${connections}: ${problems.join('; ')}`);
        return { ...result, serverCpuMs, cpuUsPerRequest: result.requests > 0 ? (serverCpuMs * 1000) / result.requests : Number.NaN };
      } catch (error) {
        entry.outcome.error = error instanceof Error ? error.message : String(error);
        options.log(`  ${options.name}: ${entry.server.id} FAILED under load: ${entry.outcome.error}`);
        return null;
      }
    };

    const warmupConnections = Math.max(...options.concurrencies);
    const samples = new Map<string, RoundSample[]>();
    for (let round = 0; round < options.rounds; round++) {
      // Every round runs in fresh processes: two processes of the same program differ by up to
      // 2x in CPU per request for their whole life (bench/README.md, "One process is one draw"),
      // so one process per server would let a single draw decide a whole row.
      if (round > 0) await stopAll();
      await startAll(round);
      const entries = [...running.values()];
      for (const entry of entries) await measure(entry, warmupConnections, options.warmupSec);
      for (const connections of options.concurrencies) {
        const order = entries.map((_, i) => entries[(i + round) % entries.length]!);
        for (const entry of order) {
          const result = await measure(entry, connections, options.durationSec);
          if (result === null) continue;
          const key = `${entry.server.id}@${connections}`;
          samples.set(key, [...(samples.get(key) ?? []), result]);
          options.log(`  ${options.name}: round ${round + 1}/${options.rounds} c=${connections} ${entry.server.id} (pid ${entry.process.pid}): ${result.rps.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, ${result.cpuUsPerRequest.toFixed(0)} µs CPU/req`);
        }
      }
    }

    if (options.workload === 'tools/list' && options.listWalks !== undefined) {
      for (const entry of running.values()) {
        if (entry.outcome.error !== undefined) continue;
        try {
          entry.outcome.fullList = await timeListWalks(entry.process.port, options.listWalks, options.extraHeaders?.(entry.server) ?? {});
          options.log(`  ${options.name}: ${entry.server.id} whole list: ${entry.outcome.fullList.pages} page(s), ${entry.outcome.fullList.bytes} B, median ${entry.outcome.fullList.medianMs.toFixed(2)} ms`);
        } catch (error) {
          entry.outcome.error = error instanceof Error ? error.message : String(error);
        }
      }
    }

    const lastEntries = [...running.values()];
    await stopAll();
    for (const entry of lastEntries) {
      if (entry.outcome.error !== undefined) continue;
      const peaks = peakKb.get(entry.server.id) ?? [];
      if (peaks.length > 0) {
        entry.outcome.peakRssKb = Math.max(...peaks);
        entry.outcome.peakRssKbByProcess = peaks;
      }
      for (const connections of options.concurrencies) {
        const rounds = samples.get(`${entry.server.id}@${connections}`) ?? [];
        entry.outcome.byConcurrency[String(connections)] = {
          rounds,
          rps: median(rounds.map((r) => r.rps)),
          p50Ms: median(rounds.map((r) => r.p50Ms)),
          p99Ms: median(rounds.map((r) => r.p99Ms)),
          cpuUsPerRequest: median(rounds.map((r) => r.cpuUsPerRequest)),
        };
      }
    }
  } finally {
    await stopAll();
  }

  return {
    name: options.name, workload: options.workload, catalogSize: options.catalogSize,
    concurrencies: options.concurrencies, rounds: options.rounds, durationSec: options.durationSec, servers: outcomes,
  };
}
