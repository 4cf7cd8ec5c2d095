// Cold start: from spawn to the first answered `server/discover` over stdio (the request is written
// into the pipe right after spawn, as a real client would). Node's own start-up, measured as
// spawn-to-exit of `node -e 0` in the same run, is reported beside it and subtracted.
import { checkDiscoverAnswer } from '../answers.js';
import { cpuTimeMs, runBounded } from '../processes.js';
import type { ServerId, ServerUnderTest } from '../servers.js';
import { median } from '../stats.js';
import { StdioSession, within } from '../stdio-session.js';
import { discoverRequest } from '../../shared/mcp.js';

export interface ColdStartOptions {
  readonly repetitions: number;
  readonly log: (line: string) => void;
}

export interface ColdStartOutcome {
  readonly id: ServerId;
  error?: string;
  readonly samplesMs: number[];
  /** CPU time (user + system) the server had used when its first answer arrived. */
  readonly cpuSamplesMs: number[];
  medianMs?: number;
  medianCpuMs?: number;
  /** Median minus the median of `node -e 0`. */
  overNodeMs?: number;
}

export interface ColdStartResult {
  readonly repetitions: number;
  readonly nodeBaselineMs: number;
  readonly nodeSamplesMs: number[];
  readonly servers: ColdStartOutcome[];
}

async function nodeBaseline(): Promise<number> {
  const started = process.hrtime.bigint();
  const outcome = await runBounded(process.execPath, ['-e', '0'], 10000);
  if (outcome.code !== 0) throw new Error(`node -e 0 failed: ${outcome.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function firstDiscover(server: ServerUnderTest): Promise<{ wallMs: number; cpuMs: number }> {
  const started = process.hrtime.bigint();
  const session = new StdioSession(server.stdioScript, ['--tools', '1'], server.nodeFlags ?? []);
  try {
    const line = await within(session.exchange(JSON.stringify(discoverRequest(1))), 15000, `${server.id} server/discover`);
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    const cpuMs = cpuTimeMs(session.pid);
    checkDiscoverAnswer(JSON.parse(line) as Parameters<typeof checkDiscoverAnswer>[0], 1);
    return { wallMs, cpuMs };
  } finally {
    await session.close();
  }
}

export async function runColdStart(servers: readonly ServerUnderTest[], options: ColdStartOptions): Promise<ColdStartResult> {
  const nodeSamplesMs: number[] = [];
  const outcomes: ColdStartOutcome[] = servers.map((server) => ({ id: server.id, samplesMs: [], cpuSamplesMs: [] }));
  for (let rep = 0; rep < options.repetitions; rep++) {
    nodeSamplesMs.push(await nodeBaseline());
    for (const [index, server] of servers.entries()) {
      const outcome = outcomes[index]!;
      if (outcome.error !== undefined) continue;
      try {
        const sample = await firstDiscover(server);
        outcome.samplesMs.push(sample.wallMs);
        outcome.cpuSamplesMs.push(sample.cpuMs);
      } catch (error) {
        outcome.error = error instanceof Error ? error.message : String(error);
        options.log(`  cold start: ${server.id} NOT MEASURED: ${outcome.error}`);
      }
    }
  }
  const nodeBaselineMs = median(nodeSamplesMs);
  for (const outcome of outcomes) {
    if (outcome.error !== undefined) continue;
    outcome.medianMs = median(outcome.samplesMs);
    outcome.overNodeMs = outcome.medianMs - nodeBaselineMs;
    outcome.medianCpuMs = median(outcome.cpuSamplesMs);
    options.log(`  cold start: ${outcome.id}: ${outcome.medianMs.toFixed(1)} ms (${outcome.overNodeMs.toFixed(1)} ms over node -e 0), ${outcome.medianCpuMs.toFixed(0)} ms CPU`);
  }
  return { repetitions: options.repetitions, nodeBaselineMs, nodeSamplesMs, servers: outcomes };
}
