// `npm run bench:audit`: what the auditLog middleware costs per call, in µs, measured in process
// (its `handle` around a tool that answers at once), for each fsync policy. The figure is the
// median over rounds of (time per audited call − time per bare call through the same harness), so
// it is the middleware's own cost: argument digest, record text, chain link, write (and fsync), head.
//
//   npm run bench:audit                   default rounds
//   npm run bench:audit -- --rounds 9 --calls 100000
//
// Runs through tsx from src/ (the code is the same JavaScript the build emits); every file is in a
// temporary directory removed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditLog } from '../src/index.js';
import type { AuditLogOptions, CallOutcome, ToolCall } from '../src/index.js';
import { createMemoryStore } from '../src/server/store/memory-store.js';
import { intOption } from './lib/int-option.js';

const option = intOption;

const rounds = option('--rounds', 7);
const bufferedCalls = option('--calls', 50_000);
const fsyncCalls = option('--fsync-calls', 1_000);

const store = createMemoryStore();
const call: ToolCall = {
  tool: { name: 'calculate_sum', descriptor: { name: 'calculate_sum', inputSchema: { type: 'object' } } },
  arguments: { a: 2, b: 3 },
  ctx: undefined,
  auth: undefined,
  subject: '',
  requestId: 7,
  taskId: undefined,
  transport: 'http',
  operator: undefined,
  requestMeta: {},
  store,
  note() {},
  report() {},
};
const outcome: CallOutcome = { kind: 'result', outcome: 'respond', result: { content: [{ type: 'text', text: '{"sum":5}' }], structuredContent: { sum: 5 } } };
const next = (): Promise<CallOutcome> => Promise.resolve(outcome);

async function timePerCall(calls: number, run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await run();
  return Number(process.hrtime.bigint() - started) / 1000 / calls;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const dirs: string[] = [];
const temp = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

/** Options for one measured log; the key and head, when the API has them, outside the log's folder. */
function logOptions(fsync: 'never' | 'every-entry'): AuditLogOptions {
  const logDir = temp('tw-audit-bench-log-');
  const keyDir = temp('tw-audit-bench-key-');
  return { path: join(logDir, 'calls.jsonl'), fsync, ...({ key: join(keyDir, 'audit.key'), head: join(keyDir, 'calls.head') } as object) };
}

try {
  const rows: string[] = [];
  // `never, per turn`: one call per turn of the event loop, as under HTTP load, so each call's line
  // (and head) is written by its own flush rather than batched with thousands of others.
  const turn = (): Promise<void> => new Promise((done) => setImmediate(done));
  for (const [label, fsync, calls, perTurn] of [['never', 'never', bufferedCalls, false], ['never, per turn', 'never', bufferedCalls / 5, true], ['every-entry', 'every-entry', fsyncCalls, false]] as const) {
    const audit = auditLog(logOptions(fsync));
    audit.open();
    const bareNext = perTurn ? (): Promise<CallOutcome> => turn().then(next) : next;
    const audited = perTurn ? (): Promise<CallOutcome> => turn().then(() => audit.handle(call, next)) : (): Promise<CallOutcome> => Promise.resolve(audit.handle(call, next));
    await timePerCall(Math.min(calls, 2_000), audited);
    await timePerCall(Math.min(calls, 2_000), bareNext);
    const costs: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const base = await timePerCall(calls, bareNext);
      const withAudit = await timePerCall(calls, audited);
      bare.push(base);
      costs.push(withAudit - base);
    }
    audit.close();
    rows.push(`| ${label} | ${calls} × ${rounds} | ${median(costs).toFixed(2)} | ${Math.min(...costs).toFixed(2)}–${Math.max(...costs).toFixed(2)} | ${median(bare).toFixed(2)} |`);
  }
  process.stdout.write([
    'auditLog middleware, cost per call (µs; median of rounds, audited minus bare harness time)',
    '',
    '| fsync | calls × rounds | µs/call (median) | range | bare harness µs/call |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n'));
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
