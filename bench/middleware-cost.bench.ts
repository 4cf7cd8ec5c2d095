// `npm run bench:middleware`: what each middleware costs per call, in µs, measured in process (its
// `handle` around a tool that answers at once): rate limit (token bucket in the memory store),
// audit (the keyed hash chain with its sealed head; fsync 'never' batched, 'never' with one call per
// event-loop turn as under HTTP load, and 'every-entry'), result budget (tokens counted on a small
// answer), and the three nested as the HTTP middleware row runs them. Each figure is the median over
// interleaved rounds of (time per call with the middleware − time per call through the bare
// harness), so it is the middleware's own cost. Issue 31 item 3 ("each middleware's cost per call
// reported in µs"); `npm run bench` runs it with the middleware suite and prints its table.
//
//   npm run bench:middleware
//   npm run bench:middleware -- --rounds 9 --calls 100000
//   --json   also print the figures as JSON on the last line (what bench/run.ts reads)
//
// Runs through tsx from src/ (the code is the same JavaScript the build emits); every file is in a
// temporary directory removed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditLog, rateLimit, resultBudget } from '../src/index.js';
import type { AuditLog, AuditLogOptions, CallOutcome, Middleware, ToolCall } from '../src/index.js';
import { createMemoryStore } from '../src/server/store/memory-store.js';
import { intOption } from './lib/int-option.js';
import { AUDIT_FLUSH_WITHIN_MS } from './servers/toolwright-app.js';

const rounds = intOption('--rounds', 7);
const bufferedCalls = intOption('--calls', 50_000);
const fsyncCalls = intOption('--fsync-calls', 1_000);
const json = process.argv.includes('--json');

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
const outcome: CallOutcome = { kind: 'result', outcome: 'respond', result: { resultType: 'complete', content: [{ type: 'text', text: '{"sum":5}' }], structuredContent: { sum: 5 } } };
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

/** An audit log with its key and head outside the log's folder, as `npm start` keeps them. */
function openAudit(fsync: 'never' | 'every-entry', flushWithinMs = 0): AuditLog {
  const logDir = temp('tw-mw-bench-log-');
  const keyDir = temp('tw-mw-bench-key-');
  const options: AuditLogOptions = { path: join(logDir, 'calls.jsonl'), fsync, key: join(keyDir, 'audit.key'), head: join(keyDir, 'calls.head'), ...(flushWithinMs > 0 ? { flushWithinMs } : {}) };
  const audit = auditLog(options);
  audit.open();
  return audit;
}

/** `chain[0]` outermost, as a tool's `use` list runs them. */
function nested(chain: readonly Middleware[]): () => Promise<CallOutcome> {
  const at = (index: number): Promise<CallOutcome> => (index === chain.length ? next() : Promise.resolve(chain[index]!.handle(call, () => at(index + 1))));
  return () => at(0);
}

interface Row { readonly name: string; readonly calls: number; readonly usPerCall: number; readonly min: number; readonly max: number; readonly bareUs: number }

const turn = (): Promise<void> => new Promise((done) => setImmediate(done));

async function measure(name: string, calls: number, chain: readonly Middleware[], perTurn: boolean): Promise<Row> {
  const run = nested(chain);
  const measured = perTurn ? (): Promise<CallOutcome> => turn().then(run) : run;
  const bare = perTurn ? (): Promise<CallOutcome> => turn().then(next) : next;
  await timePerCall(Math.min(calls, 2_000), measured);
  await timePerCall(Math.min(calls, 2_000), bare);
  const costs: number[] = [];
  const bareTimes: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const base = await timePerCall(calls, bare);
    const withMiddleware = await timePerCall(calls, measured);
    bareTimes.push(base);
    costs.push(withMiddleware - base);
  }
  return { name, calls, usPerCall: median(costs), min: Math.min(...costs), max: Math.max(...costs), bareUs: median(bareTimes) };
}

try {
  const limit = rateLimit({ capacity: 1e9, refillPerSecond: 1e9 });
  const budget = resultBudget({ maxTokens: 4096 });
  const rows: Row[] = [];
  rows.push(await measure('rateLimit (memory store)', bufferedCalls, [limit], false));
  rows.push(await measure('resultBudget (maxTokens 4096, small answer)', bufferedCalls, [budget], false));
  const batched = openAudit('never');
  rows.push(await measure("auditLog, fsync 'never' (batched)", bufferedCalls, [batched], false));
  const perTurn = openAudit('never');
  rows.push(await measure("auditLog, fsync 'never', one call per event-loop turn", bufferedCalls / 5, [perTurn], true));
  const windowed = openAudit('never', AUDIT_FLUSH_WITHIN_MS);
  rows.push(await measure(`auditLog, fsync 'never', flushWithinMs ${AUDIT_FLUSH_WITHIN_MS}, one call per event-loop turn`, bufferedCalls / 5, [windowed], true));
  const synced = openAudit('every-entry');
  rows.push(await measure("auditLog, fsync 'every-entry'", fsyncCalls, [synced], false));
  const chainAudit = openAudit('never', AUDIT_FLUSH_WITHIN_MS);
  rows.push(await measure(`rate limit + audit ('never', flushWithinMs ${AUDIT_FLUSH_WITHIN_MS}) + budget, one call per turn (the HTTP middleware row's chain)`, bufferedCalls / 5, [limit, chainAudit, budget], true));
  for (const audit of [batched, perTurn, windowed, synced, chainAudit]) audit.close();
  const lines = [
    'Middleware cost per call (µs; median of interleaved rounds, with the middleware minus the bare harness; keyed audit chain with its sealed head)',
    '',
    '| middleware | calls × rounds | µs/call (median) | range | bare harness µs/call |',
    '|---|---|---:|---|---:|',
    ...rows.map((r) => `| ${r.name} | ${r.calls} × ${rounds} | ${r.usPerCall.toFixed(2)} | ${r.min.toFixed(2)}–${r.max.toFixed(2)} | ${r.bareUs.toFixed(2)} |`),
    '',
  ];
  process.stdout.write(lines.join('\n'));
  if (json) process.stdout.write(`\n${JSON.stringify({ rounds, rows })}\n`);
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
